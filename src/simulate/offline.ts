import type { JsonSchema, Tool } from "../catalog/index.js";
import { canonicalJson, hashOf, isPlainObject, type Patch, pointerSegments } from "../patch/index.js";
import type { State } from "../state/index.js";
import { confirmation, confirmingFields } from "./confirmation.js";
import { conformTracked } from "./conform.js";
import {
  type Action,
  actionOf,
  describesOutcome,
  type EntityRef,
  inferWrite,
  namesChangeOutcome,
  namesFailureOnly,
  overlayEntities,
  referencedEntities,
  wordsOf,
} from "./infer.js";
import { seedFrom, synthesize } from "./synthesize.js";
import type { EffectsResult, SimulationOutcome, SimulationRequest, Simulator } from "./types.js";

/**
 * The embedded default engine: no network, no model, same answer for the same call on the
 * same state. Declared effects decide what they cover. A tool with an output schema gets the
 * rest of its result synthesized from it, seeded by (session seed, tool, canonical
 * arguments), with the entities the arguments name laid over it. A tool without one answers
 * data, as a real API does: the entities its effects placed or touched, or the entity its
 * arguments name; never an invented message.
 */
export class OfflineSimulator implements Simulator {
  readonly name = "offline";

  async respond(request: SimulationRequest): Promise<SimulationOutcome> {
    return this.respondNow(request);
  }

  /** Synchronous core, also used as the fallback of other simulators. */
  respondNow(request: SimulationRequest): SimulationOutcome {
    const { tool, effects } = request;
    if (effects.status === "failed") return { kind: "failure", failure: effects.failure, engine: this.name };
    if (effects.status === "applied" && effects.result !== undefined) {
      if (!tool.outputSchema)
        return { kind: "success", result: effects.result, patch: [], engine: this.name, guessed: [] };
      // a tool that advertises an output schema answers an object of that schema, whatever its effects decided
      const known = placed(tool.outputSchema, effects.result);
      markSuccess(known, tool.outputSchema, tool);
      const confirmed = confirm(known, tool, tool.outputSchema, request.args);
      const fitted = conformTracked(tool.outputSchema, known, () =>
        synthesizeFor(tool, tool.outputSchema as JsonSchema, request),
      );
      const guessed = [...confirmed, ...fitted.guessed, ...guessedByInference(tool, fitted.value)];
      return {
        kind: "success",
        result: fitted.value,
        patch: [],
        engine: this.name,
        guessed: [...new Set(guessed)],
      };
    }
    const { result, patch, guessed } = tool.outputSchema
      ? shapedResult(tool, tool.outputSchema, request)
      : dataResult(tool, request);
    return { kind: "success", result, patch, engine: this.name, guessed };
  }
}

/**
 * Outputs that the effects answer from a guess of their own (a rate from toolsim's fixed table):
 * inference lists them, and the result says so wherever they appear.
 */
function guessedByInference(tool: Tool, result: unknown): string[] {
  const listed = tool.inferred?.guessed;
  if (!Array.isArray(listed) || result === null || typeof result !== "object") return [];
  return listed.filter((name) => typeof name === "string" && name in result);
}

/** A result fitted to the output schema: effects' outputs and known entities first, synthesis for the rest. */
function shapedResult(
  tool: Tool,
  schema: JsonSchema,
  request: SimulationRequest,
): { result: Record<string, unknown>; patch: Patch; guessed: string[] } {
  const { args, effects } = request;
  // synthesis costs more than the rest of a call: it runs only when the known values leave a gap
  const synthesized = once(() => synthesizeFor(tool, schema, request));
  const known: Record<string, unknown> = echoArguments(schema, args);
  let patch: Patch = [];
  if (effects.status === "applied") {
    // a list the effects answer goes to the output that can hold it (`{items}`)
    Object.assign(known, placed(schema, effects.output));
  } else {
    const action: Action = actionOf(tool);
    const refs = referencedEntities(args, request.state);
    overlayEntities(known, refs, schema);
    const write = inferWrite(
      tool,
      action,
      args,
      synthesized() as Record<string, unknown>,
      refs,
      request.state,
    );
    patch = write.patch;
    const target = refs[0];
    if (write.entity && target && action !== "create")
      overlayEntities(known, [{ ...target, entity: write.entity }], schema);
  }
  markSuccess(known, schema, tool);
  // a text answer that only repeats the text written is not what a write answers
  const confirmed = confirm(known, tool, schema, args, (name) => known[name] === args[name]);
  // an answer the effects read from the state is not padded with values the state does not hold
  const fromState = effects.status === "applied" && Object.keys(effects.output).length > 0;
  const fitted = conformTracked(schema, known, synthesized, { fillOptional: !fromState });
  return {
    result: fitted.value as Record<string, unknown>,
    patch,
    guessed: [...confirmed, ...fitted.guessed],
  };
}

/**
 * The answer of a tool without an output schema: what its effects placed in the result, else
 * the entities they touched; for a tool without effects, the entity its arguments name
 * (after the write its verb implies). Nothing named, nothing touched: an empty object.
 */
function dataResult(
  tool: Tool,
  request: SimulationRequest,
): { result: Record<string, unknown>; patch: Patch; guessed: string[] } {
  const { args, effects, state } = request;
  if (effects.status === "applied") return { result: effectsAnswer(effects, state), patch: [], guessed: [] };
  const action = actionOf(tool);
  const refs: EntityRef[] = referencedEntities(args, state);
  const target = refs[0];
  // nothing known to answer from: the empty answer is itself a guess
  if (action === "create" || !target) return { result: {}, patch: [], guessed: ["(answer)"] };
  const write = inferWrite(tool, action, args, {}, refs, state);
  return { result: { ...(write.entity ?? target.entity) }, patch: write.patch, guessed: [] };
}

