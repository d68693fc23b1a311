import { type Computation, computationFor, type Source } from "./recognise.js";
import type { ToolDescription } from "./tool-shape.js";

/**
 * A recognised computation written as an effect of the effects language version 2, as
 * plain data for a toolset file: a `respond` whose value is a JSONata expression calling
 * `$calc`, `$convert` or `$math` on the call's arguments (`$args`). When the tool documents
 * an error for bad input, the effect names it as its `computeError`: a computation that
 * refuses the call's values (an invalid expression, an unknown unit) answers that error
 * with the computation's reason, so the caller learns what to fix and nothing is applied.
 */

export interface ComputationEffect {
  kind: "respond";
  value: { $expr: string };
  output?: string;
  computeError?: string;
}

export function computationEffects(tool: ToolDescription): ComputationEffect[] | undefined {
  const computation = computationFor(tool);
  return computation && effectsOf(computation);
}

export function effectsOf(computation: Computation): ComputationEffect[] {
  const effect: ComputationEffect = { kind: "respond", value: { $expr: valueExpression(computation) } };
  if (computation.output !== "") effect.output = computation.output;
  if (computation.error) effect.computeError = computation.error;
  return [effect];
}

/** The JSONata expression that computes the value from the call's arguments. */
export function valueExpression(computation: Computation): string {
  const core = coreExpression(computation);
  return computation.round ? rounded(core, sourceExpression(computation.round)) : core;
}

function coreExpression(computation: Computation): string {
  switch (computation.kind) {
    case "evaluate":
      return computation.variables
        ? `$calc(${sourceExpression(computation.expression)}, ${sourceExpression(computation.variables)})`
        : `$calc(${sourceExpression(computation.expression)})`;
    case "convert":
      return `$convert(${[computation.value, computation.from, computation.to].map(sourceExpression).join(", ")})`;
    case "math":
      return `$math(${[JSON.stringify(computation.function), ...computation.arguments.map(sourceExpression)].join(", ")})`;
  }
}

/** Numbers (and lists of numbers) rounded to the call's decimals when it gives them; anything else as it is. */
function rounded(core: string, digits: string): string {
  return (
    `($v := ${core}; $d := ${digits}; ` +
    `$exists($d) and $type($v) = "number" ? $math("round", $v, $d) : ` +
    `$exists($d) and $type($v) = "array" ? $map($v, function($x) { $type($x) = "number" ? $math("round", $x, $d) : $x }) : $v)`
  );
}

/** Words for periods per year. */
const FREQUENCIES: Readonly<Record<string, number>> = {
  annually: 1,
  annual: 1,
  yearly: 1,
  "semi-annually": 2,
  semiannually: 2,
  "semi-annual": 2,
  biannually: 2,
  quarterly: 4,
  monthly: 12,
  "bi-weekly": 26,
  biweekly: 26,
  weekly: 52,
  daily: 365,
};

export function sourceExpression(source: Source): string {
  if ("value" in source) return JSON.stringify(source.value);
  const field = `$args.\`${source.argument}\``;
  let text =
    source.default === undefined
      ? field
      : `($exists(${field}) ? ${field} : ${JSON.stringify(source.default)})`;
  if (source.frequency)
    text = `($f := ${text}; $type($f) = "string" ? $lookup(${JSON.stringify(FREQUENCIES)}, $lowercase($trim($f))) : $f)`;
  if (source.scale !== undefined) text = `(${text} * ${source.scale})`;
  if (source.percent === "always") text = `(${text} / 100)`;
  if (source.percent === "auto") text = `($r := ${text}; $r > 1 ? $r / 100 : $r)`;
  if (source.metresUnlessAbove !== undefined)
    text = `($h := ${text}; $h > ${source.metresUnlessAbove} ? $h / 100 : $h)`;
  return text;
}
