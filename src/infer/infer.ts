import type { Effect, LoadedToolset, StateDocument, Tool, ToolError, Toolset } from "../catalog/index.js";
import { computationEffects } from "../compute/index.js";
import { isPlainObject } from "../patch/index.js";
import type { Context } from "./context.js";
import { type Draft, emit, type Level, languageLevel } from "./drafts.js";
import { factsOf, type ToolFacts } from "./facts.js";
import { listRule, lookupRule, readRule } from "./reads.js";
import { namedCollection, type Reference, referenceOf } from "./resolve.js";
import { type CollectionShape, type StateShape, shapeOf } from "./shape.js";
import { type Action, nameWords, singular } from "./words.js";
import { createRule, deleteRule, nestedKindCollection, updateRule } from "./writes.js";

/**
 * Inference of effects for tools that have none: pure, from the toolset (names, schemas,
 * descriptions, documented errors) and the shape of its states, to the same toolset with
 * effects, the errors they answer, a provenance mark on each inferred tool, and a report
 * per tool. Tools with authored effects are left as they are; tools whose effects were
 * inferred before (they carry the mark) are inferred again.
 */

export type Verdict = "inferred" | "partly" | "not inferred" | "authored";

export interface ToolReport {
  toolset: string;
  tool: string;
  verdict: Verdict;
  /** What the rules decided (or why nothing was inferred). */
  notes: string[];
  /** Parts the effects language of this build cannot say yet, or documented errors no effect answers. */
  gaps: string[];
  /** The effects as drafted in the effects language version 2, before emission in the build's version. */
  drafts: Draft[];
}

export interface InferOptions {
  /** The effects language to write (default: what the catalog format of this build accepts). */
  level?: Level;
  /** Effects for a computation tool (a calculator, a converter), or undefined when the tool is none. */
  computation?: (tool: Tool) => readonly unknown[] | undefined;
}

export interface Inferred {
  toolset: Toolset;
  report: ToolReport[];
}

/** The mark an inferred tool carries. */
export const INFERRED_BY = "rules";

export function inferToolset(toolset: Toolset, given: InferOptions = {}): Inferred {
  // computation tools (calculators, converters) compute unless the caller says otherwise
  const options: InferOptions = { computation: computationEffects, ...given };
  const level = options.level ?? languageLevel();
  const states = [toolset.state, ...toolset.tasks.map((t) => t.state)];
  const shape = shapeOf(states);
  let facts: ToolFacts[] | undefined;
  // the other tools are read only by the rules that look at a toolset's conventions
  const siblings = () => {
    facts ??= toolset.tools.map(factsOf);
    return facts;
  };
  const keyFields = new Map<string, string>();
  const report: ToolReport[] = [];
  const tools = toolset.tools.map((tool) => {
    if (tool.effects.length > 0 && tool.inferred && tool.inferred.by !== INFERRED_BY) {
      // written by a model: kept until a model is asked again (toolsim infer --model)
      report.push({
        toolset: toolset.id,
        tool: tool.name,
        verdict: tool.inferred.status,
        notes: [
          `effects written by ${String(tool.inferred.model ?? tool.inferred.by)}; kept (delete the mark to infer it again)`,
        ],
        gaps: [],
        drafts: [],
      });
      return tool;
    }
    if (tool.effects.length > 0 && !tool.inferred) {
      report.push({
        toolset: toolset.id,
        tool: tool.name,
        verdict: "authored",
        notes: [],
        gaps: [],
        drafts: [],
      });
      return tool;
    }
    const base = withoutInference(tool);
    if (shape.collections.size === 0 && !options.computation) {
      report.push({ ...emptyReport(toolset.id, tool.name), notes: ["the toolset has no state to act on"] });
      return base;
    }
    const ctx: Context = {
      facts: factsOf(base),
      shape,
      states,
      siblings,
      references: [],
      addedErrors: [],
      notes: [],
      usedErrors: new Set(),
      keyFields,
    };
    ctx.references = ctx.facts.params
      .map((param) => referenceOf(param, ctx.facts, shape))
      .filter((r): r is Reference => r !== undefined);
    const outcome = inferTool(ctx, options);
    if ("reason" in outcome) {
      report.push({
        toolset: toolset.id,
        tool: tool.name,
        verdict: "not inferred",
        notes: [...ctx.notes, outcome.reason],
        gaps: [],
        drafts: [],
      });
      return base;
    }
    const { effects, dropped } = emit(outcome.drafts, level);
    const entry = { toolset: toolset.id, tool: tool.name, notes: ctx.notes, drafts: outcome.drafts };
    const named = errorCodesOf(effects);
    const produced = new Set([...ctx.usedErrors].filter((code) => named.has(code)));
    const silent = base.errors
      .filter((e) => !produced.has(e.code))
      .map((e) => `documented error ${e.code} is answered by no effect`);
    const gaps = [...dropped, ...silent];
    if (effects.length === 0) {
      report.push({ ...entry, verdict: "not inferred", gaps });
      return base;
    }
    const verdict: "inferred" | "partly" = gaps.length > 0 ? "partly" : "inferred";
    report.push({ ...entry, verdict, gaps });
    const added = ctx.addedErrors.filter((e) => named.has(e.code));
    const errors: ToolError[] = [...base.errors, ...added];
    const inferred = {
      by: INFERRED_BY,
      status: verdict,
      notes: [...ctx.notes, ...gaps],
      added: added.map((e) => e.code),
    };
    return { ...base, errors, effects, inferred };
  });
  return { toolset: withKeyFields({ ...toolset, tools }, keyFields), report };
}

