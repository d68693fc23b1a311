import { createRequire } from "node:module";
import { compileExpression } from "./compile.js";
import { JSONATA_FUNCTIONS, TOOLSIM_FUNCTIONS, UNAVAILABLE_FUNCTIONS } from "./functions.js";

/** What is defined where an expression stands (for the static check). */
export interface ExpressionContext {
  /** Variables defined at this point: `args`, `runtime`, bindings of earlier effects, `item`, ... */
  variables: ReadonlySet<string>;
  /**
   * The fields `$` may have, when `$` is the call's arguments and the input schema lists
   * them: a path starting with another name (or `$args.other`) names no argument.
   */
  inputFields?: ReadonlySet<string>;
}

export interface ExpressionProblem {
  message: string;
}

interface Node {
  type?: string;
  value?: unknown;
  position?: number;
  [key: string]: unknown;
}

const KNOWN_FUNCTIONS = new Set([...JSONATA_FUNCTIONS, ...Object.keys(TOOLSIM_FUNCTIONS)]);

/**
 * Checks an expression without running it: that it parses (with the position of the
 * error), that every variable it reads is defined, that it uses no unavailable function,
 * that the arguments it reads exist, and that its regular expressions are ones RE2 runs.
 */
export function checkExpression(text: string, context: ExpressionContext): ExpressionProblem[] {
  const compiled = compileExpression(text);
  if (!compiled.ok) {
    const at = compiled.position === undefined ? "" : ` at position ${compiled.position}`;
    return [{ message: `expression does not parse${at}: ${compiled.error}` }];
  }
  const ast = compiled.expression.ast() as unknown as Node;
  const problems: ExpressionProblem[] = [];
  const local = localNames(ast);
  const reported = new Set<string>();
  for (const { name, position } of variablesIn(ast)) {
    if (reported.has(name) || local.has(name) || context.variables.has(name) || KNOWN_FUNCTIONS.has(name))
      continue;
    reported.add(name);
    const why = UNAVAILABLE_FUNCTIONS[name];
    problems.push({
      message: why
        ? `$${name} is not available in effects: ${why}`
        : `expression reads $${name} (position ${position}), which is not defined here${hintFor(context)}`,
    });
  }
  if (context.inputFields) {
    for (const { name, position } of argumentsRead(ast)) {
      if (context.inputFields.has(name) || reported.has(`arg:${name}`)) continue;
      reported.add(`arg:${name}`);
      problems.push({
        message: `expression reads the argument "${name}" (position ${position}), which is not a property of the inputSchema`,
      });
    }
  }
  for (const { pattern, position } of regexesIn(ast)) {
    const problem = re2Problem(pattern);
    if (problem)
      problems.push({ message: `regular expression at position ${position} cannot run: ${problem}` });
  }
  return problems;
}

function hintFor(context: ExpressionContext): string {
  const names = [...context.variables].sort().map((n) => `$${n}`);
  return names.length ? ` (defined: ${names.join(", ")} and the functions)` : "";
}

/** Every node of the tree, depth first. */
function* nodesOf(value: unknown): Generator<Node> {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodesOf(item);
    return;
  }
  if (value === null || typeof value !== "object") return;
  const node = value as Node;
  if (typeof node.type === "string") yield node;
  for (const [key, child] of Object.entries(node))
    if (key !== "slot" && key !== "ancestor") yield* nodesOf(child);
}

/** Names the expression binds itself: `$x := ...`, function parameters, `@$focus` and `#$index`. */
function localNames(ast: Node): Set<string> {
  const names = new Set<string>();
  for (const node of nodesOf(ast)) {
    if (node.type === "bind" && isVariable(node.lhs)) names.add(node.lhs.value as string);
    if (node.type === "lambda" && Array.isArray(node.arguments))
      for (const parameter of node.arguments) if (isVariable(parameter)) names.add(parameter.value as string);
    if (typeof node.focus === "string") names.add(node.focus);
    if (typeof node.index === "string") names.add(node.index);
  }
  return names;
}

function isVariable(value: unknown): value is Node {
  return value !== null && typeof value === "object" && (value as Node).type === "variable";
}

/** Variables read anywhere (`$` and `$$`, the input and the root, are always defined). */
function* variablesIn(ast: Node): Generator<{ name: string; position: number }> {
  for (const node of nodesOf(ast)) {
    if (node.type !== "variable") continue;
    const name = node.value as string;
    if (name === "" || name === "$") continue;
    yield { name, position: node.position ?? 0 };
  }
}

/** The variables that hold the call's arguments: `$args`, the input `$` and the root `$$`. */
const INPUT_NAMES: ReadonlySet<string> = new Set(["args", "", "$"]);

/**
 * Fields read from `$` where `$` is the input: the first step of a path at the top of the
 * expression (not inside a filter, a later step or a function body), and `$args.name`,
 * `$.name`, `$$.name`.
 */
function* argumentsRead(ast: Node): Generator<{ name: string; position: number }> {
  for (const node of topLevel(ast)) {
    if (node.type !== "path" || !Array.isArray(node.steps)) continue;
    const [first, second] = node.steps as Node[];
    if (first?.type === "name") yield { name: first.value as string, position: first.position ?? 0 };
    // `$.qty` and `$$.qty` read the input as plainly as `qty` and `$args.qty`
    if (first?.type === "variable" && INPUT_NAMES.has(first.value as string) && second?.type === "name")
      yield { name: second.value as string, position: second.position ?? 0 };
  }
}

/** The nodes evaluated against the input itself: operators, blocks, arguments, object and array constructors. */
function* topLevel(node: Node): Generator<Node> {
  yield node;
  const children: unknown[] = [];
  switch (node.type) {
    case "binary":
      children.push(node.lhs, node.rhs);
      break;
    case "unary":
      if (node.value === "-") children.push(node.expression);
      if (node.value === "[") children.push(...((node.expressions as unknown[]) ?? []));
      if (node.value === "{") for (const pair of (node.lhs as unknown[][]) ?? []) children.push(...pair);
      break;
    case "condition":
      children.push(node.condition, node.then, node.else);
      break;
    case "block":
      children.push(...((node.expressions as unknown[]) ?? []));
      break;
    case "bind":
      children.push(node.rhs);
      break;
    case "function":
    case "partial":
      children.push(...((node.arguments as unknown[]) ?? []));
      break;
    case "apply":
      children.push(node.lhs);
      // x ~> $f(args): the arguments are evaluated against the input too
      if ((node.rhs as Node | undefined)?.type === "function") children.push(node.rhs);
      break;
    case "path": {
      const [first] = (node.steps as Node[]) ?? [];
      // a leading block or constructor is still evaluated against the input
      if (first && first.type !== "name" && first.type !== "variable") children.push(first);
      break;
    }
  }
  for (const child of children)
    if (child !== null && typeof child === "object" && typeof (child as Node).type === "string")
      yield* topLevel(child as Node);
}

function* regexesIn(ast: Node): Generator<{ pattern: RegExp; position: number }> {
  for (const node of nodesOf(ast))
    if (node.type === "regex" && node.value instanceof RegExp)
      yield { pattern: node.value, position: node.position ?? 0 };
}

type Re2Constructor = new (pattern: RegExp) => unknown;
let re2Constructor: Re2Constructor | undefined;

function re2Problem(pattern: RegExp): string | undefined {
  re2Constructor ??= createRequire(import.meta.url)("re2") as Re2Constructor;
  try {
    new re2Constructor(pattern);
    return undefined;
  } catch (error) {
    return `${(error as Error).message} (lookarounds and backreferences are not supported)`;
  }
}
