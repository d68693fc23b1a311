/**
 * Static proofs about regular expressions run by a backtracking engine (JavaScript's).
 * toolsim evaluates catalog patterns with RE2, which is linear; a pattern RE2 cannot run
 * (lookaround, backreferences) may use the native engine only when these rules prove its
 * cost bounded. The rules are deliberately narrow: a pattern they cannot prove safe is
 * treated as unsafe, never the reverse.
 */

/** Paths a match may explore per starting position, outside the single unbounded quantifier allowed. */
const MAX_CHOICES = 1_000;
/** Deeper group nesting than this is not analysed (and so not proven safe). */
const MAX_NESTING = 32;

interface Quantifier {
  min: number;
  max: number;
}

type Atom =
  | { kind: "char" }
  | { kind: "start" }
  | { kind: "assertion" }
  | { kind: "backreference" }
  | { kind: "group"; body: Alternatives }
  | { kind: "lookaround"; body: Alternatives };

interface Term {
  atom: Atom;
  quantifier?: Quantifier;
}

type Sequence = Term[];
type Alternatives = Sequence[];

/** Why a pattern is not provably safe for a backtracking engine; undefined when it is. */
export function backtrackingHazard(pattern: string): string | undefined {
  const parsed = parse(pattern);
  if (!parsed.ok) return parsed.reason;
  const tree = parsed.tree;
  if (!tree.every((sequence) => sequence[0]?.atom.kind === "start"))
    return "it is not anchored with ^ at the start, so every position of the input is tried";
  for (const sequence of tree) {
    const cost = sequenceCost(sequence, { unbounded: 0 });
    if (typeof cost === "string") return cost;
  }
  return undefined;
}

/**
 * Whether a pattern repeats a group whose body is nothing but repetition and optional
 * parts (`(a+)+`, `(\w+\s?)*`, `(\d*)+`), one of the two repetitions without bound: the
 * matcher can split the same text among the iterations in exponentially many ways, so
 * backtracking engines can take exponential time on it, whatever engine toolsim uses. A
 * required delimiter in the body (`(\w+\.)+`) is taken to prevent that (a heuristic).
 */
export function nestedRepetition(pattern: string): boolean {
  const parsed = parse(pattern);
  if (!parsed.ok) return false;
  const visit = (alternatives: Alternatives): boolean =>
    alternatives.some((sequence) =>
      sequence.some((term) => {
        if (term.atom.kind !== "group" && term.atom.kind !== "lookaround") return false;
        const outer = term.quantifier;
        if (outer && outer.max > 1 && term.atom.body.some((body) => ambiguous(body, outer))) return true;
        return visit(term.atom.body);
      }),
    );
  return visit(parsed.tree);
}

/** A repeated body that requires nothing but its own repetitions. */
function ambiguous(body: Sequence, outer: Quantifier): boolean {
  const repeats = body.filter((term) => term.quantifier !== undefined && term.quantifier.max > 1);
  const unbounded = (q: Quantifier | undefined) => q?.max === Number.POSITIVE_INFINITY;
  if (repeats.length === 0 || !(unbounded(outer) || repeats.some((t) => unbounded(t.quantifier))))
    return false;
  return body.every((term) => repeats.includes(term) || flexible(term));
}

/** A term that may match nothing: optional, or a group whose alternatives all may. */
function flexible(term: Term): boolean {
  if (term.quantifier?.min === 0) return true;
  if (term.atom.kind === "start" || term.atom.kind === "assertion" || term.atom.kind === "lookaround")
    return true;
  if (term.atom.kind !== "group") return false;
  return term.atom.body.some((sequence) => sequence.every(flexible));
}

interface Cost {
  /** Unbounded quantifiers on one path. */
  unbounded: number;
  /** Product of the finite choices on one path. */
  choices: number;
}

/**
 * A sequence is safe when, along any path, at most one quantifier is unbounded and the
 * finite choices multiply to at most MAX_CHOICES: anchored, its cost is then O(n × choices).
 * A lookaround is run at each position the matcher reaches it, so one with an unbounded
 * body must come before any unbounded quantifier of its sequence.
 */
function sequenceCost(sequence: Sequence, before: { unbounded: number }): Cost | string {
  let cost: Cost = { unbounded: before.unbounded, choices: 1 };
  for (const term of sequence) {
    const { atom, quantifier } = term;
    if (atom.kind === "backreference") return "it uses a backreference";
    let inner: Cost = { unbounded: 0, choices: 1 };
    if (atom.kind === "lookaround") {
      const body = alternativesCost(atom.body, { unbounded: 0 }, true);
      if (typeof body === "string") return body;
      if (body.unbounded > 0 && cost.unbounded > 0)
        return "a lookaround that repeats without bound follows a repetition without bound";
      if (body.unbounded > 1) return "a lookaround repeats without bound more than once";
      if (quantifier) return "a lookaround is repeated";
      continue;
    }
    if (atom.kind === "group") {
      const body = alternativesCost(atom.body, cost, false);
      if (typeof body === "string") return body;
      inner = { unbounded: body.unbounded - cost.unbounded, choices: body.choices };
      if (quantifier && quantifier.max > 1) return "a group is repeated";
      if (quantifier) inner.choices *= 2;
    } else if (quantifier) {
      if (quantifier.max === Number.POSITIVE_INFINITY) inner.unbounded = 1;
      else inner.choices = quantifier.max - quantifier.min + 1;
    }
    cost = { unbounded: cost.unbounded + inner.unbounded, choices: cost.choices * inner.choices };
    if (cost.unbounded > 1) return "it repeats without bound more than once in a row";
    if (cost.choices > MAX_CHOICES) return "its bounded repetitions multiply past what can be proven cheap";
  }
  return cost;
}