/** Every toolset of a loaded catalog, inferred (for serving a catalog nobody ran `toolsim infer` on). */
export function inferLoaded(
  loaded: readonly LoadedToolset[],
  options: InferOptions = {},
): { loaded: LoadedToolset[]; report: ToolReport[] } {
  const report: ToolReport[] = [];
  const out = loaded.map(({ file, toolset }) => {
    const inferred = inferToolset(toolset, options);
    report.push(...inferred.report);
    return { file, toolset: inferred.toolset };
  });
  return { loaded: out, report };
}

function emptyReport(toolset: string, tool: string): ToolReport {
  return { toolset, tool, verdict: "not inferred", notes: [], gaps: [], drafts: [] };
}

/** A tool as the source gave it: without effects and errors an earlier inference added. */
function withoutInference(tool: Tool): Tool {
  if (!tool.inferred) return tool;
  const { inferred: _mark, ...rest } = tool;
  const added = new Set(tool.inferred.added);
  return { ...rest, effects: [], errors: tool.errors.filter((e) => !added.has(e.code)) };
}

/** The error codes effects can answer: their `missing`, `exists`, `computeError` and guards' `error`. */
function errorCodesOf(effects: readonly Effect[]): Set<string> {
  const codes = new Set<string>();
  for (const effect of effects as ReadonlyArray<Record<string, unknown>>) {
    for (const key of ["missing", "exists", "computeError"])
      if (typeof effect[key] === "string") codes.add(effect[key] as string);
    if (Array.isArray(effect.require))
      for (const guard of effect.require)
        if (isPlainObject(guard) && typeof guard.error === "string") codes.add(guard.error);
  }
  return codes;
}

type Outcome = { drafts: Draft[] } | { reason: string };

