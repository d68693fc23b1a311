import { checkExpression, JSONATA_FUNCTIONS, TOOLSIM_FUNCTIONS } from "../expr/index.js";
import type { Effect, Guard, Tool } from "./format.js";
import { collectRefs, isExpressionValue, parseTemplate, type TemplateRef } from "./templates.js";

/**
 * The checks of a tool's effects that the zod shape cannot express: documented error codes,
 * arguments and bindings that templates and expressions name, and every expression parsed
 * and checked for what it reads. Each problem carries the JSON path of the offending value.
 */

export type Report = (path: PropertyKey[], message: string) => void;

/** Names an expression or template sees that a binding (`as`) must not take. */
const RESERVED = new Set([
  "args",
  "runtime",
  "id",
  "item",
  "index",
  "subject",
  ...Object.keys(TOOLSIM_FUNCTIONS),
]);
const JSONATA_NAMES = new Set(JSONATA_FUNCTIONS);
/** The values of a tree effect that are templates or expressions. */
const TREE_VALUES = ["path", "to", "content", "all", "name", "parents", "existOk", "append"] as const;

interface Walk {
  tool: Tool;
  codes: Set<string>;
  properties: Set<string>;
  /** Bindings of earlier effects. */
  bound: Set<string>;
  /** Whether an earlier create minted `$id`. */
  minted: boolean;
  error: Report;
  warn: Report;
}

export function checkEffects(tool: Tool, at: PropertyKey[], error: Report, warn: Report): void {
  const walk: Walk = {
    tool,
    codes: new Set(tool.errors.map((e) => e.code)),
    properties: propertyNames(tool.inputSchema),
    bound: new Set(),
    minted: false,
    error,
    warn,
  };
  tool.effects.forEach((effect, i) => {
    checkEffect(walk, effect, [...at, "effects", i]);
    if ("as" in effect && effect.as) walk.bound.add(effect.as);
    if (effect.kind === "create") walk.minted = true;
  });
}

function checkEffect(walk: Walk, effect: Effect, at: PropertyKey[]): void {
  checkCodes(walk, effect, at);
  checkBinding(walk, effect, at);
  if (effect.kind !== "create" && "target" in effect && refsIn(effect.target).some((r) => r.source === "id"))
    walk.error([...at, "target"], "{$id} is only minted by create effects");
  // template problems name the effect, as they always have; expression problems the expression
  for (const value of templateValues(effect)) checkTemplates(walk, effect, at, value);
  for (const [path, text, where] of expressions(effect))
    for (const problem of checkExpression(text, expressionContext(walk, effect, where)))
      walk.error([...at, ...path], problem.message);
  if (effect.kind === "check")
    effect.require.forEach((guard, i) => {
      const argument = "field" in guard ? guard.field.split(".")[0] : undefined;
      if (argument !== undefined && !walk.properties.has(argument))
        walk.error(
          [...at, "require", i, "field"],
          `a check's field guard reads the arguments, and "${argument}" is not a property of the inputSchema`,
        );
    });
}

function checkCodes(walk: Walk, effect: Effect, at: PropertyKey[]): void {
  const named: Array<[PropertyKey[], string | undefined]> = [[["computeError"], effect.computeError]];
  if ("missing" in effect) named.push([["missing"], effect.missing]);
  if ("exists" in effect) named.push([["exists"], effect.exists]);
  if (effect.kind === "tree")
    for (const [kind, code] of Object.entries(effect.errors)) named.push([["errors", kind], code]);
  guardsOf(effect).forEach((guard, i) => {
    named.push([["require", i, "error"], guard.error]);
  });
  for (const [path, code] of named)
    if (code && !walk.codes.has(code))
      walk.error([...at, ...path], `error code ${code} is not among the tool's documented errors`);
}

function checkBinding(walk: Walk, effect: Effect, at: PropertyKey[]): void {
  const name = "as" in effect ? effect.as : undefined;
  if (!name) return;
  if (RESERVED.has(name))
    walk.error(
      [...at, "as"],
      `"${name}" is a name effects already use ($${name}); choose another binding name`,
    );
  else if (JSONATA_NAMES.has(name))
    walk.warn([...at, "as"], `binding "${name}" hides the JSONata function $${name} in later expressions`);
}

function guardsOf(effect: Effect): readonly Guard[] {
  return "require" in effect ? effect.require : [];
}

// ── templates ────────────────────────────────────────────────────────────────