function alternativesCost(
  alternatives: Alternatives,
  before: { unbounded: number },
  insideLookaround: boolean,
): Cost | string {
  let unbounded = before.unbounded;
  let choices = 0;
  for (const sequence of alternatives) {
    if (insideLookaround && sequence.some((t) => t.atom.kind === "lookaround"))
      return "a lookaround is nested in another";
    const cost = sequenceCost(sequence, before);
    if (typeof cost === "string") return cost;
    unbounded = Math.max(unbounded, cost.unbounded);
    choices += cost.choices;
  }
  return { unbounded, choices: Math.max(choices, 1) };
}

// ── parsing ───────────────────────────────────────────────────────────────────

type Parsed = { ok: true; tree: Alternatives } | { ok: false; reason: string };

/** Parses the JavaScript (u-mode) syntax a pattern already compiled with into the structure above. */
function parse(pattern: string): Parsed {
  const state = { at: 0, depth: 0 };
  const tree = parseAlternatives(pattern, state);
  if (typeof tree === "string") return { ok: false, reason: tree };
  if (state.at < pattern.length) return { ok: false, reason: `unexpected ")" at ${state.at}` };
  return { ok: true, tree };
}

function parseAlternatives(pattern: string, state: { at: number; depth: number }): Alternatives | string {
  const alternatives: Alternatives = [[]];
  while (state.at < pattern.length) {
    const char = pattern[state.at] as string;
    if (char === ")") break;
    if (char === "|") {
      alternatives.push([]);
      state.at++;
      continue;
    }
    const atom = parseAtom(pattern, state);
    if (typeof atom === "string") return atom;
    const quantifier = parseQuantifier(pattern, state);
    (alternatives[alternatives.length - 1] as Sequence).push(quantifier ? { atom, quantifier } : { atom });
  }
  return alternatives;
}

function parseAtom(pattern: string, state: { at: number; depth: number }): Atom | string {
  const char = pattern[state.at] as string;
  if (char === "^") {
    state.at++;
    return { kind: "start" };
  }
  if (char === "$") {
    state.at++;
    return { kind: "assertion" };
  }
  if (char === "[") {
    state.at = classEnd(pattern, state.at);
    return { kind: "char" };
  }
  if (char === "\\") return parseEscape(pattern, state);
  if (char !== "(") {
    state.at++;
    return { kind: "char" };
  }
  if (++state.depth > MAX_NESTING) return "its groups nest too deeply to analyse";
  const rest = pattern.slice(state.at + 1, state.at + 4);
  const lookaround = /^(\?=|\?!|\?<=|\?<!)/.exec(rest)?.[0];
  let skip = 1;
  if (lookaround) skip += lookaround.length;
  else if (rest.startsWith("?:")) skip += 2;
  else if (rest.startsWith("?<")) skip = pattern.indexOf(">", state.at) - state.at + 1;
  state.at += skip;
  const body = parseAlternatives(pattern, state);
  if (typeof body === "string") return body;
  state.at++; // the closing parenthesis
  state.depth--;
  return lookaround ? { kind: "lookaround", body } : { kind: "group", body };
}

function parseEscape(pattern: string, state: { at: number }): Atom {
  const next = pattern[state.at + 1] ?? "";
  const braced = (from: number) => Math.max(pattern.indexOf("}", from), from) + 1;
  if (/[1-9]/.test(next)) {
    state.at += 1 + (/^[0-9]+/.exec(pattern.slice(state.at + 1))?.[0].length ?? 1);
    return { kind: "backreference" };
  }
  if (next === "k") {
    state.at = pattern.indexOf(">", state.at) + 1 || pattern.length;
    return { kind: "backreference" };
  }
  if (next === "b" || next === "B") {
    state.at += 2;
    return { kind: "assertion" };
  }
  if ((next === "p" || next === "P") && pattern[state.at + 2] === "{") state.at = braced(state.at);
  else if (next === "u" && pattern[state.at + 2] === "{") state.at = braced(state.at);
  else if (next === "u") state.at += 6;
  else if (next === "x") state.at += 4;
  else if (next === "c") state.at += 3;
  else state.at += 2;
  return { kind: "char" };
}

/** The index just past a character class, escapes included. */
function classEnd(pattern: string, start: number): number {
  let at = start + 1;
  if (pattern[at] === "]") at++;
  while (at < pattern.length && pattern[at] !== "]") at += pattern[at] === "\\" ? 2 : 1;
  return at + 1;
}

function parseQuantifier(pattern: string, state: { at: number }): Quantifier | undefined {
  const char = pattern[state.at];
  let quantifier: Quantifier | undefined;
  if (char === "*") quantifier = { min: 0, max: Number.POSITIVE_INFINITY };
  else if (char === "+") quantifier = { min: 1, max: Number.POSITIVE_INFINITY };
  else if (char === "?") quantifier = { min: 0, max: 1 };
  if (quantifier) state.at++;
  else if (char === "{") {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(state.at));
    if (!match) return undefined;
    const min = Number(match[1]);
    const max = match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY;
    quantifier = { min, max };
    state.at += match[0].length;
  }
  if (quantifier && pattern[state.at] === "?") state.at++; // lazy: the same paths, in another order
  return quantifier;
}
