import escapeRegExp from "escape-string-regexp";
import type {
  Effect,
  JsonSchema,
  LoadedToolset,
  StateDocument,
  Tool,
  ToolError,
  Toolset,
} from "../catalog/index.js";
import { computationEffects, ratesFromState } from "../compute/index.js";
import { isPlainObject } from "../patch/index.js";
import { aggregateAnswers, collectionNamed, listItemAnswers } from "./aggregates.js";
import { statedArgumentChecks } from "./argument-checks.js";
import { besideListRule } from "./beside.js";
import { bulkRule } from "./bulk.js";
import { knownValues, statedStatus } from "./conditions.js";
import { addGap, type Context, humanNoun, notFoundError, use } from "./context.js";
import { createRule } from "./creates.js";
import { describedAnswer } from "./described-answer.js";
import { describedValues } from "./described-values.js";
import { directedStepRule } from "./directed-steps.js";
import { type Draft, emit, type Level, languageLevel } from "./drafts.js";
import { addsListItem, elementRule, verbsOwnList } from "./elements.js";
import { factsOf, type Param, type ToolFacts } from "./facts.js";
import {
  fieldFor,
  markedFlag,
  markedStatus,
  nowFields,
  participleStatus,
  recordFlagSwitched,
  statedArguments,
  statedValues,
  statusField,
  valueNamedByVerb,
} from "./fields.js";
import {
  answersInAWord,
  derivedRecord,
  folderForCreate,
  moveToFolder,
  moveToHolder,
  readAcrossFolders,
} from "./folders.js";
import { type Grounding, groundingOf, unheldFields } from "./grounding.js";
import { statusGuards } from "./guards.js";
import { inStep, keptInStepRule } from "./kept-in-step.js";
import { lifecycleChange, lifecycleTable } from "./lifecycle.js";
import {
  clearRule,
  joinAsSignedIn,
  keyedListRule,
  keyedValuesRule,
  knownValueChecks,
  listRule as listMembersRule,
  memberIntent,
  recordListValuesRule,
  statedEmptied,
  valuesIntent,
  valuesRule,
} from "./members.js";
import { mergeRule, swapRule } from "./merges.js";
import { namedToggleRule } from "./named-switches.js";
import { argumentForms, withCaselessComparisons, withNormalisedArguments } from "./normalised.js";
import { orderedListRule } from "./ordered-lists.js";
import { pairsList, pairsRule } from "./pairs.js";
import { balanceMapMove, lineAdded, moneyMove, refundFor, unkeptCreate } from "./payments.js";
import { previousValues } from "./previous.js";
import { ownRecordRule } from "./principal.js";
import { freeDuring, orderChecks } from "./ranges.js";
import {
  bindingName,
  elementHeldRule,
  identifier,
  keyListRule,
  keyNameOf,
  linkedListRule,
  lookupRule,
  readRule,
} from "./reads.js";
import { recordTreeFor, recordTreeRule } from "./record-trees.js";
import {
  describedRecordChange,
  partsSnapshot,
  recordFor,
  recordIntent,
  recordRule,
  signedInGuard,
} from "./records.js";
import {
  appendedList,
  collectionOfVerb,
  FILED_JOINS,
  keyOfValues,
  listOfVerb,
  namedCollection,
  namedPart,
  type Reference,
  referenceOf,
  verbNounCollection,
} from "./resolve.js";
import { type SchemaWorld, schemaWorld } from "./schema-world.js";
import {
  type CollectionShape,
  fitsStateType,
  type ListShape,
  reindexed,
  type StateShape,
  shapeOf,
  shapeOfCollections,
  type ValuesShape,
} from "./shape.js";
import { alreadyOnAny, siblingListsRule } from "./sibling-lists.js";
import { statedErrors } from "./stated-errors.js";
import { holdsStock } from "./stock.js";
import { switchRule } from "./switches.js";
import { countedOnce, tallyRule } from "./tallies.js";
import { recordTarget, referenceTarget } from "./targets.js";
import {
  revokeRule,
  signInRule,
  type TokenScheme,
  tokenArgument,
  tokenGuard,
  tokenScheme,
  withoutToken,
} from "./tokens.js";
import { answeredBy, topListLengths, topValues } from "./top-level.js";
import { treeFor, treeRule } from "./trees.js";
import {
  type Action,
  DECREASE_VERBS,
  GOODS_IN_VERBS,
  INCREASE_VERBS,
  LEAVE_VERBS,
  LOGIN_VERBS,
  nameWords,
  openingVerb,
  partNoun,
  READ_NOUNS,
  STATUS_VERBS,
  sameNoun,
  sentencesOf,
  singular,
  verbOf,
  verbWords,
} from "./words.js";
import { deleteRule, emptiedFields, statedCounts, takenByFlag, updateRule } from "./writes.js";

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
  /** Output properties the effects answer from the state, the arguments or a computation. */
  grounded?: string[];
  /** Output properties left to synthesis: guesses. */
  guessed?: string[];
  /** The effects as drafted in the effects language version 2, before emission in the build's version. */
  drafts: Draft[];
}

export interface InferOptions {
  /** The effects language to write (default: what the catalog format of this build accepts). */
  level?: Level;
  /** Effects for a computation tool (a calculator, a converter), or undefined when the tool is none. */
  computation?: (tool: Tool) => readonly unknown[] | undefined;
  /** More example states of the toolset's world: those of tasks of other toolsets that use it. */
  states?: readonly StateDocument[];
}

export interface Inferred {
  toolset: Toolset;
  report: ToolReport[];
}

/**
 * `acme_get_alert`, `acme_list_alerts`, `acme_snooze_search_alert`: the first word most of a
 * toolset's names share, that is no verb and names nothing the state keeps, is the product's
 * name, as MCP servers prefix their tools (`github_create_issue`, `slack_post_message`,
 * `notion_search`). Where it names a part of the state (`scale_get_status` beside a `scale`), it is
 * read as a noun, as before.
 */
function productPrefix(tools: readonly Tool[], shape: StateShape): string {
  // a world with nothing in it has no names to tell a product's from
  if (tools.length < 3 || (shape.parts.length <= 1 && shape.root.fields.size === 0)) return "";
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const words = verbWords(tool.name);
    if (words.length > 1) counts.set(words[0] as string, (counts.get(words[0] as string) ?? 0) + 1);
  }
  const [word, count] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
  if (word === "" || count < 3 || count < 0.75 * tools.length || verbOf(word) !== undefined) return "";
  const named = (name: string) => nameWords(name).some((w) => singular(w) === singular(word));
  const kept = shape.parts.some(
    (part) => named(part.name) || ("fields" in part && [...part.fields.keys()].some(named)),
  );
  return kept ? "" : word;
}

/** The mark an inferred tool carries. */
export const INFERRED_BY = "rules";

export function inferToolset(toolset: Toolset, given: InferOptions = {}): Inferred {
  // computation tools (calculators, converters) compute unless the caller says otherwise
  const options: InferOptions = { computation: computationEffects, ...given };
  const level = options.level ?? languageLevel();
  const examples = statesOf(toolset, options.states ?? []);
  const found = shapeOf(examples);
  // a catalog without a state (or with empty collections) gets its records' shapes from its schemas
  const empty = found.parts.length <= 1 && found.root.fields.size === 0;
  const bare = [...found.collections.values()].some((c) => c.size === 0 && c.fields.size === 0);
  // the other tools are read only by the rules that look at a toolset's conventions
  let facts: ToolFacts[] | undefined;
  const prefix = productPrefix(toolset.tools, found);
  const siblings = () => {
    facts ??= toolset.tools.map((tool) => factsOf(tool, prefix));
    return facts;
  };
  const derived = empty || bare ? schemaWorld(toolset, siblings()) : undefined;
  const shape = derived ? withSchemaCollections(found, derived, empty) : found;
  const states = derived && empty ? [derived.state] : examples;
  const keyFields = new Map<string, string>();
  const keyNames = new Map<CollectionShape, string>();
  const keyName = (collection: CollectionShape): string => {
    const known = keyNames.get(collection);
    if (known !== undefined) return known;
    const name = keyNameOf(siblings(), collection);
    keyNames.set(collection, name);
    return name;
  };
  let tokens: TokenScheme | null | undefined;
  // worked out once per toolset: null remembers that it has none
  const tokenSchemeOf = () => {
    if (tokens === undefined) tokens = tokenScheme(shape, siblings) ?? null;
    return tokens ?? undefined;
  };
  const report: ToolReport[] = [];
  // the toolset's tool names, for the errors a description tells of another tool
  const toolNames = toolset.tools.map((t) => t.name).filter((name) => name.includes("_"));
  const descriptions = toolset.tools.map((t) => t.description);
  const described = new Map(toolset.tools.map((t) => [t.name, t.description]));
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
    const source = withoutInference(tool);
    if (shape.parts.length <= 1 && shape.root.fields.size === 0 && !options.computation) {
      report.push({ ...emptyReport(toolset.id, tool.name), notes: ["the toolset has no state to act on"] });
      return source;
    }
    const base = withDescribed(source, states, toolNames, descriptions);
    const scheme = tokenSchemeOf();
    const token = scheme ? tokenArgument(scheme, base) : undefined;
    const ctx: Context = {
      facts: token ? withoutToken(factsOf(base, prefix), token.name) : factsOf(base, prefix),
      shape,
      states,
      siblings,
      descriptions: described,
      references: [],
      addedErrors: [],
      notes: [],
      usedErrors: new Set(),
      keyFields,
    };
    ctx.references = ctx.facts.params
      .filter((param) => !keyOfValues(param, shape))
      .map(
        (param) =>
          referenceOf(param, ctx.facts, shape) ??
          mapKeyReference(param, ctx.facts, shape, keyName) ??
          fieldReference(param, shape),
      )
      .filter((r): r is Reference => r !== undefined);
    const tried = scheme
      ? tokenOutcome(ctx, scheme, token, () => inferTool(ctx, options))
      : inferTool(ctx, options);
    const answered = "reason" in tried ? (computedRead(ctx) ?? tried) : tried;
    // a value the docs give a field is written; what one side of two collections kept in step
    // gains or loses, the other side does too
    const outcome =
      "drafts" in answered ? { drafts: inStep(ctx, describedValues(ctx, answered.drafts)) } : answered;
    if ("reason" in outcome) {
      report.push({
        toolset: toolset.id,
        tool: tool.name,
        verdict: "not inferred",
        notes: [...ctx.notes, outcome.reason],
        gaps: [],
        drafts: [],
      });
      return source;
    }
    const lengths = [...listCounts(ctx, outcome.drafts), ...topListLengths(ctx, outcome.drafts)];
    const counted = [
      ...lengths,
      ...topValues(ctx, [...outcome.drafts, ...lengths]),
      ...listStatistics(ctx, outcome.drafts),
      ...statedConstants(ctx, outcome.drafts),
    ];
    const forms = argumentForms(ctx.facts);
    const given = [
      // a bad token is refused before anything is looked at, as a 401 comes before a 404
      ...(scheme && token && !scheme.signIns.has(tool.name) ? tokenGuard(ctx, scheme, token) : []),
      ...locatedFirst(ctx.located?.values() ?? [], [
        ...(token ? [] : signedInGuard(ctx, outcome.drafts)),
        ...statedArgumentChecks(ctx),
        ...linkedFlagGuards(ctx),
        ...orderChecks(ctx),
        ...knownValueChecks(ctx, outcome.drafts),
        ...previousValues(ctx, statedEmptied(ctx, outcome.drafts)),
        ...successFlags(ctx.facts, outcome.drafts),
        ...counted,
        ...aggregateAnswers(ctx, [...outcome.drafts, ...counted]),
        ...listItemAnswers(ctx, outcome.drafts),
        ...linkedChanges(ctx, outcome.drafts),
        ...orderJoined(ctx, outcome.drafts),
      ]),
    ];
    const folded = withCaselessComparisons(
      withNormalisedArguments(ctx.facts, given, forms.normalised),
      forms.caseless,
    );
    const drafts = folded.drafts;
    const { effects, dropped } = emit(drafts, level);
    const entry = { toolset: toolset.id, tool: tool.name, notes: ctx.notes, drafts };
    const named = errorCodesOf(effects);
    const produced = new Set([...ctx.usedErrors].filter((code) => named.has(code)));
    const silent = base.errors
      .filter((e) => !produced.has(e.code))
      .map((e) => `documented error ${e.code} is answered by no effect`);
    const gaps = [
      ...dropped,
      ...silent,
      ...unchangedWrite(ctx.facts, drafts),
      ...unguardedCondition(ctx.facts, drafts, ctx.shape, ctx.addedErrors),
      ...unansweredMentions(ctx.facts, drafts, ctx.shape),
      ...unwrittenMentions(ctx.facts, drafts, ctx.shape),
      ...untouchedParts(ctx.facts, drafts, ctx.shape),
      ...normalised(ctx.facts, forms.normalised, folded.handled),
      ...folded.gaps,
      ...unusedArguments(ctx.facts, drafts, [...dropped, ...(ctx.gaps ?? [])]),
      ...(ctx.gaps ?? []),
    ];
    if (effects.length === 0) {
      report.push({ ...entry, verdict: "not inferred", gaps });
      return source;
    }
    const grounding = withGuesses(groundingOf(ctx.facts, shape, drafts), ctx.guesses ?? []);
    if (grounding.guessed.length > 0) gaps.push(`guessed (synthesized): ${grounding.guessed.join(", ")}`);
    const unheld = unheldFields(ctx.facts, shape, drafts, namesTaken(ctx));
    if (unheld.length > 0)
      gaps.push(`documented, but kept by no record and given to no tool: ${unheld.join(", ")}`);
    const verdict: "inferred" | "partly" = gaps.length > 0 ? "partly" : "inferred";
    report.push({ ...entry, verdict, gaps, ...grounding });
    const added = ctx.addedErrors.filter((e) => named.has(e.code));
    const errors: ToolError[] = [...base.errors, ...added];
    const stated = base.errors.slice(source.errors.length).map((e) => e.code);
    const inferred = {
      by: INFERRED_BY,
      status: verdict,
      notes: [...ctx.notes, ...gaps],
      added: [...stated, ...added.map((e) => e.code)],
      ...(base.outputSchema !== source.outputSchema ? { answer: DESCRIBED } : {}),
      ...(grounding.guessed.length > 0 ? { guessed: grounding.guessed } : {}),
    };
    return { ...base, errors, effects, inferred };
  });
  const world = derived ? { ...derived.state, ...toolset.state } : toolset.state;
  return { toolset: withKeyFields({ ...toolset, state: world, tools }, keyFields), report };
}

