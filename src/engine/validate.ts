import {
  acceptsNull,
  choiceWords,
  conditionalRule,
  consequenceNames,
  constraintPhrases,
  forbiddenWords,
  formatWords,
  isPresenceChoice,
  type JsonSchema,
  nearest,
  orList,
  type SchemaErrors,
  shown,
  type Tool,
  validatorFor,
} from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { scanArguments } from "./argument-limits.js";
import type { Finding } from "./findings.js";

export type ValidatedArguments =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; findings: Finding[] };

/**
 * Checks a call's arguments against the tool's inputSchema and returns every problem at
 * once, each with a ToolScan code and a message that says what to send instead.
 */
export function validateArguments(tool: Tool, raw: unknown): ValidatedArguments {
  return validateInput(tool.inputSchema, raw);
}

/** The same check for any input schema (control tools have no catalog entry). */
export function validateInput(schema: JsonSchema, raw: unknown): ValidatedArguments {
  const shape = checkShape(raw);
  if (!shape.ok) return shape;
  // limits first: nothing recursive may walk arguments past them
  const scan = scanArguments(shape.args, declaredNames(schema));
  if (scan.limit) return { ok: false, findings: [scan.limit] };
  const args = withoutOptionalNulls(schema, shape.args) as Record<string, unknown>;
  const validate = validatorFor(schema);
  const valid = validate(args);
  if (valid && scan.reserved.length === 0) return { ok: true, args };
  // a reserved key the schema also calls unknown is reported once, with the reason it is refused
  const reservedAt = new Set(scan.reserved.map((f) => f.argument));
  const schemaFindings = valid ? [] : mapErrors(validate.errors ?? []);
  const findings = [
    ...scan.reserved,
    ...schemaFindings.filter((f) => !(f.code === "IAN" && reservedAt.has(f.argument))),
  ];
  return { ok: false, findings: findings.length > 0 ? findings : [generic()] };
}

const declared = new WeakMap<JsonSchema, Set<string>>();

/** Every property name a schema declares, at any depth: a tool may ask for a `constructor`. */
function declaredNames(schema: JsonSchema): Set<string> {
  let names = declared.get(schema);
  if (names) return names;
  names = new Set();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== "object") continue;
    const properties = (node as Record<string, unknown>).properties;
    if (properties && typeof properties === "object")
      for (const name of Object.keys(properties)) names.add(name);
    pending.push(...Object.values(node));
  }
  declared.set(schema, names);
  return names;
}

/**
 * Null for an optional argument means "not given": strict-mode models must send every
 * argument and send null for the ones they leave out. Only where the schema takes null as
 * a value of its own does null stay.
 */
function withoutOptionalNulls(schema: unknown, value: unknown): unknown {
  if (!schema || typeof schema !== "object") return value;
  const s = schema as JsonSchema;
  if (Array.isArray(value)) {
    const items = s.items;
    return isPlainObject(items) ? value.map((item) => withoutOptionalNulls(items, item)) : value;
  }
  if (!value || typeof value !== "object") return value;
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? s.required.map(String) : []);
  let out: Record<string, unknown> | undefined;
  for (const [name, item] of Object.entries(value)) {
    const sub = properties[name];
    const kept =
      item === null && !required.has(name) && sub !== undefined && !acceptsNull(sub)
        ? undefined
        : withoutOptionalNulls(sub, item);
    if (kept === item) continue;
    out ??= { ...(value as Record<string, unknown>) };
    if (kept === undefined) delete out[name];
    else out[name] = kept;
  }
  return out ?? value;
}

function checkShape(raw: unknown): ValidatedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {} };
  if (isPlainObject(raw)) return { ok: true, args: raw };
  let hint = "";
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isPlainObject(parsed))
        hint = " It looks like JSON text: send the object itself, not a string that encodes it.";
    } catch {
      hint = " It is not even JSON text.";
    }
  }
  const got = Array.isArray(raw) ? "an array" : `a ${typeof raw}`;
  return {
    ok: false,
    findings: [
      {
        code: "IFE",
        severity: "error",
        message: `The arguments must be a JSON object mapping parameter names to values; got ${got}.${hint}`,
      },
    ],
  };
}

