import type { Tool } from "../catalog/index.js";
import { type Patch, parsePointer, toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";
import { referencedEntities, verbActionOf } from "./infer.js";
import type { SimulationRequest } from "./types.js";

/**
 * What a model's state patch may change for one call, whatever the model was told or
 * talked into: nothing for a read-only tool; otherwise only the entities the call concerns
 * (those its arguments name, those its declared effects target) and new entities it adds;
 * never a whole collection or the whole document. A breach is not a format slip to repair:
 * the engine answers the call offline instead and says why.
 */
export interface PatchContract {
  /** Why the tool may change nothing (absent: it may write). */
  readOnly?: string;
  /** Pointers of entities (`/collection/key`) the call may change. */
  concerned: ReadonlySet<string>;
}

export function contractOf(request: Pick<SimulationRequest, "tool" | "args" | "state">): PatchContract {
  return {
    readOnly: readOnlyReason(request.tool),
    concerned: concernedEntities(request.tool, request.args, request.state),
  };
}

/** The breaches of a patch that applies to the state, in words for the fallback reason. */
export function contractBreaches(patch: Patch, request: SimulationRequest): string[] {
  const changes = patch.filter((operation) => operation.op !== "test");
  const contract = contractOf(request);
  if (changes.length === 0) return [];
  if (contract.readOnly) {
    return [
      `${request.tool.name} is read-only (${contract.readOnly}), so its patch must be empty; it had ${changes.length} change(s), e.g. ${describe(changes[0] as Patch[number])}`,
    ];
  }
  const breaches: string[] = [];
  const added = new Set<string>();
  for (const operation of changes) {
    // a move or a copy adds at its path, as an add does; a move also removes at its from
    const replaces = operation.op === "remove" || operation.op === "replace";
    const targets: Array<[pointer: string, removes: boolean]> = [[operation.path, replaces]];
    if (operation.op === "move") targets.push([operation.from, true]);
    for (const [pointer, removes] of targets) {
      const breach = breachOf(pointer, removes, operation.op, request.state, contract, added);
      if (breach) breaches.push(`${describe(operation)} ${breach}`);
    }
  }
  return breaches;
}

function breachOf(
  pointer: string,
  removes: boolean,
  op: string,
  state: State,
  contract: PatchContract,
  added: Set<string>,
): string | undefined {
  const [collection, key] = parsePointer(pointer);
  if (collection === undefined) return "replaces the whole state";
  if (key === undefined) {
    if (removes || state.has(collection)) return `removes or replaces the whole collection "${collection}"`;
    added.add(toPointer([collection]));
    return undefined;
  }
  const entity = toPointer([collection, key]);
  if (contract.concerned.has(entity) || added.has(entity) || added.has(toPointer([collection]))) return;
  const isNew = !state.has(collection) || !hasEntity(state, collection, key);
  if (op === "add" && isNew && parsePointer(pointer).length === 2) {
    added.add(entity);
    return undefined;
  }
  return `changes ${entity}, which this call does not concern (its arguments do not name it and no declared effect targets it)`;
}

/** Read-only by annotation, or by the verb its name starts with unless an annotation says it writes. */
function readOnlyReason(tool: Tool): string | undefined {
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) return "readOnlyHint";
  if (hints?.readOnlyHint === false || hints?.destructiveHint === true) return undefined;
  if (tool.effects.some((effect) => effect.kind !== "read" && effect.kind !== "list")) return undefined;
  return verbActionOf(tool.name) === "read" ? `its name starts with a read verb` : undefined;
}

/**
 * Entities the arguments name (by key anywhere in the state, or by an id field, as the
 * offline engine resolves them) and the entities the declared effects target.
 */
function concernedEntities(tool: Tool, args: Record<string, unknown>, state: State): Set<string> {
  const concerned = new Set<string>();
  for (const ref of referencedEntities(args, state)) concerned.add(toPointer([ref.collection, ref.key]));
  const named = scalarsOf(args);
  for (const collection of state.keys()) {
    if (collection === "runtime") continue;
    for (const value of named)
      if (hasEntity(state, collection, value)) concerned.add(toPointer([collection, value]));
  }
  for (const effect of tool.effects) {
    const target = "target" in effect ? effectTarget(effect.target, args) : undefined;
    if (target) concerned.add(toPointer(target));
  }
  return concerned;
}

/** `collection/{argument}` or `collection/literal`, with the argument's value; bindings are the engine's to resolve. */
function effectTarget(target: string, args: Record<string, unknown>): [string, string] | undefined {
  const match = /^([^/]+)\/(?:\{([^}$][^}]*)\}|([^{}]+))$/.exec(target);
  if (!match) return undefined;
  const [, collection, argument, literal] = match;
  if (!collection) return undefined;
  if (literal) return [collection, literal];
  const value = argument === undefined ? undefined : args[argument];
  return typeof value === "string" || typeof value === "number" ? [collection, String(value)] : undefined;
}

/** Every string and number inside the arguments (ids may sit in lists and nested objects). */
function scalarsOf(args: Record<string, unknown>, limit = 1_000): Set<string> {
  const found = new Set<string>();
  const pending: unknown[] = [args];
  while (pending.length > 0 && found.size < limit) {
    const value = pending.pop();
    if (typeof value === "string" || typeof value === "number") found.add(String(value));
    else if (value !== null && typeof value === "object") pending.push(...Object.values(value));
  }
  return found;
}

/** Whether a top-level collection (or a top-level array) holds the key. */
function hasEntity(state: State, collection: string, key: string): boolean {
  const entities = state.collection(collection);
  if (entities) return entities.has(key);
  const value = state.get([collection]);
  return Array.isArray(value) && /^(0|[1-9][0-9]*)$/.test(key) && Number(key) < value.length;
}

function describe(operation: Patch[number]): string {
  return "from" in operation
    ? `${operation.op} ${operation.from} → ${operation.path}`
    : `${operation.op} ${operation.path}`;
}