/** The parts of an effect whose strings are templates. */
function templateValues(effect: Effect): unknown[] {
  const values: unknown[] = [];
  if ("target" in effect) values.push(effect.target);
  if (effect.kind === "list") values.push(effect.where, effect.limit);
  if (effect.kind === "create") values.push(effect.set);
  if (effect.kind === "update") values.push(effect.set, effect.inc, effect.append);
  if (effect.kind === "respond" || effect.kind === "let") values.push(effect.value);
  if (effect.kind === "tree") for (const key of TREE_VALUES) values.push(effect[key]);
  for (const guard of guardsOf(effect))
    if ("field" in guard) values.push(guard.in, guard.notIn, guard.equals, guard.gte, guard.lte);
  return values;
}

function refsIn(value: unknown): TemplateRef[] {
  return typeof value === "string" ? parseTemplate(value).flatMap((p) => ("ref" in p ? [p.ref] : [])) : [];
}

function checkTemplates(walk: Walk, effect: Effect, at: PropertyKey[], value: unknown): void {
  for (const ref of collectRefs(value)) {
    if (ref.source === "argument" && !walk.properties.has(ref.path[0] ?? ""))
      walk.error(
        at,
        `template refers to argument "${ref.path[0]}", which is not a property of the inputSchema`,
      );
    if (ref.source !== "binding" || walk.bound.has(ref.name)) continue;
    if ((ref.name === "item" || ref.name === "index") && effect.each !== undefined) continue;
    const hint =
      ref.name === "item" || ref.name === "index"
        ? ` ({$${ref.name}} exists only in an effect with "each")`
        : "";
    walk.error(
      at,
      `template refers to "$${ref.name}", which no earlier effect of ${walk.tool.name} binds with "as"${hint}`,
    );
  }
}

// ── expressions ──────────────────────────────────────────────────────────────

/** Where in an effect an expression stands: it decides what the expression can read. */
type Place = "when" | "each" | "value" | "guard" | "change" | "filter";

function expressions(effect: Effect): Array<[PropertyKey[], string, Place]> {
  const found: Array<[PropertyKey[], string, Place]> = [];
  if (effect.when !== undefined) found.push([["when"], effect.when, "when"]);
  if (effect.each !== undefined) found.push([["each"], effect.each, "each"]);
  if (effect.kind === "list" && effect.filter !== undefined)
    found.push([["filter"], effect.filter, "filter"]);
  const values = (path: PropertyKey[], value: unknown, place: Place) => {
    for (const [inner, text] of expressionValues(value)) found.push([[...path, ...inner], text, place]);
  };
  if (effect.kind === "list") {
    values(["where"], effect.where, "value");
    values(["limit"], effect.limit, "value");
  }
  if (effect.kind === "create") values(["set"], effect.set, "value");
  if (effect.kind === "update") {
    values(["set"], effect.set, "change");
    values(["inc"], effect.inc, "change");
    values(["append"], effect.append, "change");
  }
  if (effect.kind === "respond" || effect.kind === "let") values(["value"], effect.value, "value");
  if (effect.kind === "tree") for (const key of TREE_VALUES) values([key], effect[key], "value");
  guardsOf(effect).forEach((guard, i) => {
    if ("expr" in guard) found.push([["require", i, "expr"], guard.expr, "guard"]);
    else
      for (const key of ["in", "notIn", "equals", "gte", "lte"] as const)
        values(["require", i, key], guard[key], "guard");
  });
  return found;
}

/** Every `{"$expr"}` inside a value, with its path (ending in "$expr"). */
function expressionValues(value: unknown, path: PropertyKey[] = []): Array<[PropertyKey[], string]> {
  if (isExpressionValue(value)) return [[[...path, "$expr"], value.$expr]];
  if (Array.isArray(value)) return value.flatMap((item, i) => expressionValues(item, [...path, i]));
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => expressionValues(item, [...path, key]));
  return [];
}

function expressionContext(walk: Walk, effect: Effect, place: Place) {
  const variables = new Set(["args", "runtime", ...walk.bound]);
  if (walk.minted || effect.kind === "create") variables.add("id");
  if (effect.each !== undefined && place !== "each") {
    variables.add("item");
    variables.add("index");
  }
  // $subject is what the effect reached: its guards and an update's changes see it
  const reaches = effect.kind === "read" || effect.kind === "update" || effect.kind === "delete";
  if ((place === "guard" && (reaches || effect.kind === "create")) || place === "change")
    variables.add("subject");
  // in a list filter, $ is the entity; elsewhere it is the call's arguments
  return { variables, inputFields: place === "filter" ? undefined : walk.properties };
}

function propertyNames(schema: Record<string, unknown>): Set<string> {
  const properties = schema.properties;
  return new Set(properties && typeof properties === "object" ? Object.keys(properties) : []);
}