function mapErrors(errors: SchemaErrors): Finding[] {
  const mapped: Array<{ keyword: string; finding: Finding }> = [];
  const seen = new Set<string>();
  // Sub-schema errors of a failed anyOf/oneOf/contains are noise next to the combined one
  // (each item that is not the one `contains` wants fails it); keep only the combined.
  const combined = errors
    .filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf" || e.keyword === "contains")
    .map((e) => e.schemaPath);
  // An if/then rule is explained once, with its condition, instead of by its inner failures.
  const conditional = errors.filter((e) => e.keyword === "if").map((e) => e.schemaPath.replace(/\/if$/, ""));
  for (const error of errors) {
    if (combined.some((path) => error.schemaPath.startsWith(`${path}/`))) continue;
    if (conditional.some((path) => /^\/(then|else)\//.test(error.schemaPath.slice(path.length)))) continue;
    const finding = mapError(error);
    if (!finding) continue;
    const key = `${finding.code}|${finding.argument}|${finding.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    mapped.push({ keyword: error.keyword, finding });
  }
  return onePerArgument(mapped);
}

/**
 * One finding per argument: a value of the wrong type also fails its enum, pattern or
 * length, and those would only repeat the problem. The allowed values say the most, so
 * an enum or const finding stands for the argument when there is one.
 */
function onePerArgument(mapped: Array<{ keyword: string; finding: Finding }>): Finding[] {
  const rank = (keyword: string) =>
    keyword === "enum" || keyword === "const" ? 0 : keyword === "type" ? 1 : 2;
  const best = new Map<string, { keyword: string; finding: Finding; typeError: boolean }>();
  const order: Array<string | Finding> = [];
  for (const { keyword, finding } of mapped) {
    if (finding.argument === undefined || finding.code === "IAN") {
      order.push(finding);
      continue;
    }
    const previous = best.get(finding.argument);
    if (!previous) order.push(finding.argument);
    const typeError = keyword === "type" || Boolean(previous?.typeError);
    if (!previous || rank(keyword) < rank(previous.keyword))
      best.set(finding.argument, { keyword, finding, typeError });
    else previous.typeError = typeError;
  }
  return order.map((entry) => {
    if (typeof entry !== "string") return entry;
    const chosen = best.get(entry);
    if (!chosen) throw new Error(`no finding kept for ${entry}`);
    // a value of the wrong type stays a type problem whichever message explains it
    return chosen.typeError ? { ...chosen.finding, code: "IAT" } : chosen.finding;
  });
}

type AjvError = SchemaErrors[number];

function mapError(error: AjvError): Finding | undefined {
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const got = describeValue(error.data);
  const parent = (error.parentSchema ?? {}) as JsonSchema;
  switch (error.keyword) {
    case "additionalProperties": {
      const name = String(params.additionalProperty);
      const argument = join(at, name);
      const known = Object.keys(propertiesOf(error.parentSchema));
      const suggestions = nearest(name, known, 3);
      const hint = suggestions.length
        ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(" or ")}?`
        : known.length
          ? ` Known: ${known.join(", ")}.`
          : "";
      return {
        code: "IAN",
        severity: "error",
        argument,
        message: `Unknown argument "${argument}".${hint}`,
        suggestions,
      };
    }
    case "unevaluatedProperties": {
      const name = String(params.unevaluatedProperty);
      return {
        code: "IAN",
        severity: "error",
        argument: join(at, name),
        message: `Unknown argument "${join(at, name)}".`,
      };
    }
    case "required": {
      const name = String(params.missingProperty);
      const argument = join(at, name);
      const description = describeProperty(propertiesOf(error.parentSchema)[name]);
      return {
        code: "IAV",
        severity: "error",
        argument,
        message: `Missing required argument "${argument}"${description ? ` (${description})` : ""}.`,
      };
    }
    case "dependentRequired":
      return {
        code: "IAV",
        severity: "error",
        argument: join(at, String(params.missingProperty)),
        message: `"${join(at, String(params.missingProperty))}" is required when "${join(at, String(params.property))}" is given.`,
      };
    case "type":
      return {
        code: "IAT",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${article(String(params.type))}; got ${got}.`,
      };
    case "enum":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be one of ${(params.allowedValues as unknown[]).map(shown).join(", ")}; got ${got}.`,
      };
    case "const":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${shown(params.allowedValue)}; got ${got}.`,
      };
    case "format":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${formatWords(String(params.format))}; got ${got}.`,
      };
    case "pattern":
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "uniqueItems": {
      // a range reads best whole: "from 1 to 20" rather than the bound that failed
      const range = error.keyword === "minimum" || error.keyword === "maximum";
      const phrases = constraintPhrases(
        range ? { minimum: parent.minimum, maximum: parent.maximum } : { [error.keyword]: error.schema },
      );
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must ${phrases[0] ?? error.message ?? "be in range"}; got ${got}.`,
      };
    }
    case "minProperties":
    case "maxProperties": {
      const unit = at ? "field" : "argument";
      const count = Number(error.schema);
      const bound = error.keyword === "minProperties" ? "at least" : "at most";
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${at ? label(at) : "The call"} must have ${bound} ${count} ${count === 1 ? unit : `${unit}s`}; got ${Object.keys((error.data ?? {}) as object).length}.`,
      };
    }
    case "contains":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} ${error.message ?? "has no matching item"}; got ${got}.`,
      };
    case "anyOf":
    case "oneOf": {
      const options = error.schema as unknown[];
      if (Array.isArray(options) && isPresenceChoice(options)) {
        const how = error.keyword === "anyOf" ? "at least one" : "exactly one";
        return {
          code: "IAV",
          severity: "error",
          argument: at || undefined,
          message: `${rulePrefix(at)}give ${how} of ${choiceWords(options)}.`,
        };
      }
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} matches none of the allowed forms (${alternatives(error.schema)}); got ${got}.`,
      };
    }
    case "if": {
      const branch = parent[String(params.failingKeyword ?? "then")];
      const names = consequenceNames(branch);
      return {
        code: "IAV",
        severity: "error",
        argument: names.length === 1 ? join(at, names[0] ?? "") : at || undefined,
        message: `${rulePrefix(at)}${conditionalRule(parent)}`,
      };
    }
    case "not": {
      const names = consequenceNames({ not: error.schema });
      return {
        code: "IAV",
        severity: "error",
        argument: names.length === 1 ? join(at, names[0] ?? "") : at || undefined,
        message: `${rulePrefix(at)}${forbiddenWords(error.schema)}.`,
      };
    }
    case "false schema":
      return generic(at, error.message);
    default:
      return generic(at, error.message);
  }
}

