/**
 * The budgets of one evaluation (documented in docs/catalog.md). Steps, depth and sizes are
 * counted, so the same expression on the same data always stays within them or never does;
 * the wall-clock limit only backs them up against slow native work.
 */
export const EXPRESSION_BOUNDS = {
  /** Evaluation steps (one per node of the expression evaluated, loops counted per turn). */
  steps: 100_000,
  /** Wall time one evaluation may take, in milliseconds. */
  timeMs: 2_000,
  /** Nesting of evaluation steps (a recursive function adds several per call). */
  depth: 500,
  /** Items of any array or sequence an expression builds (a range, a map, an append). */
  arrayItems: 100_000,
  /** Characters of any string an expression builds. */
  stringChars: 1_000_000,
  /** Items and characters all the arrays and strings built by loops add up to. */
  builtTotal: 10_000_000,
} as const;

/** An evaluation that went past one of its budgets. */
export class BoundExceeded extends Error {}