/**
 * An argument that sets a field whose values are another collection's keys (an `assignee`
 * that holds agents' logins) names a record of that collection.
 */
function fieldReference(param: Param, shape: StateShape): Reference | undefined {
  if (param.type !== "string" && param.type !== "integer") return undefined;
  const named = new Set<string>();
  for (const collection of shape.collections.values()) {
    const referred = collection.fields.get(param.name)?.refersTo;
    if (referred) named.add(referred);
  }
  const [name] = named;
  const collection = named.size === 1 && name ? shape.collections.get(name) : undefined;
  return collection ? { param, collection, many: false, strength: "weak" } : undefined;
}

/**
 * An argument that names a record of a map whose records lack a key field, by the name the
 * toolset's other tools give that key (`symbol` for a map of quotes keyed by ticker); where
 * several maps are keyed so (quotes and positions by symbol), the one the tool's name names.
 */
function mapKeyReference(
  param: Param,
  facts: ToolFacts,
  shape: StateShape,
  keyName: (collection: CollectionShape) => string,
): Reference | undefined {
  if (param.type !== "string" && param.type !== "integer") return undefined;
  const maps = [...shape.collections.values(), ...shape.nested.values()].filter(
    (c) => c.container === "map" && !c.keyField && keyName(c) === param.name,
  );
  const named =
    maps.length > 1 ? maps.filter((c) => facts.nouns.some((n) => sameNoun(n, partNoun(c.name)))) : maps;
  return named.length === 1
    ? { param, collection: named[0] as CollectionShape, many: false, strength: "weak" }
    : undefined;
}

/**
 * The shape with the collections a catalog's schemas describe: in place of empty ones of
 * the same name (a state of `{"pets": {}}`), and as the whole world when the state has none.
 */
function withSchemaCollections(found: StateShape, derived: SchemaWorld, empty: boolean): StateShape {
  const schema = derived.collections;
  if (empty) return shapeOfCollections(schema, derived.tree ? [derived.tree] : []);
  const byName = new Map(schema.map((c) => [c.name, c]));
  const parts = found.parts.map((part) =>
    part.kind === "collection" && part.size === 0 && part.fields.size === 0 && byName.has(part.name)
      ? // the counter beside the empty collection still numbers what the schemas describe
        { ...(byName.get(part.name) as CollectionShape), path: part.path, counter: part.counter }
      : part,
  );
  return reindexed(parts, found.root);
}

/**
 * The example states of a toolset's world: its own state and its tasks' states. Where the
 * toolset has a state of its own, a task's top-level values it lacks belong to the other
 * toolsets the task uses, and are left out.
 */
function statesOf(toolset: Toolset, extra: readonly StateDocument[]): StateDocument[] {
  const own = Object.keys(toolset.state).filter((key) => key !== "runtime");
  const restrict = (state: StateDocument): StateDocument =>
    own.length === 0 ? state : Object.fromEntries(Object.entries(state).filter(([key]) => own.includes(key)));
  return [toolset.state, ...toolset.tasks.map((task) => restrict(task.state)), ...extra.map(restrict)];
}

/** Every toolset, inferred, each seeing the states of the tasks of other toolsets that use it. */
export function inferToolsets(toolsets: readonly Toolset[], options: InferOptions = {}): Inferred[] {
  return toolsets.map((toolset) => {
    const states = toolsets.flatMap((other) =>
      other === toolset
        ? []
        : other.tasks.filter((t) => t.toolsets?.includes(toolset.id)).map((t) => t.state),
    );
    return inferToolset(toolset, { ...options, states: [...(options.states ?? []), ...states] });
  });
}

/** Every toolset of a loaded catalog, inferred (for serving a catalog nobody ran `toolsim infer` on). */
export function inferLoaded(
  loaded: readonly LoadedToolset[],
  options: InferOptions = {},
): { loaded: LoadedToolset[]; report: ToolReport[] } {
  const inferred = inferToolsets(
    loaded.map((l) => l.toolset),
    options,
  );
  const report = inferred.flatMap((i) => i.report);
  return {
    loaded: loaded.map(({ file }, i) => ({ file, toolset: (inferred[i] as Inferred).toolset })),
    report,
  };
}

function emptyReport(toolset: string, tool: string): ToolReport {
  return { toolset, tool, verdict: "not inferred", notes: [], gaps: [], drafts: [] };
}

/** A tool as the source gave it: without the effects, errors and answer an earlier inference added. */
function withoutInference(tool: Tool): Tool {
  if (!tool.inferred) return tool;
  const { inferred: mark, outputSchema, ...rest } = tool;
  const added = new Set(mark.added);
  const kept = mark.answer === DESCRIBED || outputSchema === undefined ? {} : { outputSchema };
  return { ...rest, ...kept, effects: [], errors: tool.errors.filter((e) => !added.has(e.code)) };
}

/** The mark of an output schema read from the tool's description. */
const DESCRIBED = "described";

/**
 * A tool with what its description states and its catalog does not: the error codes it
 * names and the answer's fields it spells out.
 */
function withDescribed(
  tool: Tool,
  states: readonly StateDocument[],
  names: readonly string[],
  descriptions: readonly string[],
): Tool {
  const errors = statedErrors(tool.description, tool.errors, names, tool.name);
  const params = isPlainObject(tool.inputSchema.properties)
    ? (tool.inputSchema.properties as Record<string, JsonSchema>)
    : {};
  const answer = tool.outputSchema
    ? undefined
    : describedAnswer(tool.description, params, states, descriptions);
  if (errors.length === 0 && !answer) return tool;
  return { ...tool, errors: [...tool.errors, ...errors], ...(answer ? { outputSchema: answer } : {}) };
}

/** The error codes effects can answer: their `missing`, `exists`, `computeError` and guards' `error`. */
function errorCodesOf(effects: readonly Effect[]): Set<string> {
  const codes = new Set<string>();
  for (const effect of effects as ReadonlyArray<Record<string, unknown>>) {
    for (const key of ["missing", "exists", "computeError"])
      if (typeof effect[key] === "string") codes.add(effect[key] as string);
    // a tree effect names an error per kind of failure
    if (isPlainObject(effect.errors))
      for (const code of Object.values(effect.errors)) if (typeof code === "string") codes.add(code);
    if (Array.isArray(effect.require))
      for (const guard of effect.require)
        if (isPlainObject(guard) && typeof guard.error === "string") codes.add(guard.error);
  }
  return codes;
}

type Outcome = { drafts: Draft[] } | { reason: string };

/**
 * What a tool does, read from the shape of the world it acts on, in this order: a file-system
 * tool on a tree; a tool whose argument names a record of a collection (by its key); a tool
 * named after a list or a map of values; a tool named after a collection (create, list,
 * lookup); a tool on a record's fields. A verb toolsim does not know is never taken for a
 * read: it is said so, and nothing is inferred.
 */
function inferTool(ctx: Context, options: InferOptions): Outcome {
  const money = balanceMapMove(ctx);
  if (!money) return inferByShape(ctx, options);
  if (money.alone) return { drafts: money.drafts };
  const rest = inferByShape(ctx, options);
  // what a send files besides (a transfer) is its answer; the money it moved goes first
  return "drafts" in rest
    ? { drafts: [...money.drafts.filter((d) => d.kind !== "respond"), ...rest.drafts] }
    : { drafts: money.drafts };
}

