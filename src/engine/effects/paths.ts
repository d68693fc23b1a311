import { ABSENT } from "../../catalog/index.js";
import { isPlainObject } from "../../patch/index.js";
import { looselyEqual, type State } from "../../state/index.js";
import { isIndex, valueAt } from "../state-access.js";
import type { Run } from "./run.js";
import { renderTemplate } from "./templates.js";

/**
 * Where effects act: a target's segments rendered from the call (templates filled, array
 * elements selected by a field), and the plain-JSON steps inside a value (dotted paths).
 */

/**
 * A step of a target: a key (or array index), the array element whose field equals a value, or
 * the node at any depth below (through `children`) whose field equals a value.
 */
export type Step = string | { field: string; equals: unknown; below?: string };

const segmentsOf = new Map<string, string[]>();

export function targetSegments(target: string): string[] {
  let segments = segmentsOf.get(target);
  if (!segments) {
    segments = target === "." ? [] : target.split("/");
    segmentsOf.set(target, segments);
  }
  return segments;
}

export function isTemplate(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}");
}

const SELECTOR = /^\[([A-Za-z_][A-Za-z0-9_.]*)=(.+)\]$/;
const WALK = /^\*([A-Za-z_][A-Za-z0-9_]*)(?:\.([A-Za-z_][A-Za-z0-9_]*))?=(\{[^{}/]+\})$/;
const SEARCH = /^\*\*([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)=(\{[^{}/]+\})$/;

/**
 * A segment of a target as it renders: a key as written, a template, an element picked by a
 * field, or a walk down a tree of records by a slash path (each name a child under `children`,
 * kept by name in a map, or in an array told apart by the field `name`).
 */
type SegmentPlan =
  | { kind: "key"; key: string }
  | { kind: "template"; template: string }
  | { kind: "select"; field: string; equals: string; template: boolean }
  | { kind: "walk"; children: string; name?: string; template: string }
  | { kind: "search"; children: string; field: string; template: string };

const plans = new Map<string, SegmentPlan[]>();

/** How each segment of a target renders, worked out once per target: targets come from the catalog. */
function planOf(target: string): SegmentPlan[] {
  let plan = plans.get(target);
  if (!plan) {
    plan = targetSegments(target).map(segmentPlan);
    plans.set(target, plan);
  }
  return plan;
}

function segmentPlan(segment: string): SegmentPlan {
  const search = SEARCH.exec(segment);
  if (search) {
    const [, children = "", field = "", template = ""] = search;
    return { kind: "search", children, field, template };
  }
  const walk = WALK.exec(segment);
  if (walk) {
    const [, children = "", name, template = ""] = walk;
    return { kind: "walk", children, template, ...(name ? { name } : {}) };
  }
  const selector = SELECTOR.exec(segment);
  if (selector) {
    const [, field = "", raw = ""] = selector;
    return { kind: "select", field, equals: raw, template: isTemplate(raw) };
  }
  return isTemplate(segment) ? { kind: "template", template: segment } : { kind: "key", key: segment };
}

/** A target every segment of which is written out (`settings/display`): a fixed part of the world, named by no argument. */
export function isFixedTarget(target: string): boolean {
  return planOf(target).every((segment) => segment.kind === "key");
}

/** The target's steps with templates filled; undefined when one renders to nothing (an absent argument). */
export function targetSteps(run: Run, target: string): Step[] | undefined {
  const steps: Step[] = [];
  for (const segment of planOf(target)) {
    if (segment.kind === "key") {
      steps.push(segment.key);
      continue;
    }
    if (segment.kind === "select") {
      const { field, equals: raw } = segment;
      const equals = segment.template ? renderTemplate(raw, run.scope) : raw;
      if (equals === ABSENT || equals === null || equals === "") return undefined;
      steps.push({ field, equals });
      continue;
    }
    if (segment.kind === "search") {
      const equals = renderTemplate(segment.template, run.scope);
      if (equals === ABSENT || equals === null || equals === "") return undefined;
      steps.push({ field: segment.field, equals, below: segment.children });
      continue;
    }
    if (segment.kind === "walk") {
      const walked = walkSteps(segment, renderTemplate(segment.template, run.scope));
      if (!walked) return undefined;
      steps.push(...walked);
      continue;
    }
    const value = renderTemplate(segment.template, run.scope);
    if (value === ABSENT || value === null || value === "") return undefined;
    steps.push(typeof value === "string" ? value : JSON.stringify(value));
  }
  return steps;
}

/**
 * The steps a slash path takes down a tree: none for the root ("" or "/"), and per name the
 * children field, then the child. Slashes at either end are ignored, as URL paths and
 * content trees read them.
 */
function walkSteps(walk: Extract<SegmentPlan, { kind: "walk" }>, path: unknown): Step[] | undefined {
  if (path === ABSENT || path === null || typeof path !== "string") return undefined;
  const steps: Step[] = [];
  for (const name of path.split("/")) {
    if (name === "") continue;
    steps.push(walk.children, walk.name ? { field: walk.name, equals: name } : name);
  }
  return steps;
}

/** The steps as keys and indexes of the state: a selector becomes the index of the element it picks. */
export function concretePath(state: State, steps: readonly Step[]): string[] | undefined {
  const path: string[] = [];
  for (const step of steps) {
    if (typeof step === "string") {
      path.push(step);
      continue;
    }
    const container = valueAt(state, path);
    if (step.below !== undefined) {
      const found = nodeBelow(container, step.below, step.field, step.equals);
      if (!found) return undefined;
      path.push(...found);
      continue;
    }
    if (!Array.isArray(container)) return undefined;
    const index = container.findIndex((element) => looselyEqual(dig(element, step.field), step.equals));
    if (index < 0) return undefined;
    path.push(String(index));
  }
  return path;
}

/** Nodes a search looks at, at most: a tree in a session's state is bounded, a loop in it is not. */
const SEARCH_LIMIT = 10_000;

/**
 * The steps from a node down to the first node (itself included, depth first) whose field
 * equals the value, through children kept in arrays or in maps.
 */
function nodeBelow(node: unknown, children: string, field: string, equals: unknown): string[] | undefined {
  const stack: Array<{ node: unknown; steps: string[] }> = [{ node, steps: [] }];
  for (let seen = 0; stack.length > 0 && seen < SEARCH_LIMIT; seen++) {
    const { node: at, steps } = stack.pop() as { node: unknown; steps: string[] };
    if (!isPlainObject(at)) continue;
    if (looselyEqual(at[field], equals)) return steps;
    const kids = at[children];
    const entries: Array<[string, unknown]> = Array.isArray(kids)
      ? kids.map((kid, i) => [String(i), kid])
      : isPlainObject(kids)
        ? Object.entries(kids)
        : [];
    // pushed last first, so the first child is looked at next
    for (const [key, kid] of entries.reverse()) stack.push({ node: kid, steps: [...steps, children, key] });
  }
  return undefined;
}

/** The target's concrete path in the current state; undefined when an argument is absent or a selector finds nothing. */
export function targetPath(run: Run, target: string): string[] | undefined {
  const steps = targetSteps(run, target);
  return steps ? concretePath(run.state, steps) : undefined;
}

/** Puts a value into the result: "" merges an object's fields, "a.b" nests it. */
export function place(output: Record<string, unknown>, path: string, value: unknown): void {
  if (path === "" || path === ".") {
    if (isPlainObject(value)) Object.assign(output, value);
    return;
  }
  const keys = path.split(".");
  let cursor = output;
  for (const key of keys.slice(0, -1)) {
    if (!isPlainObject(cursor[key])) cursor[key] = {};
    cursor = cursor[key] as Record<string, unknown>;
  }
  cursor[keys[keys.length - 1] as string] = value;
}

/** A copy of `value` with the dotted path set; array elements by index, missing objects created. */
export function assign(value: unknown, path: string, newValue: unknown): unknown {
  const [head = "", ...rest] = path.split(".");
  const inner = (current: unknown) =>
    rest.length === 0 ? newValue : assign(current, rest.join("."), newValue);
  if (Array.isArray(value) && isIndex(head)) {
    const copy = [...value];
    copy[Number(head)] = inner(value[Number(head)]);
    return copy;
  }
  const entity = isPlainObject(value) ? value : {};
  return { ...entity, [head]: inner(entity[head]) };
}

/** The value at a dotted path: object fields and array indexes. */
export function dig(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(".")) {
    if (Array.isArray(current)) {
      if (!isIndex(key)) return undefined;
      current = current[Number(key)];
    } else if (isPlainObject(current)) current = current[key];
    else return undefined;
  }
  return current;
}

export function toNumber(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)))
    return Number(value);
  return undefined;
}

/** Keeps sums of money free of binary noise (0.1 + 0.2). */
export function roundMoney(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