function effectsAnswer(effects: Extract<EffectsResult, { status: "applied" }>, state: State) {
  if (Object.keys(effects.output).length > 0) return effects.output;
  const touched = effects.touched
    .map((pointer) => {
      const path = pointerSegments(pointer);
      return path.ok ? state.get(path.segments) : undefined;
    })
    .filter((entity): entity is Record<string, unknown> => isPlainObject(entity));
  if (touched.length === 1) return { ...(touched[0] as Record<string, unknown>) };
  return touched.length > 0 ? { changed: touched } : {};
}

/**
 * A whole answer placed in an output schema: an object as it is; a list or a plain value under
 * the one property of the schema that can hold it.
 */
function placed(schema: JsonSchema, value: unknown): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  const properties = isPlainObject(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  const kind = Array.isArray(value)
    ? "array"
    : value === null
      ? "null"
      : typeof value === "number"
        ? "number"
        : typeof value;
  const fitting = Object.entries(properties).filter(([, p]) => {
    const type = p.type;
    const types = Array.isArray(type) ? type : [type];
    return types.includes(kind) || (kind === "number" && types.includes("integer")) || type === undefined;
  });
  const names = Object.keys(properties);
  const chosen = fitting.length === 1 ? fitting[0]?.[0] : names.length === 1 ? names[0] : undefined;
  return chosen !== undefined ? { [chosen]: value } : {};
}

function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: compute() };
    return value.v;
  };
}

function synthesizeFor(tool: Tool, schema: JsonSchema, request: SimulationRequest): unknown {
  const seed = seedFrom(hashOf(request.seed, tool.name, canonicalJson(request.args)));
  return synthesize(successSchema(schema), {
    seed,
    now: request.now,
    toolWords: toolWords(tool),
    state: request.state,
  });
}

/** The schema of a success, read once per schema: synthesis runs on every call it is needed. */
const successSchemas = new WeakMap<JsonSchema, JsonSchema>();

/** The schema of a success: without the failure's optional fields (`error`) a shared schema lists. */
function successSchema(schema: JsonSchema): JsonSchema {
  let success = successSchemas.get(schema);
  if (success === undefined) {
    success = withoutFailureFields(schema);
    successSchemas.set(schema, success);
  }
  return success;
}

function withoutFailureFields(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, unknown> | undefined;
  if (!properties) return schema;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const failure = Object.keys(properties).filter((name) => namesFailureOnly(name) && !required.has(name));
  if (failure.length === 0) return schema;
  const kept = Object.fromEntries(Object.entries(properties).filter(([name]) => !failure.includes(name)));
  return { ...schema, properties: kept };
}

/**
 * The words a synthesized message or id uses for the tool: those of its title (an importer
 * keeps the source's name there when it renames a tool), without the number an importer
 * appends to tell clashing names apart (`calculate_area_2`).
 */
function toolWords(tool: Tool): string[] {
  const words = wordsOf(tool.title ?? tool.name);
  while (words.length > 1 && /^[0-9]+$/.test(words[words.length - 1] ?? "")) words.pop();
  return words;
}

/** Output properties named like an argument repeat the argument: a real API echoes what it was asked. */
function echoArguments(schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const echoed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (name in properties) echoed[name] = value;
  return echoed;
}

/**
 * A changing tool's free-text confirmation fields the answer left empty, filled with a
 * sentence made from the call rather than random words (a guess all the same: each API
 * words its confirmations its own way). Returns the fields filled.
 */
function confirm(
  known: Record<string, unknown>,
  tool: Tool,
  schema: JsonSchema,
  args: Record<string, unknown>,
  echoed: (name: string) => boolean = () => false,
): string[] {
  if (actionOf(tool) === "read") return [];
  const { fields: confirming, textAnswer } = confirmingFields(schema);
  const properties = (schema.properties ?? {}) as Record<string, { description?: string }>;
  // a confirming field that repeats an argument of its name says how the call went all the same
  const confirms = (name: string) => textAnswer || describesOutcome(properties[name]?.description);
  const fields = confirming.filter((name) => known[name] === undefined || (confirms(name) && echoed(name)));
  if (fields.length === 0) return [];
  const sentence = confirmation(tool.title ?? tool.name, args);
  for (const name of fields) known[name] = sentence;
  return fields;
}

/** A change that happened says so: its outcome flags (`success`, `created`, `is_sent`) are true, not a coin's toss. */
function markSuccess(known: Record<string, unknown>, schema: JsonSchema, tool: Tool): void {
  for (const name of outcomeFlags(schema, tool)) if (known[name] === undefined) known[name] = true;
}

/** A changing tool's outcome flags, read once per schema (none for a read): they are the same on every call. */
const outcomeFlagsOf = new WeakMap<JsonSchema, string[]>();

function outcomeFlags(schema: JsonSchema, tool: Tool): string[] {
  let flags = outcomeFlagsOf.get(schema);
  if (!flags) {
    const properties = (actionOf(tool) === "read" ? {} : (schema.properties ?? {})) as Record<
      string,
      { type?: unknown }
    >;
    flags = Object.entries(properties)
      .filter(([name, property]) => property?.type === "boolean" && namesChangeOutcome(name, tool.name))
      .map(([name]) => name);
    outcomeFlagsOf.set(schema, flags);
  }
  return flags;
}