/** Rules tie arguments together, so their findings name the rule rather than one value. */
function rulePrefix(at: string): string {
  return at ? `Rule broken in "${at}": ` : "Rule broken: ";
}

function generic(at = "", reason?: string): Finding {
  return {
    code: "IAV",
    severity: "error",
    argument: at || undefined,
    message: `${label(at)} is not valid${reason ? `: ${reason}` : ""}.`,
  };
}

function pointerToPath(pointer: string): string {
  if (!pointer) return "";
  let out = "";
  for (const raw of pointer.slice(1).split("/")) {
    const segment = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    out += /^[0-9]+$/.test(segment) ? `[${segment}]` : out ? `.${segment}` : segment;
  }
  return out;
}

function join(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}

function label(at: string): string {
  return at ? `"${at}"` : "The call";
}

function article(type: string): string {
  return type
    .split(",")
    .map((t) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`))
    .join(" or ");
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  const text = JSON.stringify(value);
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${kind} ${shown}`;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  if (!schema || typeof schema !== "object") return {};
  const properties = (schema as Record<string, unknown>).properties;
  return properties && typeof properties === "object" ? (properties as Record<string, unknown>) : {};
}

function describeProperty(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "";
  const s = schema as Record<string, unknown>;
  const parts: string[] = [];
  if (s.type) parts.push(String(s.type));
  if (Array.isArray(s.enum)) parts.push(`one of ${orList(s.enum.map(shown))}`);
  if (typeof s.description === "string") parts.push(s.description.trim().replace(/\.$/, ""));
  return parts.join("; ");
}

function alternatives(schemas: unknown): string {
  if (!Array.isArray(schemas)) return "see the schema";
  return schemas
    .map((s) => {
      const schema = (s ?? {}) as Record<string, unknown>;
      if (schema.const !== undefined) return JSON.stringify(schema.const);
      if (Array.isArray(schema.required)) return `an object with ${schema.required.join(", ")}`;
      return String(schema.type ?? "a value");
    })
    .join(" | ");
}
