import { type JsonSchema, nearest, type SchemaErrors, type Tool, validatorFor } from "../catalog/index.js";
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
  const shape = checkShape(raw);
  if (!shape.ok) return shape;
  // limits first: nothing recursive may walk arguments past them
  const scan = scanArguments(shape.args, declaredNames(tool.inputSchema));
  if (scan.limit) return { ok: false, findings: [scan.limit] };
  const validate = validatorFor(tool.inputSchema);
  const valid = validate(shape.args);
  if (valid && scan.reserved.length === 0) return shape;
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

function checkShape(raw: unknown): ValidatedArguments {
  if (raw === undefined || raw === null) return { ok: true, args: {} };
  if (typeof raw === "object" && !Array.isArray(raw))
    return { ok: true, args: raw as Record<string, unknown> };
  let hint = "";
  if (typeof raw === "string") {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed))
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
  const findings: Finding[] = [];
  const seen = new Set<string>();
  // Sub-schema errors of a failed anyOf/oneOf are noise next to the combined one; keep only the combined.
  const combined = errors
    .filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf")
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
    findings.push(finding);
  }
  return findings;
}

type AjvError = SchemaErrors[number];

function mapError(error: AjvError): Finding | undefined {
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  const got = describeValue(error.data);
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
        message: `${label(at)} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}; got ${got}.`,
      };
    case "const":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${JSON.stringify(params.allowedValue)}; got ${got}.`,
      };
    case "format":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${formatHint(String(params.format))}; got ${got}.`,
      };
    case "pattern":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must match the pattern ${String(params.pattern)}; got ${got}.`,
      };
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
    case "multipleOf":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} must be ${error.message ?? "in range"}; got ${got}.`,
      };
    case "minLength":
    case "maxLength":
    case "minItems":
    case "maxItems":
    case "minProperties":
    case "maxProperties":
    case "uniqueItems":
    case "contains":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} ${error.message ?? "is out of bounds"}; got ${got}.`,
      };
    case "anyOf":
    case "oneOf":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)} matches none of the allowed forms (${alternatives(error.schema)}); got ${got}.`,
      };
    case "if":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)}: when ${describeCondition(error.parentSchema && (error.parentSchema as Record<string, unknown>).if)}, ${describeRequirement((error.parentSchema as Record<string, unknown> | undefined)?.[String(params.failingKeyword ?? "then")])}.`,
      };
    case "not":
      return {
        code: "IAV",
        severity: "error",
        argument: at || undefined,
        message: `${label(at)}: ${describeForbidden(error.schema)}.`,
      };
    case "false schema":
      return generic(at, error.message);
    default:
      return generic(at, error.message);
  }
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

/** Plain words for the simple conditions catalogs write in `if`: constants, enums, presence. */
function describeCondition(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "this combination of arguments is given";
  const s = schema as Record<string, unknown>;
  const parts: string[] = [];
  for (const [name, sub] of Object.entries(propertiesOf(s))) {
    const p = (sub ?? {}) as Record<string, unknown>;
    if (p.const !== undefined) parts.push(`"${name}" is ${JSON.stringify(p.const)}`);
    else if (Array.isArray(p.enum))
      parts.push(`"${name}" is one of ${p.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  const named = new Set(Object.keys(propertiesOf(s)));
  if (Array.isArray(s.required)) {
    parts.push(...s.required.filter((r) => !named.has(String(r))).map((r) => `"${String(r)}" is given`));
  }
  return parts.length ? parts.join(" and ") : "this combination of arguments is given";
}

function describeRequirement(schema: unknown): string {
  if (!schema || typeof schema !== "object") return "the arguments must follow the tool's rules";
  const s = schema as Record<string, unknown>;
  const parts: string[] = [];
  if (Array.isArray(s.required))
    parts.push(`${s.required.map((r) => `"${String(r)}"`).join(", ")} must be given`);
  if (s.not) parts.push(describeForbidden(s.not));
  for (const [name, sub] of Object.entries(propertiesOf(s))) {
    const p = (sub ?? {}) as Record<string, unknown>;
    if (p.const !== undefined) parts.push(`"${name}" must be ${JSON.stringify(p.const)}`);
    else if (Array.isArray(p.enum))
      parts.push(`"${name}" must be one of ${p.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  }
  return parts.length ? parts.join(" and ") : "the arguments must follow the tool's rules";
}

function describeForbidden(schema: unknown): string {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (Array.isArray(s.required) && s.required.length > 0) {
    return `${s.required.map((r) => `"${String(r)}"`).join(", ")} must not be given here`;
  }
  if (Array.isArray(s.anyOf)) {
    const names = s.anyOf.flatMap(
      (option) => ((option as Record<string, unknown>).required as string[] | undefined) ?? [],
    );
    if (names.length) return `none of ${names.map((n) => `"${n}"`).join(", ")} may be given here`;
  }
  return "this combination of arguments is not allowed";
}

function article(type: string): string {
  const names = type
    .split(",")
    .map((t) => (t === "integer" ? "an integer" : t === "object" ? "an object" : `a ${t}`));
  return names.join(" or ");
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${kind} ${shown}`;
}

const FORMAT_HINTS: Record<string, string> = {
  "date-time": 'a date-time in RFC 3339 form, e.g. "2026-03-02T09:00:00Z"',
  date: 'a date in the form YYYY-MM-DD, e.g. "2026-03-02"',
  time: 'a time in the form HH:MM:SS with an offset, e.g. "09:30:00Z"',
  email: 'an email address, e.g. "ana@example.com"',
  uri: 'an absolute URI, e.g. "https://example.com/x"',
  uuid: 'a UUID, e.g. "3f2b8c1e-6a4d-4f5e-9b7a-1c2d3e4f5a6b"',
  ipv4: 'an IPv4 address, e.g. "192.0.2.10"',
  duration: 'an ISO 8601 duration, e.g. "P3D" or "PT2H"',
};

function formatHint(format: string): string {
  return FORMAT_HINTS[format] ?? `in the "${format}" format`;
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
  if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.map((v) => JSON.stringify(v)).join(", ")}`);
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
