import { ABSENT, type Guard } from "../../catalog/index.js";
import { truthy } from "../../expr/index.js";
import { looselyEqual } from "../../state/index.js";
import { fail } from "./failures.js";
import { dig, toNumber } from "./paths.js";
import type { Run } from "./run.js";
import { evaluate, resolve } from "./values.js";

/** The operators of a field guard, each a test of the field's value against the operand. */
const GUARD_TESTS: ReadonlyArray<[operator: "in" | "notIn" | "equals" | "gte" | "lte", holds: GuardTest]> = [
  ["in", (actual, operand) => anyEqual(actual, operand)],
  ["notIn", (actual, operand) => !anyEqual(actual, operand)],
  ["equals", (actual, operand) => looselyEqual(actual, operand)],
  ["gte", (actual, operand) => compares(actual, operand, (a, b) => a >= b)],
  ["lte", (actual, operand) => compares(actual, operand, (a, b) => a <= b)],
];

type GuardTest = (actual: unknown, operand: unknown) => boolean;

/**
 * Every guard must hold, in order; the first that does not answers its error. An operand
 * that renders to nothing (an optional argument not given) sets no condition.
 */
export async function checkGuards(run: Run, guards: readonly Guard[], subject: unknown): Promise<void> {
  for (const [index, guard] of guards.entries()) {
    if ("expr" in guard) {
      if (!truthy(await evaluate(run, guard.expr, `require[${index}].expr`))) fail(run, guard.error);
      continue;
    }
    const actual = dig(subject, guard.field);
    for (const [operator, holds] of GUARD_TESTS) {
      if (guard[operator] === undefined) continue;
      const operand = await resolve(run, guard[operator], `require[${index}].${operator}`);
      if (operand !== ABSENT && !holds(actual, operand)) fail(run, guard.error, { [guard.field]: actual });
    }
  }
}

function anyEqual(actual: unknown, values: unknown): boolean {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  return list.some((v) => looselyEqual(actual, v));
}

/** Numbers compare as numbers, dates and date-times by time; anything else fails the comparison. */
function compares(actual: unknown, operand: unknown, test: (a: number, b: number) => boolean): boolean {
  const a = toNumber(actual) ?? toTime(actual);
  const b = toNumber(operand) ?? toTime(operand);
  return a !== undefined && b !== undefined && test(a, b);
}

/** Dates and date-times compare by time, so a guard can say "not after {$now}". */
function toTime(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(value)) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}