function inferByShape(ctx: Context, options: InferOptions): Outcome {
  const computed = options.computation?.(ctx.facts.tool);
  if (computed && computed.length > 0) {
    ctx.notes.push("computes its answer (a computation tool)");
    const drafts = computed.filter(isPlainObject) as Draft[];
    // a rate between currencies moves by the minute: the built-in table is not the API's,
    // though a table the state keeps is
    const written = JSON.stringify(drafts);
    if (
      written.includes("$convert(") &&
      /currenc|exchange|forex|\bfx\b/i.test(toolText(ctx.facts)) &&
      !ctx.states.some((state) => ratesFromState(state) !== undefined)
    )
      ctx.guesses = drafts
        .filter((d) => d.kind === "respond")
        .map((d) => (typeof d.output === "string" && d.output !== "" ? d.output : "(answer)"));
    // a spread of a sample (n − 1) or of a whole population (n): where the tool says neither,
    // the library's sample is a guess (Python's statistics.stdev and NumPy's std disagree)
    const spread = written.match(/\$math\(\\"(std|variance)\\"/);
    if (spread && !/\b(sample|population|unbiased|n ?- ?1|bessel)\b/i.test(toolText(ctx.facts)))
      addGap(
        ctx,
        `the ${spread[1] === "std" ? "standard deviation" : "variance"} is of a sample (n − 1): the tool says neither sample nor population, so which one it means is a guess`,
      );
    // the error a refused computation answers is the tool's own, documented one
    for (const draft of drafts)
      if (typeof draft.computeError === "string") ctx.usedErrors.add(draft.computeError);
    return { drafts };
  }
  const { facts, shape } = ctx;
  if (shape.parts.length <= 1 && shape.root.fields.size === 0)
    return { reason: "the toolset has no state to act on" };
  const nodes = recordTreeFor(ctx);
  if (nodes) {
    const drafts = recordTreeRule(ctx, nodes);
    if (drafts) return found(drafts, "a tool on a tree of records whose arguments name no node");
  }
  // arguments that say exactly what they act on: a record on each side of a link, the switch a
  // toggle flips, the way a level steps
  const pointed = keptInStepRule(ctx) ?? namedToggleRule(ctx) ?? directedStepRule(ctx);
  if (pointed) return { drafts: pointed };
  const tree = treeFor(ctx);
  if (tree) {
    const drafts = treeRule(ctx, tree);
    if (drafts) return found(drafts, "a file-system tool whose arguments name no path");
  }
  const bulk = bulkRule(ctx);
  if (bulk && bulk.length > 0) return { drafts: bulk };
  const listed = recordListValuesRule(ctx);
  if (listed && listed.length > 0) return { drafts: listed };
  // the part the name is about: English puts the head noun last ("remove_song_from_playlist")
  const head =
    listOfVerb(facts, shape) ??
    appendedList(facts, shape) ??
    namedPart(facts, shape, ["collection", "list", "values", "record"]);
  // a value on one of several lists side by side, the tool naming none of them (a call given
  // nothing may still move the head of one to another, whichever it names)
  const onOneOf = head && facts.params.length > 0 ? undefined : siblingListsRule(ctx);
  if (onOneOf) return { drafts: onOneOf };
  // a list the description names, where the name names none or no membership verb
  const ordered =
    head === undefined || (head.kind === "list" && memberIntent(ctx) === undefined)
      ? orderedListRule(ctx)
      : undefined;
  if (ordered) return { drafts: ordered };
  const action = actionFor(facts, undefined);
  const cleared = clearRule(ctx);
  if (cleared) return { drafts: cleared };
  const merged = mergeRule(ctx) ?? swapRule(ctx);
  if (merged) return { drafts: merged };
  // `playlists[playlist]`: the docs address a list kept under a key, whatever else the name names
  const addressed = bracketedValues(ctx);
  if (addressed) {
    const intent = valuesIntent(ctx, addressed);
    const kept = intent === "put" || intent === "remove" ? keyedListRule(ctx, addressed, intent) : [];
    if (kept.length > 0) return { drafts: kept };
  }
  if (head?.kind === "list") {
    // a verb toolsim does not know, whose docs say they append to the list, adds to it
    const intent = memberIntent(ctx) ?? (head === appendedList(facts, shape) ? "add" : undefined);
    if (intent)
      return found(
        [...(intent === "add" ? alreadyOnAny(ctx, head) : []), ...listMembersRule(ctx, head, intent)],
        `it names the list ${head.name}, but no argument says what to do with it`,
      );
  }
  const values = head?.kind === "values" ? head : head ? undefined : soleKeyValueMap(ctx);
  if (values) {
    const intent = valuesIntent(ctx, values);
    if (intent)
      return found(
        valuesRule(ctx, values, intent),
        `it names ${values.name}, but its arguments do not say which key`,
      );
  }
  if (head?.kind === "collection" && head.pairs)
    return found(
      pairsRule(ctx, head) ?? [],
      `it names the pairs of ${head.name}, but not what to do with them`,
    );
  const byParam = head ? undefined : valuesNamedByParam(ctx);
  if (byParam) {
    const intent = valuesIntent(ctx, byParam);
    const kept = intent === "put" || intent === "remove" ? keyedListRule(ctx, byParam, intent) : [];
    if (kept.length > 0) return { drafts: kept };
    const drafts = intent === "put" || intent === "remove" ? valuesRule(ctx, byParam, intent) : [];
    if (drafts.length > 0) return { drafts };
  }
  // what an action makes names its collection before what it is about (`reserve_room` files a reservation)
  const filedBy = verbNounCollection(facts, shape) ?? collectionOfVerb(facts, shape);
  const named = filedBy ?? (head?.kind === "collection" ? head : namedCollection(facts, shape));
  const holder = subjectOf(ctx, named);
  const subject = entryWithin(ctx, holder);
  // joining what another record offers files a record of the joining (`subscribe(plan_id)`)
  const joins = filedBy && facts.verb && FILED_JOINS.has(facts.verb) && subject?.collection !== filedBy;
  // a switch changes the record whose flag it throws, whatever else its verb may do (`start`)
  // as does making a record what one of its flags says (`make_playlist_public`)
  const switches =
    subject !== undefined &&
    (recordFlagSwitched(ctx, subject.collection) !== undefined ||
      (facts.verb === "make" && markedFlag(ctx, subject.collection) !== undefined));
  const acting = joins
    ? "create"
    : submitsItsOwn(ctx, subject, named) ||
        switches ||
        fillsItsFields(ctx, subject) ||
        statusOfVerb(ctx, subject) ||
        countsItMoves(ctx, subject, named) ||
        leavesWithout(ctx, subject)
      ? "update"
      : actionFor(facts, subject);
  const free = acting === "read" && !subject ? freeDuring(ctx, named) : undefined;
  if (free) return { drafts: free };
  // values kept by name inside the record (a device's config, a document's people by address)
  const keyed =
    subject && acting !== "unknown"
      ? keyedValuesRule(ctx, subject, acting === "create" ? "update" : acting)
      : undefined;
  if (keyed) return { drafts: keyed };
  // returning what was taken from a count (`return_book(loan_id)`) ends it and gives it back
  if (subject && RETURN_VERBS.has(facts.verb ?? facts.words[0] ?? "") && holdsStock(ctx, subject.collection))
    return found(deleteRule(ctx, subject), "its record cannot be reached");
  const answered = acting === "unknown" ? madeByAnswer(ctx, subject) : undefined;
  if (answered)
    return found(
      createRule(ctx, answered, nameWords(singular(answered.name)).join("_")),
      "nothing to create",
    );
  const tally = subject ? (tallyRule(ctx, subject) ?? countedOnce(ctx, subject)) : undefined;
  if (tally && tally.length > 0) return { drafts: tally };
  // `add_jar(shelf, jar, qty)` puts a jar there: a create of the kind its name names moves no amount
  const makesItsKind =
    acting === "create" &&
    subject !== undefined &&
    facts.nouns.some((n) => sameNoun(n, subject.collection.name));
  // an item of a list the name names (`add_expense_item`) is made, whatever amount it holds
  const itemMade = acting === "create" && subject !== undefined && addsListItem(ctx, subject);
  const moved =
    makesItsKind || itemMade ? undefined : (lineAdded(ctx, subject) ?? moneyMove(ctx, subject, STOCK_MOVES));
  if (moved && moved.length > 0) return { drafts: moved };
  const beside = subject && acting === "create" ? besideListRule(ctx, subject) : undefined;
  if (beside) return { drafts: beside };
  // `like_post(post_id, username)` adds to the post's `liked_by`, `unlike_post` takes out
  const doneTo = subject && acting !== "read" && verbsOwnList(ctx, subject.collection);
  if (doneTo) {
    const undone = /^un[a-z]{3,}/.test(facts.verb ?? "") || LEAVE_VERBS.has(facts.verb ?? "");
    const drafts = elementRule(ctx, subject, undone ? "delete" : "create");
    if (drafts.length > 0) return { drafts: [...drafts, ...holderTakes(ctx, subject)] };
  }
  const filed =
    moveToHolder(ctx) ?? (subject ? (derivedRecord(ctx, subject) ?? moveToFolder(ctx, subject)) : undefined);
  if (filed && filed.length > 0) return { drafts: filed };
  // an answer given in a word or two (`respond_to_referral(referral_id, answer)`) names what it
  // answers: it makes no record under that key, and what it changes is not inferred
  if (subject && acting === "create" && answersInAWord(ctx, subject)) {
    const checked = existenceCheck(
      ctx,
      subject,
      "it answers the record it names in a word, and what that changes is not inferred",
    );
    if (checked) return { drafts: checked };
  }
  const across = subject && acting === "read" ? readAcrossFolders(ctx, subject) : undefined;
  if (across) return { drafts: across };
  const joined = subject ? joinAsSignedIn(ctx, subject) : undefined;
  if (joined) return { drafts: joined };
  if (subject && (acting === "create" || acting === "update" || acting === "delete")) {
    // `enroll_student_in_course`: the course keeps who is `enrolled`, so the course is acted on
    const keeper = ctx.references.find(
      (r) =>
        r !== subject && !r.many && r.collection !== subject.collection && verbsOwnList(ctx, r.collection),
    );
    const acted = keeper && !verbsOwnList(ctx, subject.collection) ? keeper : subject;
    const elements = elementRule(ctx, acted, acting);
    if (elements.length > 0) return { drafts: [...elements, ...holderTakes(ctx, acted)] };
  }
  // a list kept inside the record an argument names (`list_addresses(user_id)`) is what is read
  const inside =
    named?.parent && subject && acting === "read" && named.parent === subject.collection.name
      ? lookupRule(ctx, named)
      : undefined;
  if (inside) return { drafts: inside };
  // a list of another kind whose records point to the one an argument names (`list_member_loans`)
  const linked = subject && acting === "read" ? linkedListRule(ctx, subject) : undefined;
  if (linked) return { drafts: linked };
  const held = subject && acting !== "create" ? elementHeldRule(ctx, subject) : undefined;
  if (held) return { drafts: held };
  // a sign-in the session rules could not read proves nothing: it never rewrites the account
  // it names, nor answers its secrets
  if (subject && LOGIN_VERBS.has(facts.verb ?? ""))
    return { reason: "signs in, but no secret its accounts keep and no session field says how" };
  if (subject && acting !== "unknown" && acting !== "create") {
    const drafts = withRefund(ctx, subject.collection, collectionRule(ctx, subject, acting));
    // the holder of an entry is looked for first: an unknown flag is not an unknown environment
    const within = holder !== subject ? holder : holderReference(ctx, subject);
    const first = within && drafts.length > 0 ? foundFirst(ctx, within, drafts) : [];
    return found([...first, ...drafts], "its record cannot be reached");
  }
  if (named && acting !== "unknown") {
    const drafts = namedCollectionRule(ctx, named, acting);
    if ("drafts" in drafts && drafts.drafts.length > 0) return drafts;
  }
  const own =
    !subject && !named && (acting === "update" || acting === "read")
      ? ownRecordRule(ctx, acting, { increase: INCREASE_VERBS, decrease: DECREASE_VERBS })
      : undefined;
  if (own) return { drafts: own };
  const placed = !named && !subject && acting === "create" ? describedPlace(ctx) : undefined;
  if (placed) return found(createRule(ctx, placed, singular(placed.name)), "nothing to create");
  const folder = !named && acting === "create" ? folderForCreate(ctx) : undefined;
  if (folder) return found(createRule(ctx, folder, singular(folder.name)), "nothing to create");
  const pairs = !named ? pairsList(ctx) : undefined;
  if (pairs) {
    const drafts = pairsRule(ctx, pairs);
    if (drafts && drafts.length > 0) return { drafts };
  }
  const snapshot = acting === "read" && !named && !subject ? partsSnapshot(ctx) : undefined;
  if (snapshot) return { drafts: snapshot };
  const switchedOn = switchRule(ctx);
  if (switchedOn && switchedOn.length > 0) return { drafts: switchedOn };
  const intent = recordIntent(ctx);
  if (intent) {
    const record = recordFor(ctx, intent);
    if (record) {
      const drafts = recordRule(ctx, record, intent);
      if (drafts.length > 0) return { drafts };
    }
  }
  // a command to the one device or account, told by what it leaves (`recall_mower`: "status becomes charging")
  const commanded =
    !subject && (acting !== "read" || facts.verbAction === undefined)
      ? describedRecordChange(ctx)
      : undefined;
  if (commanded) return { drafts: commanded };
  if (acting === "create" && !named && shape.parts.length <= 1 && shape.root.fields.size === 0) {
    const noun = createdNoun(facts, named);
    if (noun) return found(createRule(ctx, undefined, noun), "nothing to create");
  }
  if (acting === "create" && !named && subject) {
    const unkept = unkeptCreate(ctx, createdNoun(facts, named) ?? singular(subject.collection.name));
    if (unkept) return { drafts: unkept };
  }
  if (action === "unknown") {
    // where no rule reads the unknown verb, the known one its docs open with says what it does
    const opened =
      facts.verbAction === undefined ? openingVerb(facts.tool.name, facts.tool.description) : undefined;
    if (opened) {
      const verbed = {
        ...facts,
        verb: opened.verb,
        verbAction: opened.action,
        nouns: facts.nouns.filter((n) => n !== opened.verb),
      };
      const retried = inferByShape({ ...ctx, facts: verbed }, options);
      if ("drafts" in retried) return retried;
    }
    const stated = subject ? statedChanges(ctx, subject) : undefined;
    if (stated) return { drafts: stated };
    const checked = subject ? existenceCheck(ctx, subject) : undefined;
    if (checked) return { drafts: checked };
    return {
      reason: `its verb (${facts.words[0] ?? facts.tool.name}) says nothing toolsim knows, and no part of the state fits its arguments; an unknown verb is never taken for a read`,
    };
  }
  if (!named) return { reason: "names no part of the state and no argument names a record" };
  return { reason: `no argument matches a field of ${named.name}` };
}

/**
 * Where the toolset mints tokens that its tools take back: a sign-in mints one and a revoke
 * clears it (the check of a given token comes first in every tool, with the other guards).
 */
function tokenOutcome(
  ctx: Context,
  scheme: TokenScheme,
  token: ReturnType<typeof tokenArgument>,
  rest: () => Outcome,
): Outcome {
  if (scheme.signIns.has(ctx.facts.tool.name))
    return {
      drafts: signInRule(ctx, scheme, () => {
        const outcome = rest();
        return "drafts" in outcome ? outcome.drafts : [];
      }),
    };
  const revoked = token ? revokeRule(ctx, scheme) : undefined;
  return revoked ? { drafts: revoked } : rest();
}

/** A change of a record that the tool says refunds gives its price back to whatever paid for it. */
function withRefund(ctx: Context, collection: CollectionShape, drafts: Draft[]): Draft[] {
  const update = drafts.find((d) => d.kind === "update" && typeof d.as === "string");
  const refund = update ? refundFor(ctx, collection, update.as as string) : undefined;
  return refund ? [...drafts, refund] : drafts;
}

const CHANGES = new Set(["create", "update", "delete", "tree"]);

/** The fields of an update that only say which record and when, changing nothing of it. */
const UPDATE_FRAME = new Set([
  "kind",
  "target",
  "missing",
  "require",
  "as",
  "output",
  "when",
  "unless",
  "set",
]);

/**
 * The searches for where nested records are kept, each just before the first effect that goes
 * through it: a search by a key an earlier effect binds (the card a booking was paid with)
 * must come after that effect, and one by an argument may come first.
 */
function locatedFirst(located: Iterable<Draft>, drafts: readonly Draft[]): Draft[] {
  const placed = [...drafts];
  for (const search of [...located].reverse()) {
    const at = placed.findIndex((d) => JSON.stringify(d).includes(`$${String(search.as)}.`));
    placed.splice(Math.max(at, 0), 0, search);
  }
  return placed;
}

/**
 * A tool whose name says it writes while its effects only read (an update that sets nothing:
 * `subscribe(plan_id)` beside a plan and no word of what subscribing changes) answers from
 * the state but keeps nothing of the call: it is reported partly, never inferred.
 */
function unchangedWrite(facts: ToolFacts, drafts: readonly Draft[]): string[] {
  if (facts.verbAction !== "create" && facts.verbAction !== "update" && facts.verbAction !== "delete")
    return [];
  const changes = drafts.some((d) => {
    if (d.kind === "create" || d.kind === "delete") return true;
    if (d.kind === "tree") return !TREE_READ_OPS.has(String(d.op));
    if (d.kind !== "update") return false;
    const set = d.set;
    return (
      Object.keys(d).some((k) => !UPDATE_FRAME.has(k)) ||
      (typeof set === "object" && set !== null && Object.keys(set).length > 0)
    );
  });
  return changes ? [] : [`changes nothing: no argument or word of "${facts.tool.name}" says what it changes`];
}

/** Sentences that state when a call is refused: "must be higher", "cannot be deleted", "fails when". */
const CONDITION =
  /\b(?:must(?! not be (?:empty|blank))|cannot|can't|can not|may not|only\s+(?:if|when|for|[a-z]+\s+[a-z]+s\b)|fails?\s+(?:if|when|unless)|unless|not allowed|at (?:least|most)|no (?:more|less|fewer) than|(?:is|are) full|instead)\b/i;

/** What the schema checks or a later call sees: the form of an argument, not the state. */
const ABOUT_ARGUMENTS =
  /\b(?:format(?:ted)?|specified|provided|given|valid|characters?|length|digits|retrieved|shown|displayed|case-sensitive)\b/i;

/**
 * A change whose description states a condition under which it is refused, where no effect
 * guards anything but existence, is only partly known: the real API refuses what the
 * simulation would let through.
 */
function unguardedCondition(
  facts: ToolFacts,
  drafts: readonly Draft[],
  shape: StateShape,
  added: readonly ToolError[],
): string[] {
  if (!drafts.some((d) => CHANGES.has(d.kind))) return [];
  // a sentence is checked where a guard speaks of what it speaks of: a field, a value, an error's
  // words; not the record's own noun, which every guard of its kind names
  const nouns = new Set([...shape.collections.keys()].flatMap((name) => nameWords(name).map(singular)));
  const guarded = new Set(
    drafts.flatMap((d) =>
      [d.kind === "check" ? d.require : undefined, d.kind === "check" ? undefined : d.require, d.exists]
        .filter((part) => part !== undefined && !(Array.isArray(part) && part.length === 0))
        .flatMap((part) => {
          // an error a guard answers speaks of what it checks in its own words too
          const text = JSON.stringify(part);
          const said = [...facts.tool.errors, ...added].filter((e) => text.includes(e.code));
          return [text, ...said.map((e) => `${e.message} ${e.when ?? ""}`)].flatMap(wordsOf);
        })
        .filter((word) => !nouns.has(word)),
    ),
  );
  const sentence = (facts.tool.description ?? "")
    .split(/(?<=[.!?])\s+/)
    .find(
      (s) => CONDITION.test(s) && !ABOUT_ARGUMENTS.test(s) && !wordsOf(s).some((word) => guarded.has(word)),
    );
  return sentence ? [`the description states a condition no effect checks: "${sentence.trim()}"`] : [];
}

/**
 * `repo_archived`, "ISSUE_LOCKED if the issue is locked": a documented error naming a
 * record an argument names and one of its flags refuses the call while that record's flag is
 * set (or, said with "not", while it is clear), as Stripe refuses charging a detached payment
 * method and GitHub commenting on a locked issue.
 */
function linkedFlagGuards(ctx: Context): Draft[] {
  const out: Draft[] = [];
  const open = ctx.facts.errors.filter((e) => e.kind !== "not-found" && !ctx.usedErrors.has(e.code));
  if (open.length === 0) return out;
  for (const reference of ctx.references) {
    if (!reference.param.required || reference.many) continue;
    const noun = escapeRegExp(nameWords(singular(partNoun(reference.collection.name))).at(-1) ?? "");
    const require: Array<Record<string, unknown>> = [];
    for (const field of reference.collection.fields.values()) {
      if (field.path.includes(".") || !field.types.has("boolean") || field.types.size !== 1) continue;
      const words = escapeRegExp(
        nameWords(field.path)
          .filter((w) => w !== "is")
          .join(" "),
      );
      for (const error of ctx.facts.errors) {
        if (error.kind === "not-found" || ctx.usedErrors.has(error.code)) continue;
        const said = `${nameWords(error.code).join(" ")} ${error.text}`;
        const negated = new RegExp(`\\b${noun}\\s+(?:is\\s+)?not\\s+${words}\\b`).test(said);
        if (!negated && !new RegExp(`\\b${noun}\\s+(?:is\\s+)?${words}\\b`).test(said)) continue;
        require.push({
          expr: `$subject.${identifier(field.path)} ${negated ? "=" : "!="} true`,
          error: use(ctx, error),
        });
        ctx.notes.push(
          `refuses while the ${humanNoun(reference.collection.name)}'s ${field.path} is ${negated ? "false" : "true"} (${error.code})`,
        );
      }
    }
    const target = require.length > 0 ? referenceTarget(ctx, reference) : undefined;
    if (target) out.push({ kind: "read", target, require });
  }
  return out;
}

/**
 * "the order's state becomes \"shipped\"", "sets the invoice's status to paid": a change the
 * description makes to the record the changed one links to, by the link's value, as a
 * workflow's side effects are documented (GitHub closing an issue a merged pull request names,
 * Stripe marking an invoice paid when its payment succeeds, Jira's post-functions). Sentences
 * that say "if" are conditions, not changes, and are left alone.
 */
function linkedChanges(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const changed = drafts.find(
    (d) =>
      (d.kind === "update" || d.kind === "create") &&
      typeof d.as === "string" &&
      typeof d.target === "string",
  );
  const name = changed ? String(changed.target).split("/")[0] : undefined;
  const collection = name ? ctx.shape.collections.get(name) : undefined;
  // only a description that speaks of another record's field ("the order's state")
  if (!changed || !collection || !/'s\s/.test(ctx.facts.tool.description)) return [];
  const sentences = ctx.facts.tool.description.split(/(?<=[.;])\s+/).filter((x) => !/\bif\b/i.test(x));
  const out: Draft[] = [];
  for (const link of collection.fields.values()) {
    const linked = link.refersTo ? ctx.shape.collections.get(link.refersTo) : undefined;
    if (!linked || link.path.includes(".")) continue;
    const noun = nameWords(singular(partNoun(linked.name))).at(-1) ?? "";
    const set: Record<string, unknown> = {};
    for (const field of linked.fields.values()) {
      if (field.path.includes(".") || !ctx.facts.tool.description.includes(`'s ${field.path}`)) continue;
      const f = escapeRegExp(field.path);
      const said = new RegExp(
        `\\bthe ${escapeRegExp(noun)}'s ${f}\\s+(?:becomes|is set to|changes to|goes to)\\s+["'\`]?([A-Za-z0-9_-]+)["'\`]?|\\bsets? the ${escapeRegExp(noun)}'s ${f} to\\s+["'\`]?([A-Za-z0-9_-]+)["'\`]?`,
        "i",
      );
      const value = sentences.map((x) => said.exec(x)).find(Boolean);
      const word = value?.[1] ?? value?.[2];
      if (!word) continue;
      set[field.path] = word === "null" ? null : word === "true" ? true : word === "false" ? false : word;
    }
    if (Object.keys(set).length === 0) continue;
    const target = recordTarget(ctx, linked, `{$${String(changed.as)}.${identifier(link.path)}}`);
    if (!target) continue;
    ctx.notes.push(
      `sets ${Object.keys(set).join(", ")} of the ${humanNoun(linked.name)} its ${link.path} names, as the description says`,
    );
    out.push({ kind: "update", target, set });
  }
  return out;
}

/**
 * "Newcomers are placed at the bottom of the standings", "an order goes to the back of the
 * queue": a create whose description puts the new record at the end of a list that orders its
 * collection's keys (`standings: ["ida", "jon"]`, `queue: [8, 9]`) appends its key there, as a
 * leaderboard, a print queue or a waitlist keep order beside the records (Redis `RPUSH` beside
 * a hash, Twilio TaskRouter queues, Jira's ranked backlog).
 */
function orderJoined(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const made = drafts.find(
    (d) => d.kind === "create" && typeof d.as === "string" && typeof d.target === "string",
  );
  if (!made || ctx.facts.params.some((p) => /^(position|index|rank|place)$/.test(p.name))) return [];
  const [name, key] = String(made.target).split("/");
  const collection = name ? ctx.shape.collections.get(name) : undefined;
  if (!collection || collection.parent) return [];
  const keys = new Set(collection.keys);
  const text = ctx.facts.tool.description.replace(/[`*]/g, "").toLowerCase();
  const list = ctx.shape.parts.find((p): p is ListShape => {
    if (p.kind !== "list" || p.path.length !== 1 || p.items.length === 0) return false;
    if (!p.items.every((v) => keys.has(String(v)))) return false;
    const words = nameWords(p.name).map(escapeRegExp).join("[ _]");
    return new RegExp(
      `\\b(?:(?:bottom|end|back|tail)\\s+of\\s+(?:the\\s+)?${words}|(?:appended|added|joins?)\\s+(?:to\\s+)?(?:the\\s+)?${words})\\b`,
    ).test(text);
  });
  if (!list) return [];
  const given = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(key ?? "")?.[1];
  const value = given
    ? `$args.${identifier(given)}`
    : collection.keyField
      ? `$${String(made.as)}.${identifier(collection.keyField)}`
      : undefined;
  if (!value) return [];
  const field = `$subject.${identifier(list.name)}`;
  ctx.notes.push(`puts the new ${humanNoun(singular(collection.name))}'s key at the end of ${list.name}`);
  return [
    {
      kind: "update",
      target: ".",
      set: { [list.name]: { $expr: `$append(${field} ? ${field} : [], ${value})` } },
    },
  ];
}

/**
 * A read that names no record of its own but whose answer is computed over the records (an
 * account-wide summary, a customer's totals): the counts and sums, after the not-found
 * error of any record an argument names.
 */
function computedRead(ctx: Context): { drafts: Draft[] } | undefined {
  // an unknown verb (`rebalancer`) may change what it counts: only a known read is rescued
  const { tool } = ctx.facts;
  // a summary named by its noun alone (`repo_stats`, `account_summary`) reads
  const namedRead = ctx.facts.verb === undefined && READ_NOUNS.has(ctx.facts.words.at(-1) ?? "");
  if (tool.annotations?.readOnlyHint !== true && ctx.facts.verbAction !== "read" && !namedRead)
    return undefined;
  const computed = aggregateAnswers(ctx, []);
  if (computed.length === 0) return undefined;
  const named: Draft[] = [];
  for (const param of ctx.facts.params) {
    // `currency` of currencies keyed by their codes: a key the argument's name names
    const collection =
      ctx.references.find((r) => r.param === param && !r.many)?.collection ??
      (param.required ? collectionNamed(ctx, param.name) : undefined);
    if (!collection) continue;
    const target = recordTarget(ctx, collection, `{${param.name}}`);
    const missing = notFoundError(ctx, collection, param.name, { add: true });
    // an optional one ("optionally for one repository") must name a record when it is given
    const given = param.required ? {} : { when: `$exists($args.${identifier(param.name)})` };
    if (target && missing) named.push({ kind: "read", target, missing, ...given });
  }
  return { drafts: [...named, ...computed] };
}

/**
 * `follower_count`, `tag_count`, `number_of_guests`: an answer's count of a list the record the
 * call read or changed keeps is that list's length, as GitHub's `followers` count, YouTube's
 * `subscriberCount` and a Slack channel's `num_members` are.
 */
function listCounts(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const bound = drafts.filter(
    (d) => typeof d.as === "string" && typeof d.target === "string" && d.kind !== "list",
  );
  const out: Draft[] = [];
  for (const output of ctx.facts.outputs) {
    if (output.type !== "integer" && output.type !== "number") continue;
    const noun = /^(?:number_of_|num_)?([a-z]+?)s?(?:_count|_total)?$/.exec(output.name)?.[1];
    if (!noun || !/_count$|^num_|^number_of_/.test(output.name)) continue;
    for (const draft of bound) {
      const collection = ctx.shape.collections.get(String(draft.target).split("/")[0] ?? "");
      const field = [...(collection?.fields.values() ?? [])].find(
        (f) => !f.path.includes(".") && f.types.has("array") && singular(f.path) === noun,
      );
      if (!field) continue;
      out.push({
        kind: "respond",
        output: output.name,
        value: { $expr: `$count($${String(draft.as)}.${field.path})` },
      });
      ctx.notes.push(`answers ${output.name} as the length of ${field.path}`);
      break;
    }
  }
  return out;
}

/**
 * "Answers with the kit's id, `retired: true` and its `uses`": an output the docs give a constant
 * in code (a flag, a number or null) answers that constant, as Stripe's deletes answer
 * `deleted: true` and Slack's methods `ok: true`, and GitHub's `merged: true` after a merge.
 */
function statedConstants(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const answered = answeredBy(drafts);
  const out: Draft[] = [];
  const description = ctx.facts.tool.description;
  if (!description.includes("`")) return out;
  for (const output of ctx.facts.outputs) {
    if (answered.has(output.name) || !description.includes(output.name)) continue;
    const name = escapeRegExp(output.name);
    const said = new RegExp(`\`${name}\`?\\s*[:=]\\s*\`?(true|false|null|-?\\d+(?:\\.\\d+)?)\``).exec(
      ctx.facts.tool.description,
    )?.[1];
    if (said === undefined) continue;
    const value: unknown = JSON.parse(said);
    if (
      value !== null &&
      output.type !== undefined &&
      typeof value !== (output.type === "integer" ? "number" : output.type)
    )
      continue;
    out.push({ kind: "respond", output: output.name, value: { $expr: said } });
    ctx.notes.push(`answers ${output.name} ${said}, as the docs give it`);
  }
  return out;
}

/** The statistic a word at the head of an output's name asks for, as a JSONata function of the numbers. */
const STATISTICS: Record<string, (values: string) => string> = {
  min: (v) => `$min(${v})`,
  minimum: (v) => `$min(${v})`,
  lowest: (v) => `$min(${v})`,
  max: (v) => `$max(${v})`,
  maximum: (v) => `$max(${v})`,
  highest: (v) => `$max(${v})`,
  peak: (v) => `$max(${v})`,
  avg: (v) => `$average(${v})`,
  average: (v) => `$average(${v})`,
  mean: (v) => `$average(${v})`,
  last: (v) => `${v}[-1]`,
  latest: (v) => `${v}[-1]`,
  first: (v) => `${v}[0]`,
  earliest: (v) => `${v}[0]`,
};

/**
 * `lowest_kg`, `mean_weight_kg`, `latest_weight_kg` of a hive whose `weighings` keep `weight_kg`: an
 * answer named for a statistic and a number its list's items keep (by name, or by the unit the
 * name ends in) is that statistic over the list, null where the list is empty, as CloudWatch's
 * Minimum/Maximum/Average, Strava's `max_speed`/`average_speed` and a data logger's summary give.
 */
function listStatistics(ctx: Context, drafts: readonly Draft[]): Draft[] {
  const bound = drafts.filter(
    (d) =>
      typeof d.as === "string" && typeof d.target === "string" && d.kind !== "list" && d.kind !== "check",
  );
  const out: Draft[] = [];
  const rounded = /\brounded to (\d) decimal/i.exec(ctx.facts.tool.description)?.[1];
  for (const output of ctx.facts.outputs) {
    if (output.type !== undefined && output.type !== "integer" && output.type !== "number") continue;
    const [head, ...rest] = nameWords(output.name);
    const statistic = head ? STATISTICS[head] : undefined;
    if (!statistic || rest.length === 0) continue;
    for (const draft of bound) {
      const collection = ctx.shape.collections.get(String(draft.target).split("/")[0] ?? "");
      // a bound the record keeps itself (`max_kg` of a hive) is stored, not worked out
      if (collection?.fields.has(output.name)) break;
      const kept = numbersOfItems(ctx, collection, rest);
      if (!kept) continue;
      const values = `$${String(draft.as)}.${kept.list}.${kept.field}`;
      const computed = statistic(`[${values}]`);
      const value =
        head === "avg" || head === "average" || head === "mean" ? roundedTo(computed, rounded) : computed;
      out.push({
        kind: "respond",
        output: output.name,
        value: { $expr: `$count([${values}]) = 0 ? null : ${value}` },
      });
      ctx.notes.push(`answers ${output.name} as the ${head} of ${kept.field} over ${kept.list}`);
      break;
    }
  }
  return out;
}

function roundedTo(expression: string, places: string | undefined): string {
  return places === undefined ? expression : `$round(${expression}, ${places})`;
}

/** The one list of a collection's records whose items keep the number a name's words end in (`weight_kg`, or `…_kg`). */
function numbersOfItems(
  ctx: Context,
  collection: CollectionShape | undefined,
  words: readonly string[],
): { list: string; field: string } | undefined {
  if (!collection) return undefined;
  const found: Array<{ list: string; field: string }> = [];
  for (const list of collection.fields.values()) {
    if (list.path.includes(".") || !list.types.has("array")) continue;
    const items = ctx.shape.nested.get(list.path);
    if (!items || items.parent !== collection.name) continue;
    const numbers = [...items.fields.values()].filter((f) => !f.path.includes(".") && f.types.has("number"));
    const exact = numbers.find((f) => f.path === words.join("_"));
    const unit = words.at(-1);
    const byUnit = numbers.filter((f) => nameWords(f.path).length > 1 && nameWords(f.path).at(-1) === unit);
    const field = exact ?? (byUnit.length === 1 ? byUnit[0] : undefined);
    if (field) found.push({ list: list.path, field: field.path });
  }
  return found.length === 1 ? found[0] : undefined;
}

/**
 * "Changing the plan also resets usage_count", "retry_count is reset to 0": a change whose
 * description names a field of what it changes, with a verb of changing, where no effect writes
 * that field, does part of its work unseen: the tool is `partly`, with the field named.
 */
function unwrittenMentions(facts: ToolFacts, drafts: readonly Draft[], shape: StateShape): string[] {
  const changes = drafts.filter((d) => CHANGES.has(d.kind));
  if (changes.length === 0) return [];
  const written = new Set<string>();
  for (const draft of drafts)
    for (const part of [draft.set, draft.inc, draft.append, draft.fields])
      if (isPlainObject(part)) for (const key of Object.keys(part)) written.add(key.split(".")[0] as string);
  const segments = new Set(changes.flatMap((d) => (typeof d.target === "string" ? d.target.split("/") : [])));
  const fields = new Set<string>();
  for (const part of shape.parts) {
    if (!("fields" in part) || !segments.has(part.name)) continue;
    for (const path of part.fields.keys()) if (path.includes("_") && !path.includes(".")) fields.add(path);
  }
  const description = facts.tool.description;
  const unwritten = [...fields].filter((field) => {
    if (written.has(field) || !description.includes(field)) return false;
    const named = new RegExp(`(^|[^a-z_])${escapeRegExp(field)}([^a-z_]|$)`);
    return sentencesOf(facts.tool.description).some(
      (sentence) => named.test(sentence) && CHANGED.test(sentence) && !UNCHANGED.test(sentence),
    );
  });
  return unwritten.length > 0
    ? [`the description says the call changes ${unwritten.join(", ")}, which no effect writes`]
    : [];
}

/**
 * "A waiting booking is pulled from the waitlist": a
 * change whose description says it also changes another part of the state (named by its name or
 * noun, with a verb of changing in the same sentence) that no effect touches does part of its
 * work unseen: the tool is `partly`, with the part named.
 */
function untouchedParts(facts: ToolFacts, drafts: readonly Draft[], shape: StateShape): string[] {
  if (!drafts.some((d) => CHANGES.has(d.kind))) return [];
  const touched = new Set(
    drafts.flatMap((d) => (typeof d.target === "string" ? d.target.split("/").slice(0, 1) : [])),
  );
  // a change at the world's root record touches every part
  if (touched.has(".") || touched.has("")) return [];
  const sentences = sentencesOf(facts.tool.description).filter(
    (s) => (CHANGED.test(s) || ALSO_CHANGED.test(s)) && !UNCHANGED.test(s),
  );
  const untouched = shape.parts.filter((part) => {
    if (part.path.length !== 1 || part.kind === "record" || touched.has(part.name)) return false;
    const words = nameWords(part.name);
    const noun = words.length === 1 ? singular(words[0] as string) : undefined;
    const named = new RegExp(
      `(^|[^a-z_])(?:${escapeRegExp(part.name)}${noun ? `|${escapeRegExp(noun)}s?` : ""})([^a-z_]|$)`,
      "i",
    );
    return sentences.some((sentence) => named.test(sentence));
  });
  return untouched.length > 0
    ? [
        `the description says the call also changes ${untouched.map((p) => p.name).join(", ")}, which no effect touches`,
      ]
    : [];
}

const ALSO_CHANGED =
  /\b(pulled|removed|taken off|taken out|freed|freeing|frees|released|back to|returns to|deducted|appended|added to|leaves|joins|pushed|popped|reserved|consumed)\b/i;

/**
 * "Labels are kept trimmed and lower-cased", "matched
 * case-insensitively": where the effects do not normalise an argument as the docs say (no
 * argument the words are said of, or a comparison that ignores case), the tool is `partly`,
 * saying so.
 */
function normalised(
  facts: ToolFacts,
  changed: ReadonlyMap<string, readonly string[]>,
  compared: ReadonlySet<string>,
): string[] {
  const said = [...facts.tool.description.matchAll(NORMALISED)].map((m) => m[0].toLowerCase());
  const unhandled = said.filter((word) => (word.startsWith("case") ? compared : changed).size === 0);
  return unhandled.length > 0
    ? [`the description says values are ${unhandled[0]}; the effects take them as given`]
    : [];
}

const NORMALISED = /\b(lower-?cased?|upper-?cased?|trimmed|normali[sz]ed|case-insensitive(ly)?)\b/gi;

const CHANGED =
  /\b(resets?|is reset|sets?|is set|becomes?|increases?|decreases?|increments?|decrements?|goes back|moves?|changes to|is cleared|clears?|is updated|updates?|grows?|drops?)\b/i;
const UNCHANGED = /\b(not changed|unchanged|not affected|is not|are not|stays|never)\b/i;

/**
 * A tool without an output schema whose description says what its answer holds ("with its
 * line totals, subtotal and total", "also returns the bytes used", "Returns the alert with
 * open_minutes") where the records it reads keep no such thing: those values are the real API's computation or its own, and the answer,
 * made of the record, lacks them.
 */
function unansweredMentions(facts: ToolFacts, drafts: readonly Draft[], shape: StateShape): string[] {
  if (facts.outputs.length > 0) return [];
  const description = facts.tool.description ?? "";
  const reads = !drafts.some((d) => CHANGES.has(d.kind));
  // what the answer holds, as docs list it: "with its …", "including …", "returns its …", and
  // for a read, "together with the …", "with the …", or a list after a colon
  const phrases = reads ? READ_HOLDS : ANSWER_HOLDS;
  const listed = [...description.matchAll(phrases)].map(
    (m) =>
      (m[1] ?? m[2] ?? "").split(/,?\s+(?:optionally|if|when|where|unless|sorted|ordered|given)\b/i)[0] ?? "",
  );
  if (listed.length === 0) return [];
  const segments = new Set(drafts.flatMap((d) => (typeof d.target === "string" ? d.target.split("/") : [])));
  const read = [...shape.collections.values()].filter((c) => segments.has(c.name));
  if (read.length === 0) return [];
  const inside = [...shape.collections.values()].filter((c) => read.some((r) => r.name === c.parent));
  const kept: Array<Set<string>> = [];
  let holdsItems = false;
  for (const collection of [...read, ...inside]) {
    kept.push(new Set(nameWords(collection.name).map(singular)));
    for (const field of collection.fields.values()) {
      kept.push(new Set(field.path.split(".").flatMap((part) => nameWords(part).map(singular))));
      holdsItems ||= field.itemFields !== undefined;
    }
  }
  const held = (words: readonly string[]) =>
    (holdsItems && words.every((w) => LIST_ITEMS.has(w))) ||
    kept.some((set) => words.every((w) => set.has(w)));
  const items = listed
    .flatMap((list) => list.split(/,|\band\b|\bor\b/))
    .map((item) => item.trim().toLowerCase());
  // a count or sum of something ("the number of seats still available", "the net sum of
  // points") is the API's computation unless a field is named for it
  const computed = items
    .map((item) => COMPUTED.exec(item)?.[1])
    .filter((noun): noun is string => noun !== undefined)
    .filter(
      (noun) =>
        !kept.some(
          (set) => set.has(singular(noun)) && [...set].some((w) => /^(count|num|number|total|sum)$/.test(w)),
        ),
    )
    .map((noun) => `the number or sum of ${noun}`);
  const missing = items
    .filter((item) => !COMPUTED.test(item))
    .map((item) => item.split(/\s+(?:in|of|for|at|across|by|on|from|to|the|that|which|who)\s+/)[0] ?? "")
    .map((item) =>
      item
        .split(/\s+/)
        .filter((w) => w !== "" && !/^(the|its|their|a|an|current|all|each)$/.test(w))
        .flatMap((w) => w.split("_").filter(Boolean))
        .map(singular)
        .filter((w) => !GENERIC_HEADS.has(w)),
    )
    .filter((words) => words.length > 0 && !held(words))
    .map((words) => words.join(" "))
    .concat(computed);
  return missing.length > 0
    ? [
        `the description says the answer holds what the records it reads keep nowhere: ${[...new Set(missing)].join(", ")}`,
      ]
    : [];
}

/** How a description lists what a changing tool answers. */
const ANSWER_HOLDS =
  /\b(?:with (?:its|their)|including(?: its| their)?|(?:also )?returns? (?:the [a-z ]+? and )?(?:its|their)|also returns? the|returns? (?:the|its|their) [a-z]+ (?:with|plus))\s+([a-z_ ,'-]+?)(?:[.;:(]|$)/gi;
/** And a read, which may also list it "with the …", "together with the …" or after a colon. */
const READ_HOLDS =
  /\b(?:with (?:its|their|the)|together with (?:its|their|the)|including(?: its| their| the)?|(?:also )?returns? (?:the [a-z ]+? and )?(?:its|their)|also returns? the)\s+([a-z ,'-]+?)(?:[.;:(]|$)|:\s+(?:its|their|the)\s+([a-z ,'-]+?)(?:[.;(]|$)/gi;
/** A value the API computes: the number, count, total or sum of something. */
const COMPUTED = /^(?:the\s+)?(?:number|count|total|sum|net sum)\s+of\s+(?:the\s+)?([a-z]+)/;

/**
 * Arguments no effect reads (`version_id` of a read that answers the whole object): the real
 * API selects, filters or records by them, and the simulation does not, so the tool is only
 * partly known.
 */
function unusedArguments(facts: ToolFacts, drafts: readonly Draft[], said: readonly string[]): string[] {
  if (drafts.length === 0) return [];
  // the values of the effects, not their keys: a field named as the argument is not a use of it
  const values: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") values.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(drafts);
  const used = (name: string) => {
    const bare = new RegExp(`(^|[^\\w.$])${escapeRegExp(name)}\\b`);
    return values.some(
      (v) => v.includes(`{${name}}`) || v.includes(`$args.${identifier(name)}`) || bare.test(v),
    );
  };
  const unused = facts.params
    .filter((p) => !used(p.name) && !(PAGE_ARGUMENTS.test(p.name) && !p.required))
    .map((p) => p.name)
    // a gap that already names the argument says why
    .filter((name) => !said.some((gap) => new RegExp(`\\b${escapeRegExp(name)}\\b`).test(gap)));
  return unused.length > 0 ? [`no effect reads the argument(s) ${unused.join(", ")}`] : [];
}

/** Optional arguments that only cut a long answer into pages: short answers never meet them. */
const PAGE_ARGUMENTS = /^(limit|max_?results|page|page_?size|per_?page|offset|cursor|page_?token)$/i;

/** Words for the elements of a record's list of records. */
const LIST_ITEMS: ReadonlySet<string> = new Set(["line", "item", "entry"]);
/** Head nouns that say how a value is given, not what it is (a click count, a version id). */
const GENERIC_HEADS: ReadonlySet<string> = new Set([
  "count",
  "number",
  "id",
  "detail",
  "info",
  "data",
  "value",
  "level",
]);

/** The words of a text or of a guard's JSON that can name a thing: four letters or more, singular. */
function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]{4,}/g) ?? [])
    .map(singular)
    .filter((word) => !GUARD_SYNTAX.has(word));
}

/** Words every guard's JSON has, which name nothing the description speaks of. */
const GUARD_SYNTAX: ReadonlySet<string> = new Set([
  "arg",
  "subject",
  "count",
  "exist",
  "filter",
  "function",
  "string",
  "contain",
  "true",
  "false",
  "field",
  "expr",
  "notin",
  "error",
  "each",
  "entity",
  "when",
  "must",
  "with",
  "that",
  "than",
  "this",
  "from",
  "have",
]);

const TREE_READ_OPS = new Set(["pwd", "list", "read", "info", "size", "find"]);

/**
 * A boolean output that reports the call went through (`success`, `is_sent`,
 * `was_deleted`) is true in every answer the effects let through: a failed call answers
 * an error instead.
 */
function successFlags(facts: ToolFacts, drafts: readonly Draft[]): Draft[] {
  if (!drafts.some((d) => CHANGES.has(d.kind))) return [];
  const answered = new Set(drafts.map((d) => (typeof d.output === "string" ? d.output : "")));
  return facts.outputs
    .filter(
      (o) =>
        o.type === "boolean" &&
        !answered.has(o.name) &&
        (/^(success|successful|succeeded|ok|done|status|result)$|_(status|success|ok|done)$/.test(o.name) ||
          doneVerbs(facts).some((verb) => doneWord(o.name, verb))),
    )
    .map((o) => ({ kind: "respond", output: o.name, value: { $expr: "true" } }));
}

/**
 * An output named for the tool's own verb done (`deleted` of a delete, `archived` of an
 * archive); any removal answers `deleted` or `removed` (`erase_note` → `deleted: true`).
 */
function doneVerbs(facts: ToolFacts): string[] {
  const own = facts.verb ? [facts.verb] : [];
  return facts.verbAction === "delete" ? [...own, "delete", "remove"] : own;
}

function doneWord(name: string, verb: string | undefined): boolean {
  if (!verb) return false;
  const stem = verb.replace(/e$/, "");
  // the participle alone (`deleted`, `is_archived`): `followed_by` says who, not that it was done
  const words = nameWords(name).filter((w) => !/^(is|was|successfully)$/.test(w));
  return (
    words.length === 1 &&
    words.some((w) => w.endsWith("ed") && w.startsWith(stem) && w.length <= stem.length + 3)
  );
}

/**
 * A map of values named by the noun of a required argument (`register_guest(guest_name)` and
 * `guest_index`): the tool names what it adds by the argument rather than by its own name.
 */
function valuesNamedByParam(ctx: Context): ValuesShape | undefined {
  const maps = ctx.shape.parts.filter((p): p is ValuesShape => p.kind === "values");
  for (const param of ctx.facts.params.filter((p) => p.required && p.type === "string" && !p.identifier)) {
    const words = param.words.filter((w) => !/^(name|id|key)$/.test(w)).map(singular);
    if (words.length === 0) continue;
    // a map named for what it keeps (`member_map`) or for the ids it holds (`member_ids`)
    const found = maps.find((m) => [words.join("_"), `${words.join("_")}_id`].includes(partNoun(m.name)));
    if (found) return found;
    // `playlist` of `studio_playlists`: the head noun of the one map whose name the docs give
    const headed = maps.filter(
      (m) => singular(nameWords(m.name).at(-1) ?? "") === words.join("_") && ctx.facts.text.includes(m.name),
    );
    if (headed.length === 1) return headed[0];
  }
  return undefined;
}

/**
 * A map of lists the description addresses by an argument (`club_lists[list]`), also one whose
 * keys read as words (`{autumn: […], winter: […]}`): the docs say its keys are data.
 */
function bracketedValues(ctx: Context): ValuesShape | undefined {
  const text = ctx.facts.tool.description;
  if (!text.includes("[")) return undefined;
  const addressed = (name: string) =>
    ctx.facts.params.some((param) => text.includes(`${name}[${param.name}]`));
  for (const part of ctx.shape.parts) {
    if (part.kind === "values" && part.valueType === "array" && addressed(part.name)) return part;
    const lists =
      part.kind === "record" && part.path.length > 0 && part.fields.size > 0
        ? [...part.fields.values()].every((f) => f.types.size === 1 && f.types.has("array"))
        : false;
    if (part.kind === "record" && lists && addressed(part.name))
      return {
        kind: "values",
        path: part.path,
        name: part.name,
        keys: [...part.fields.keys()],
        valueType: "array",
        values: [],
      };
  }
  return undefined;
}

/**
 * A tool that names no part but takes a bare `key` acts on the world's one map of plain values
 * (of the type its `value` argument or answer has, where there are several): the get, set and
 * delete of Redis, etcd, Consul's KV and Cloudflare Workers KV name no store, only the key.
 */
function soleKeyValueMap(ctx: Context): ValuesShape | undefined {
  if (!ctx.facts.params.some((p) => p.name === "key" && p.type === "string")) return undefined;
  const maps = ctx.shape.parts.flatMap((p): ValuesShape[] => {
    if (p.kind === "values") return PLAIN.includes(p.valueType) ? [p] : [];
    // a few keys read as a record's fields (`{greeting: "hello", theme: "dark"}`): a store all the same
    if (p.kind !== "record" || p.path.length === 0 || p.path.includes("*")) return [];
    const fields = [...p.fields.values()];
    const types = new Set(fields.flatMap((f) => [...f.types]));
    const [type] = types;
    if (fields.length === 0 || types.size !== 1 || !type || !PLAIN.includes(type)) return [];
    if (fields.some((f) => f.path.includes("."))) return [];
    const values = fields.flatMap((f) => f.samples);
    return [
      {
        kind: "values",
        path: p.path,
        name: p.name,
        keys: fields.map((f) => f.path),
        valueType: type,
        values,
      },
    ];
  });
  if (maps.length <= 1) return maps[0];
  const typed =
    ctx.facts.params.find((p) => p.name === "value")?.type ??
    ctx.facts.outputs.find((o) => o.name === "value")?.type;
  const fitting = maps.filter((m) => fitsStateType(typed, m.valueType));
  return fitting.length === 1 ? fitting[0] : undefined;
}

const PLAIN = ["string", "number", "integer", "boolean"];

/** Outputs answered from a guess (toolsim's own table of exchange rates) are guesses too. */
function withGuesses(grounding: Grounding, guesses: readonly string[]): Grounding {
  if (guesses.length === 0) return grounding;
  return {
    grounded: grounding.grounded.filter((o) => !guesses.includes(o)),
    guessed: [...grounding.guessed, ...guesses.filter((o) => !grounding.guessed.includes(o))],
  };
}

/** The names the API's tools take as arguments: fields some call may give a record. */
function namesTaken(ctx: Context): Set<string> {
  return new Set([ctx.facts, ...ctx.siblings()].flatMap((facts) => facts.params.map((p) => p.name)));
}

function toolText(facts: ToolFacts): string {
  return [facts.tool.name, facts.text, ...facts.params.map((p) => `${p.name} ${p.description}`)].join(" ");
}

/**
 * A tool whose verb says nothing toolsim knows still acts on the record its argument names:
 * an unknown one answers that record's not-found error, as any operation on a missing
 * resource answers 404 (GitHub, Stripe's `resource_missing`, Slack's `channel_not_found`).
 * What it does is left to synthesis, and the report says so.
 */
function existenceCheck(
  ctx: Context,
  subject: Reference,
  gap = `its verb (${ctx.facts.verb ?? ctx.facts.words[0]}) says nothing toolsim knows: what it does is not inferred`,
): Draft[] | undefined {
  if (!subject.param.required || subject.strength !== "strong") return undefined;
  const check = foundFirst(ctx, subject);
  if (check.length === 0) return undefined;
  addGap(ctx, gap);
  return check;
}

/**
 * A verb toolsim does not know whose description says what it changes ("closed_at is set to
 * now", "status open becomes resolved", "archived = true"): those changes, on the record its
 * argument names; the verb may do more, and the report says so.
 */
function statedChanges(ctx: Context, subject: Reference): Draft[] | undefined {
  const collection = subject.collection;
  const target = referenceTarget(ctx, subject);
  if (!target || !subject.param.required) return undefined;
  const set: Record<string, unknown> = { ...statedValues(ctx, collection, {}) };
  const status = statusField(collection);
  const lifecycle = status
    ? lifecycleTable(ctx, knownValues(ctx, status.path, status.values.keys()))
    : undefined;
  const moved = status && lifecycle ? lifecycleChange(ctx, lifecycle, status.path) : undefined;
  Object.assign(set, moved?.set ?? {});
  Object.assign(set, statedArguments(ctx, collection, set, new Set([subject.param.name])));
  Object.assign(set, nowFields(ctx, collection, set));
  const said = status && set[status.path] === undefined ? statedStatus(ctx.facts.text) : undefined;
  if (status && said && knownValues(ctx, status.path, status.values.keys()).includes(said))
    set[status.path] = said;
  const listed = statedListChanges(ctx, collection);
  Object.assign(set, listed.set);
  if (Object.keys(set).length === 0 && Object.keys(listed.append).length === 0) return undefined;
  const missing = notFoundError(ctx, collection, subject.param.name, { add: true });
  ctx.notes.push(
    `changes ${[...Object.keys(set), ...Object.keys(listed.append)].join(", ")} as the description says`,
  );
  addGap(
    ctx,
    `its verb (${ctx.facts.verb ?? ctx.facts.words[0]}) says nothing toolsim knows: only the changes its description states are made`,
  );
  return [
    {
      kind: "update",
      target,
      ...(missing ? { missing } : {}),
      require: [
        ...(moved?.require ?? []),
        ...statusGuards(ctx, collection, settled(set[status?.path ?? ""])),
      ],
      set,
      ...(Object.keys(listed.append).length > 0 ? { append: listed.append } : {}),
      as: bindingName(collection),
      output: "",
    },
  ];
}

/** The status a change sets, when it is one value rather than an argument's (`{decision}`). */
function settled(value: unknown): string | undefined {
  return typeof value === "string" && !/^\{[^{}]+\}$/.test(value) ? value : undefined;
}

/**
 * "`login` is appended to the end of the team's `members` list", "`tag` is removed from
 * the photo's `tags`": an argument a description adds to or takes from a list of the record.
 */
function statedListChanges(
  ctx: Context,
  collection: CollectionShape,
): { set: Record<string, unknown>; append: Record<string, string> } {
  const set: Record<string, unknown> = {};
  const append: Record<string, string> = {};
  const text = ctx.facts.text.replace(/`/g, "");
  const pattern =
    /\b([a-z_][a-z0-9_]*) is (appended|added|removed|deleted|taken) (?:to|from|onto|into) (?:the end of )?(?:the |its )?(?:[a-z_]+'s )?([a-z_][a-z0-9_]*)/gi;
  for (const match of text.matchAll(pattern)) {
    const param = ctx.facts.params.find((p) => p.name === match[1]);
    const field = collection.fields.get(match[3] as string);
    if (!param || !field?.types.has("array") || field.path.includes(".")) continue;
    if (/appended|added/i.test(match[2] as string)) append[field.path] = `{${param.name}}`;
    else
      set[field.path] = {
        $expr: `[$subject.${identifier(field.path)}[$ != $args.${identifier(param.name)}]]`,
      };
  }
  return { set, append };
}

/** A read of the record an argument names that answers its not-found error when it is missing. */
function foundFirst(ctx: Context, subject: Reference, already: readonly Draft[] = []): Draft[] {
  const target = referenceTarget(ctx, subject);
  // a rule that reads the record itself has checked it
  if (!target || already.some((d) => d.kind === "read" && d.target === target)) return [];
  const missing = notFoundError(ctx, subject.collection, subject.param.name, { add: true });
  if (!missing) return [];
  ctx.notes.push(`checks the ${humanNoun(subject.collection.name)} ${subject.param.name} names exists`);
  return [{ kind: "read", target, missing }];
}

function collectionRule(ctx: Context, subject: Reference, action: Exclude<Action, "create">): Draft[] {
  if (action === "read") return readRule(ctx, subject);
  return action === "update" ? updateRule(ctx, subject) : deleteRule(ctx, subject);
}

/** Verbs that take something that exists (a car rented, a room booked) and the noun of what they make. */
const ACQUIRING: Readonly<Record<string, string>> = {
  rent: "rental",
  hire: "hire",
  lease: "lease",
  book: "booking",
  reserve: "reservation",
  buy: "purchase",
  purchase: "purchase",
};

/** A tool named after a collection, with no argument that names one of its records. */
function namedCollectionRule(ctx: Context, named: CollectionShape, action: Action): Outcome {
  // `rent_car(car_id)` takes a car that exists: it makes a rental, not a car
  const made = ACQUIRING[ctx.facts.verb ?? ""];
  if (action === "create" && made && ctx.references.some((r) => !r.many && r.collection === named)) {
    const unkept = takenByFlag(ctx, named) ?? unkeptCreate(ctx, made);
    return unkept
      ? { drafts: unkept }
      : { reason: `takes a ${singular(named.name)}, but where its ${made} is kept is not inferred` };
  }
  if (action === "create") {
    const noun = createdNoun(ctx.facts, named);
    if (!noun) return { reason: "creates something, but its name names nothing" };
    return found(createRule(ctx, named, noun), "nothing to create");
  }
  if (action !== "read") return { reason: `changes ${named.name}, but no argument names which record` };
  const lookup = lookupRule(ctx, named) ?? keyListRule(ctx, named);
  if (lookup) return { drafts: lookup };
  return { reason: `no argument matches a field of ${named.name}` };
}

function found(drafts: Draft[], reason: string): Outcome {
  return drafts.length > 0 ? { drafts } : { reason };
}

/**
 * The record a read, update or delete acts on: named by a required argument, preferably of
 * the collection the name names, unless that one lives inside records no argument names
 * (`change_booking_wallet(booking_id, wallet_id)` changes the booking). A tool named after
 * a map of records whose one required argument is no field of them takes it as the key
 * (`get_fund(ticker)`, as `GET /funds/{ticker}`).
 */
function subjectOf(ctx: Context, named: CollectionShape | undefined): Reference | undefined {
  const single = ctx.references.filter((r) => !r.many);
  const reachable = (r: Reference) =>
    !r.collection.parent ||
    single.some((o) => o.collection.name === r.collection.parent && !o.collection.parent) ||
    // a record kept deeper, named by its own key, is found wherever it is (`targets.ts`)
    (r.strength === "strong" && r.collection.keyField !== undefined);
  const ranked = [
    ...(ctx.facts.verbAction !== undefined && ctx.facts.verbAction !== "read"
      ? linkHolder(single, named)
      : []),
    ...single.filter((r) => r.collection === named && r.param.required && reachable(r)),
    ...single.filter((r) => r.collection === named && reachable(r)),
    ...single.filter((r) => !r.collection.parent && r.param.required && r.strength === "strong"),
    ...single.filter((r) => r.collection.parent && r.param.required && reachable(r)),
    // an optional key is the subject where it is the only one (`get_visit_summary(appointment_id?)`)
    ...(single.length === 1 ? single.filter((r) => !r.collection.parent && r.strength === "strong") : []),
    // a switch named for a flag of the records one argument names (`start_sprinkler(bed)`)
    ...(single.length === 1 ? single.filter((r) => recordFlagSwitched(ctx, r.collection) !== undefined) : []),
  ];
  // `withdraw_solvent(code, amount)`, `add_to_shelf(handle, title)`: a name that names nothing
  // but the record's own fields changes the one record a required argument names
  return ranked[0] ?? keyByPosition(ctx, named) ?? (named ? undefined : onlyRecordNamed(ctx, single));
}

function onlyRecordNamed(ctx: Context, single: readonly Reference[]): Reference | undefined {
  const required = single.filter((r) => r.param.required && !r.collection.parent);
  const only = required[0];
  if (required.length !== 1 || !only) return undefined;
  const ownFields = [...only.collection.fields.keys()].map((f) => singular(f));
  return ctx.facts.nouns.every((noun) => ownFields.includes(singular(noun))) ? only : undefined;
}

/**
 * A record kept by name inside the subject (a flag's settings per environment), named by
 * another argument, is what the call acts on when the arguments it sets are fields of that
 * entry and not of its holder, or the tool's name names it (`toggle_flag(flag_key,
 * environment, on)`): LaunchDarkly's flag settings per environment, GitHub's protection per
 * branch of a repository, Cloudflare's settings per zone.
 */
function entryWithin(ctx: Context, subject: Reference | undefined): Reference | undefined {
  if (!subject) return subject;
  const entry = ctx.references.find(
    (r) => r !== subject && !r.many && r.param.required && r.collection.parent === subject.collection.name,
  );
  if (!entry) return subject;
  const given = ctx.facts.params.filter((p) => !ctx.references.some((r) => r.param === p));
  const setsEntry = given.some(
    (p) => entry.collection.fields.has(p.name) && !subject.collection.fields.has(p.name),
  );
  const namesEntry = ctx.facts.nouns.some((n) => sameNoun(n, entry.collection.name));
  return setsEntry || namesEntry ? entry : subject;
}

/** The argument naming the record a nested subject is kept in (`switch_id` of a switch's port). */
function holderReference(ctx: Context, subject: Reference): Reference | undefined {
  const parent = subject.collection.parent;
  return parent === undefined
    ? undefined
    : ctx.references.find(
        (r) => !r.many && r.param.required && r.collection.name === parent && !r.collection.parent,
      );
}

/**
 * Where a change's name names only what another record is moved to or given
 * (`change_plan(subscription_id, plan_id)`, `grant_role(user_id, role)`), that other record is
 * the subject: it keeps the link to it (`plan_id`) or a list of them (`roles`). Stripe's
 * `POST /subscriptions/{id}` with a new price, Auth0's `POST /users/{id}/roles`, GitHub's
 * `PUT /repos/{o}/{r}/collaborators/{user}` with a permission.
 */
function linkHolder(single: readonly Reference[], named: CollectionShape | undefined): Reference[] {
  if (!named) return [];
  const given = single.find((r) => r.collection === named && r.param.required);
  if (!given) return [];
  return single.filter(
    (r) =>
      r !== given &&
      r.param.required &&
      !r.collection.parent &&
      r.collection !== named &&
      [...r.collection.fields.values()].some(
        (f) =>
          !f.path.includes(".") &&
          (f.refersTo === named.name ||
            (f.types.has("array") && sameNoun(f.path, named.name)) ||
            // a cart's `coupon`, null until one is applied, names a coupon by its noun
            (f.refersTo === undefined && f.types.has("null") && sameNoun(f.path, named.name))),
      ),
  );
}

/**
 * "The shipment takes the event's status": a record that gains an item takes the field of the
 * item the description names, from the argument of that name. A parcel carrier's tracking
 * events set the shipment's status, a ticket's latest comment its `updated_at`, a pull request's
 * review its `review_decision`.
 */
function holderTakes(ctx: Context, subject: Reference): Draft[] {
  const noun = nameWords(singular(subject.collection.name)).join(" ");
  const said = new RegExp(`\\bthe ${noun} takes (?:on )?the [a-z ]+?(?:'s|’s) ([a-z ]+?)(?:[.,;]|$)`).exec(
    ctx.facts.text.toLowerCase(),
  );
  const field = said
    ? [...subject.collection.fields.values()].find((f) => nameWords(f.path).join(" ") === said[1])
    : undefined;
  const param = field ? ctx.facts.params.find((p) => p.name === field.path) : undefined;
  const target = param ? referenceTarget(ctx, subject) : undefined;
  if (!field || !param || !target) return [];
  ctx.notes.push(`sets the ${noun}'s ${field.path} from ${param.name}`);
  return [{ kind: "update", target, set: { [field.path]: `{${param.name}}` }, output: "" }];
}

/** Last words of arguments that name a thing rather than describe it: a key when nothing else is. */
const KEY_WORDS = /^(symbol|ticker|name|username|handle|code|slug|key|id|title|path|email|login|sku|isbn)$/;

function keyByPosition(ctx: Context, named: CollectionShape | undefined): Reference | undefined {
  if (!named || named.parent || named.container !== "map") return undefined;
  const required = ctx.facts.params.filter((p) => p.required);
  // `add_team_member(slug, username)`: the first argument names the record whose part
  // (its `members`, its `repos`) the rest of the tool's name names
  if (required.length !== 1 && !namesPartOf(ctx.facts, named)) return undefined;
  const param = required[0] as Reference["param"];
  if (param.type !== "string" && param.type !== "integer") return undefined;
  if (!KEY_WORDS.test(param.words.at(-1) ?? "")) return undefined;
  if (named.fields.has(param.name) || ctx.references.some((r) => r.param === param)) return undefined;
  // records that keep a list of them (`emails`) are found by what the list holds, not by key
  const listed = [...named.fields.values()].some(
    (f) => !f.path.includes(".") && f.types.has("array") && sameNoun(f.path, param.name),
  );
  if (listed) return undefined;
  ctx.notes.push(
    `${param.name} is the key of ${named.name} (the ${required.length === 1 ? "one" : "first"} argument of a tool named after it)`,
  );
  return { param, collection: named, many: false, strength: "weak" };
}

/** A noun of the tool's name, past the collection's, that names a list or map its records keep. */
function namesPartOf(facts: ToolFacts, named: CollectionShape): boolean {
  const own = new Set(nameWords(singular(named.name)));
  // the part comes last (`team_member`): a name ending with the record's own noun
  // (`create_project_folder`) makes or acts on that record, not its part
  const lastNoun = facts.nouns.at(-1) ?? "";
  if (own.has(lastNoun) || own.has(singular(lastNoun))) return false;
  const rest = facts.nouns.filter((n) => !own.has(n) && !own.has(singular(n)));
  const last = rest.at(-1);
  if (!last) return false;
  return [...named.fields.values()].some(
    (f) => !f.path.includes(".") && (f.types.has("array") || f.types.has("object")) && sameNoun(f.path, last),
  );
}

/** What the tool does: its read-only hint first, then its verb; an unknown verb stays unknown. */
/** Verbs that write a thing anew or over what is there, as the docs say. */
const WRITES_ANEW = new Set(["write", "put", "save", "store"]);

function actionFor(facts: ToolFacts, subject: Reference | undefined): Action | "unknown" {
  if (facts.readOnly === true) return "read";
  const verb = facts.verbAction;
  // `write_note`: "Write a new note" makes one where no argument names one to rewrite
  // and "save … as a new scene" makes the scene its name names, refusing a taken name
  if (
    verb === "update" &&
    WRITES_ANEW.has(facts.verb ?? "") &&
    (subject
      ? new RegExp(`\\bnew\\s+${nameWords(singular(subject.collection.name)).join("[ _]")}\\b`, "i")
      : /\bnew\b/i
    ).test(facts.tool.description)
  )
    return "create";
  if ((verb === "update" || verb === undefined) && deletesOutright(facts, subject)) return "delete";
  if (verb && !(verb === "read" && facts.readOnly === false)) return verb;
  if (facts.destructive === true) return "delete";
  if (facts.readOnly === false) return subject ? "update" : "create";
  // a name without a verb that ends with what is read (`channel_history`, `user_info`,
  // `account_balance`) is a query, as Slack's `conversations.history` and `users.info` are
  if (!facts.verb && facts.words.length > 1 && READ_NOUNS.has(facts.words.at(-1) as string)) return "read";
  return "unknown";
}

/**
 * "Puts a customer at the back of `line`", "appends the entry to `log`": a create whose name
 * names no collection puts its record where its description says, when it names one
 * top-level list or map so, as API references say where a POST files what it makes (GitHub's
 * "adds a comment to the issue's `comments`", a job queue's "pushed onto `jobs`").
 */
function describedPlace(ctx: Context): CollectionShape | undefined {
  const text = ctx.facts.tool.description;
  const placing =
    /\b(?:to|into|onto|at the (?:back|end|tail|bottom) of)\s+(?:the\s+)?`([A-Za-z_][A-Za-z0-9_]*)`/g;
  const places = new Set<CollectionShape>();
  for (const match of text.matchAll(placing)) {
    const collection = ctx.shape.collections.get(match[1] as string);
    if (collection && collection.path.length === 1 && !collection.pairs) places.add(collection);
  }
  return places.size === 1 ? [...places][0] : undefined;
}

/**
 * "Withdrawal deletes the record outright", "the booking is removed from bookings": a verb
 * that ends a record's life (`withdraw`, `retire`, `archive` where the docs say so) deletes it
 * when its description says the record goes, as DELETE endpoints behind domain verbs do
 * (GitHub's "withdraw" of an invitation, Stripe's deleted draft invoices, npm's `unpublish`).
 */
function deletesOutright(facts: ToolFacts, subject: Reference | undefined): boolean {
  if (!subject || subject.collection.parent) return false;
  const text = facts.tool.description.replace(/[`*]/g, "").toLowerCase();
  if (!/\b(?:delet|remov|eras|purg)/.test(text)) return false;
  const noun = escapeRegExp(nameWords(singular(subject.collection.name)).at(-1) ?? "");
  const name = escapeRegExp(subject.collection.name.toLowerCase());
  // "removes a ticket from line": any noun for one of its records, but not a part of them ("a tag")
  const parts = [...subject.collection.fields.keys()]
    .flatMap((name) => [name, singular(name)])
    .map((name) => escapeRegExp(name.toLowerCase()));
  const member = String.raw`(?!(?:${parts.join("|") || "$^"})\b)[a-z]{3,}`;
  const object = String.raw`(?:(?:the|this|that|its|a|an)\s+)?(?:record|entry|row|${noun}|${member})`;
  // "from the shift's volunteers" takes from a list the record keeps: only the record's own collection counts
  const whence = String.raw`(?:outright|permanently|entirely|for good|from\s+(?:the\s+)?(?:${name}|${noun}s)\b(?!['’]))`;
  return (
    new RegExp(
      String.raw`\b(?:deletes?|deleting|removes?|removing|erases?|purges?)\s+${object}\b(?:\s+\w+)?\s+${whence}`,
    ).test(text) ||
    new RegExp(String.raw`\b(?:is|are|gets?)\s+(?:deleted|removed|erased|purged)\s+${whence}`).test(text)
  );
}

/**
 * Verbs that give back what a record holds: Koha's check-in of a loaned item ends its
 * checkout and puts the copy back, a car hire's return ends the rental, a bike dock ends a ride.
 */
const RETURN_VERBS: ReadonlySet<string> = new Set(["return", "checkin", "giveback"]);

/**
 * What adds to a stored number and what takes from it: money's verbs, and a count of units
 * received or picked, moved only where the record keeps a number named as the amount is
 * (`quantity`), so that a shipped order or a sold share is left to its own rules.
 */
const STOCK_MOVES = {
  increase: new Set([...INCREASE_VERBS, ...[...GOODS_IN_VERBS].filter((v) => v !== "stock")]),
  decrease: new Set([...DECREASE_VERBS, "pick", "dispatch"]),
};

/**
 * A verb toolsim does not know, whose answer is the key of a new record of another kind, given
 * its fields: it makes that record (`check_out_book(isbn, member_id, due_date)` → `loan_id`
 * files a loan of the book). GitHub's fork answers the new repository, Docker's `commit` the new
 * image's `Id`, and Koha's checkout of a library item the new checkout's `checkout_id`.
 */
function madeByAnswer(ctx: Context, subject: Reference | undefined): CollectionShape | undefined {
  if (ctx.facts.readOnly === true) return undefined;
  const made = [...ctx.shape.collections.values()].filter((c) => {
    if (c.parent || c === subject?.collection) return false;
    const key = c.keyField ?? `${nameWords(singular(c.name)).join("_")}_id`;
    const answers = ctx.facts.outputs.some((o) => o.name === key);
    return answers && ctx.facts.params.some((p) => fieldFor(p, c) !== undefined && p.name !== key);
  });
  return made.length === 1 ? made[0] : undefined;
}

/**
 * A verb that makes things, given the key of a record that exists and values of its own plain
 * fields (`record_grade(enrollment_id, grade)` over enrollments whose `grade` is null), fills
 * those fields: nothing else names what it would make. Canvas records a submission's grade
 * on the submission, Jira logs a resolution on the issue, a CRM records a call's outcome on it.
 */
function fillsItsFields(ctx: Context, subject: Reference | undefined): boolean {
  if (!subject || ctx.facts.verbAction !== "create" || subject.strength !== "strong") return false;
  if (ctx.references.some((r) => r !== subject)) return false;
  const rest = ctx.facts.params.filter((p) => p.required && p !== subject.param);
  // the name names the field it fills (`grade`), not the kind of record (`create_item(sku, name)` makes one)
  const nouns = ctx.facts.nouns;
  if (nouns.some((n) => sameNoun(n, subject.collection.name))) return false;
  if (!nouns.some((n) => rest.some((p) => sameNoun(n, p.name)))) return false;
  return (
    rest.length > 0 &&
    rest.every((p) => {
      const field = subject.collection.fields.get(p.name);
      return field !== undefined && !field.types.has("array") && !field.types.has("object");
    })
  );
}

/**
 * A verb toolsim has no status for, whose participle is a status the records show
 * (`check_in` → `checked_in`, `confirm` → `confirmed`): it puts the record into that status.
 */
function statusOfVerb(ctx: Context, subject: Reference | undefined): boolean {
  return (
    subject !== undefined &&
    ctx.facts.verbAction === undefined &&
    (participleStatus(ctx, subject.collection) !== undefined ||
      valueNamedByVerb(ctx, subject.collection) !== undefined ||
      marksAStatus(ctx, subject.collection))
  );
}

/** A verb toolsim does not know whose description leaves the record without a field. */
function leavesWithout(ctx: Context, subject: Reference | undefined): boolean {
  return (
    subject !== undefined &&
    ctx.facts.verbAction === undefined &&
    Object.keys(emptiedFields({ ...ctx, notes: [] }, subject.collection, {})).length > 0
  );
}

/** A verb toolsim does not know whose description says which count of the record it moves. */
function countsItMoves(
  ctx: Context,
  subject: Reference | undefined,
  named: CollectionShape | undefined,
): boolean {
  // "log one send of a route: increments its ascents": a making verb whose thing is kept
  // nowhere but in the count is told by the count it moves
  const makesNothingKept = ctx.facts.verbAction === "create" && named === undefined;
  return (
    subject !== undefined &&
    (ctx.facts.verbAction === undefined || makesNothingKept) &&
    Object.keys(statedCounts({ ...ctx, notes: [] }, subject.collection)).length > 0
  );
}

/** "Mark a firing batch done": the description marks the record with a status it can have. */
function marksAStatus(ctx: Context, collection: CollectionShape): boolean {
  const field = statusField(collection);
  return (
    field !== undefined &&
    markedStatus(ctx.facts.text, knownValues(ctx, field.path, field.values.keys())) !== undefined
  );
}

/**
 * A verb that makes something and puts a thing into a status (`submit`), given only the key of
 * a record of the kind it names (`submit_form(form_id)`), puts that record into its status: an
 * id is minted by the API, not chosen by the caller of a create. Concur's
 * `POST /expense/reports/{id}/submit`, GitHub's review `.../reviews/{id}/events` (SUBMIT) and
 * Jotform's submissions of a form by its id act on what exists.
 */
function submitsItsOwn(
  ctx: Context,
  subject: Reference | undefined,
  named: CollectionShape | undefined,
): boolean {
  const { facts } = ctx;
  if (facts.verbAction !== "create" || !subject) return false;
  // a status the verb names, or one its participle spells among those the records show (`send` → `sent`)
  if (!STATUS_VERBS[facts.verb ?? ""] && !participleStatus(ctx, subject.collection, true)) return false;
  if (subject.collection !== named || subject.strength !== "strong") return false;
  if (!subject.param.identifier || !subject.param.required) return false;
  return facts.params.every((p) => p === subject.param || !p.required);
}

/** What a create makes: the collection its name names, else the noun after its verb (`schedule_meeting` → meeting). */
function createdNoun(facts: ToolFacts, named: CollectionShape | undefined): string | undefined {
  if (named) return nameWords(singular(named.name)).join("_");
  const words = facts.nouns;
  const noun = words.slice(0, 2).join("_");
  return noun ? singular(noun) : undefined;
}

/** Records of collections an effect answers the key of keep it as a field (as the format's convention has it). */
function withKeyFields(toolset: Toolset, keyFields: ReadonlyMap<string, string>): Toolset {
  if (keyFields.size === 0) return toolset;
  const fill = (state: StateDocument): StateDocument => {
    let out = state;
    for (const [path, field] of keyFields) out = fillKeys(out, path.split("/"), field) as StateDocument;
    return out;
  };
  return {
    ...toolset,
    state: fill(toolset.state),
    tasks: toolset.tasks.map((task) => ({ ...task, state: fill(task.state) })),
  };
}

/** A copy of the value with every record of the map at `path` holding its key in `field`. */
function fillKeys(value: unknown, path: readonly string[], field: string): unknown {
  if (!isPlainObject(value)) return value;
  const [head, ...rest] = path;
  if (head === undefined) {
    const filled: Record<string, unknown> = {};
    for (const [key, entity] of Object.entries(value))
      filled[key] =
        isPlainObject(entity) && entity[field] === undefined ? { [field]: key, ...entity } : entity;
    return filled;
  }
  // records kept inside every record of a collection (`rooms/*/devices`)
  if (head === "*")
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, fillKeys(inner, rest, field)]),
    );
  if (!(head in value)) return value;
  return { ...value, [head]: fillKeys(value[head], rest, field) };
}

export type { StateShape };