function inferTool(ctx: Context, options: InferOptions): Outcome {
  const computed = options.computation?.(ctx.facts.tool);
  if (computed && computed.length > 0) {
    ctx.notes.push("computes its answer (a computation tool)");
    return { drafts: computed.filter(isPlainObject) as Draft[] };
  }
  const { facts, shape } = ctx;
  if (shape.collections.size === 0) return { reason: "the toolset has no state to act on" };
  const named = namedCollection(facts, shape);
  const subject = subjectOf(ctx, named);
  const action = actionFor(facts, subject);
  if (action === "read") {
    if (subject) return found(readRule(ctx, subject), "its key's entity cannot be reached");
    if (!named) return { reason: "names no collection of the state and no argument names an entity" };
    if (named.parent) return { reason: `${named.name} live inside ${named.parent}; nothing names which one` };
    const lookup = lookupRule(ctx, named);
    if (lookup) return { drafts: lookup };
    if (facts.params.every((p) => !p.required)) return { drafts: listRule(ctx, named) };
    return { reason: `no argument matches a field of ${named.name}` };
  }
  if (action === "update" || action === "delete") {
    if (!subject) return { reason: `changes something, but no argument names an entity of the state` };
    return found(
      action === "update" ? updateRule(ctx, subject) : deleteRule(ctx, subject),
      "its entity cannot be reached",
    );
  }
  const noun = createdNoun(facts, named);
  if (!noun) return { reason: "creates something, but its name names nothing" };
  const collection = named ?? nestedKindCollection(shape, noun);
  return found(createRule(ctx, collection, noun), "nothing to create");
}

function found(drafts: Draft[], reason: string): Outcome {
  return drafts.length > 0 ? { drafts } : { reason };
}

/**
 * The entity a read, update or delete acts on: named by a required argument, preferably of
 * the collection the name names, unless that one lives inside entities no argument names
 * (`change_booking_wallet(booking_id, wallet_id)` changes the booking).
 */
function subjectOf(ctx: Context, named: CollectionShape | undefined): Reference | undefined {
  const single = ctx.references.filter((r) => !r.many);
  const reachable = (r: Reference) =>
    !r.collection.parent ||
    single.some((o) => o.collection.name === r.collection.parent && !o.collection.parent);
  const ranked = [
    ...single.filter((r) => r.collection === named && r.param.required && reachable(r)),
    ...single.filter((r) => r.collection === named && reachable(r)),
    ...single.filter((r) => !r.collection.parent && r.param.required && r.strength === "strong"),
    ...single.filter((r) => r.collection.parent && r.param.required),
  ];
  return ranked[0];
}

/** What the tool does: its read-only hint first, then its verb, then what its arguments name. */
function actionFor(facts: ToolFacts, subject: Reference | undefined): Action {
  if (facts.readOnly === true) return "read";
  const verb = facts.verbAction;
  if (verb && !(verb === "read" && facts.readOnly === false)) return verb;
  if (facts.destructive === true) return "delete";
  if (facts.readOnly === false) return subject ? "update" : "create";
  return "read";
}

/** What a create makes: the collection its name names, else the noun after its verb (`book_reservation` → reservation). */
function createdNoun(facts: ToolFacts, named: CollectionShape | undefined): string | undefined {
  if (named) return nameWords(singular(named.name)).join("_");
  const words = facts.words.filter(
    (w) => w !== facts.verb && !["a", "an", "the", "new", "to", "for"].includes(w),
  );
  const noun = words.slice(0, 2).join("_");
  return noun ? singular(noun) : undefined;
}

/** Entities of collections an effect answers the key of keep it as a field (as the format's convention has it). */
function withKeyFields(toolset: Toolset, keyFields: ReadonlyMap<string, string>): Toolset {
  if (keyFields.size === 0) return toolset;
  const fill = (state: StateDocument): StateDocument => {
    let out = state;
    for (const [collection, field] of keyFields) {
      const entities = out[collection];
      if (!isPlainObject(entities)) continue;
      const filled: Record<string, unknown> = {};
      for (const [key, entity] of Object.entries(entities))
        filled[key] =
          isPlainObject(entity) && entity[field] === undefined ? { [field]: key, ...entity } : entity;
      out = { ...out, [collection]: filled };
    }
    return out;
  };
  return {
    ...toolset,
    state: fill(toolset.state),
    tasks: toolset.tasks.map((task) => ({ ...task, state: fill(task.state) })),
  };
}

export type { StateShape };
