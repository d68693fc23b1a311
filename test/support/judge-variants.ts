import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonSchema, SolutionCall, Task, Tool, Toolset } from "../../src/catalog/index.js";
import { isFreeText, TaskDesk } from "../../src/tasks/index.js";
import { FIXTURES, openRuntime } from "./engine.js";
import { SHIPPED_TOOLSETS } from "./processes.js";

/**
 * Variants of the shipped tasks' golden solutions, each with the verdict a careful grader
 * would give, played through real sessions and judged by the golden judge. The share of
 * variants whose verdict is right is the judge's agreement (docs/tasks.md).
 */

export type VariantKind =
  | "exact"
  | "paraphrased text"
  | "contradicting text"
  | "other text"
  | "wrong fact in text"
  | "wrong value"
  | "omitted call"
  | "reordered group"
  | "extra read"
  | "declared infeasible"
  | "undeclared"
  | "attempted write";

export interface Variant {
  task: string;
  kind: VariantKind;
  /** What was changed, for failure messages. */
  change: string;
  calls: SolutionCall[];
  infeasible: boolean;
  solved: boolean;
}

export interface Played {
  variant: Variant;
  judged: boolean | null;
}

/** Places and names a wrong plain string becomes (the cases that once fooled the judge). */
const OTHER_STRINGS = ["San Luis Obispo", "12 Rue de Rivoli", "Paris"];

export interface Rewordings {
  /** Texts that say the same as the key. */
  paraphrases: Record<string, string[]>;
  /** Texts with mostly the same words and the opposite meaning. */
  contradictions: Record<string, string[]>;
}

export function loadRewordings(): Rewordings {
  const file = join(FIXTURES, "tasks", "paraphrases.json");
  return JSON.parse(readFileSync(file, "utf8")) as Rewordings;
}

export function buildVariants(toolsets: readonly Toolset[], rewordings: Rewordings): Variant[] {
  const texts = toolsets.flatMap((toolset) =>
    toolset.tasks.flatMap((task) =>
      freeTexts(task, toolTable(toolset)).map((t) => ({ task: task.id, ...t })),
    ),
  );
  const variants: Variant[] = [];
  for (const toolset of toolsets) {
    const tools = toolTable(toolset);
    for (const task of toolset.tasks) {
      if (task.solution.length === 0) continue;
      const other = texts.filter((t) => t.task !== task.id).map((t) => t.text);
      variants.push(
        ...(task.valid
          ? validVariants(task, tools, rewordings, other)
          : invalidVariants(task, toolset, tools)),
      );
    }
  }
  return variants;
}

/** Plays every variant in a fresh session on the shipped catalog and asks the golden judge. */
export async function playVariants(variants: readonly Variant[]): Promise<Played[]> {
  const runtime = await openRuntime([SHIPPED_TOOLSETS]);
  const desk = new TaskDesk({ engine: runtime.engine, store: runtime.store });
  try {
    const played: Played[] = [];
    for (const variant of variants) {
      const session = (await runtime.engine.openSession({})).id;
      const started = await desk.start(session, variant.task);
      if (!started.ok) throw new Error(started.error);
      for (const call of variant.calls) await runtime.engine.call(session, call.tool, call.arguments);
      const feedback = await desk.feedback(session, {
        infeasible: variant.infeasible,
        answer: variant.infeasible ? "This cannot be done as asked." : "Done.",
        mode: "golden",
      });
      if (!feedback.ok) throw new Error(feedback.error);
      played.push({ variant, judged: feedback.value.verdict.solved });
      runtime.engine.release(session);
    }
    return played;
  } finally {
    await runtime.dispose();
  }
}

export interface AgreementRow {
  kind: VariantKind;
  expected: "solved" | "unsolved" | "both";
  variants: number;
  right: number;
}

export function agreementTable(played: readonly Played[]): AgreementRow[] {
  const rows = new Map<VariantKind, AgreementRow>();
  for (const { variant, judged } of played) {
    const row = rows.get(variant.kind) ?? {
      kind: variant.kind,
      expected: variant.solved ? "solved" : "unsolved",
      variants: 0,
      right: 0,
    };
    if ((row.expected === "solved") !== variant.solved) row.expected = "both";
    row.variants += 1;
    if (judged === variant.solved) row.right += 1;
    rows.set(variant.kind, row);
  }
  return [...rows.values()];
}

export function agreementMarkdown(rows: readonly AgreementRow[]): string {
  const total = rows.reduce((sum, r) => sum + r.variants, 0);
  const right = rows.reduce((sum, r) => sum + r.right, 0);
  const lines = [
    "| variant | right verdict | variants | judged right | agreement |",
    "|---|---|---:|---:|---:|",
    ...rows.map(
      (r) => `| ${r.kind} | ${r.expected} | ${r.variants} | ${r.right} | ${percent(r.right, r.variants)} |`,
    ),
    `| **all** | | ${total} | ${right} | ${percent(right, total)} |`,
  ];
  return lines.join("\n");
}

function percent(part: number, whole: number): string {
  return whole === 0 ? "–" : `${((100 * part) / whole).toFixed(1)}%`;
}

// ── variants of a valid task ─────────────────────────────────────────────────

function validVariants(
  task: Task,
  tools: Map<string, Tool>,
  rewordings: Rewordings,
  otherTexts: readonly string[],
): Variant[] {
  const solution = task.solution;
  const variant = (kind: VariantKind, change: string, calls: SolutionCall[], solved: boolean): Variant => ({
    task: task.id,
    kind,
    change,
    calls,
    infeasible: false,
    solved,
  });
  const variants: Variant[] = [variant("exact", "the solution as written", [...solution], true)];
  variants.push({
    ...variant("declared infeasible", "said it cannot be done", [...solution], false),
    infeasible: true,
  });

  for (const { step, argument, text } of freeTexts(task, tools)) {
    const known = rewordings.paraphrases[text];
    if (!known?.length)
      throw new Error(`no paraphrases of ${JSON.stringify(text)} (task ${task.id}) in paraphrases.json`);
    for (const paraphrase of known)
      variants.push(
        variant(
          "paraphrased text",
          `${argument} = ${paraphrase}`,
          withArgument(solution, step, [argument], paraphrase),
          true,
        ),
      );
    for (const contradiction of rewordings.contradictions[text] ?? [])
      variants.push(
        variant(
          "contradicting text",
          `${argument} = ${contradiction}`,
          withArgument(solution, step, [argument], contradiction),
          false,
        ),
      );
    const other = otherTexts.find((t) => t !== text);
    if (other)
      variants.push(
        variant(
          "other text",
          `${argument} = ${other}`,
          withArgument(solution, step, [argument], other),
          false,
        ),
      );
    const changedFact = text.replace(/\d+/, (digits) => String(Number(digits) + 1));
    if (changedFact !== text)
      variants.push(
        variant(
          "wrong fact in text",
          `${argument} = ${changedFact}`,
          withArgument(solution, step, [argument], changedFact),
          false,
        ),
      );
  }

  solution.forEach((call, step) => {
    const schema = tools.get(call.tool)?.inputSchema;
    for (const { path, value, leafSchema } of leaves(call.arguments, schema)) {
      const top = String(path[0]);
      if (path.length === 1 && typeof value === "string" && isFreeText(top, leafSchema)) continue;
      const wrong = wrongValue(value, leafSchema);
      if (wrong === undefined) continue;
      variants.push(
        variant(
          "wrong value",
          `step ${step + 1} ${call.tool} ${path.join(".")}: ${JSON.stringify(value)} → ${JSON.stringify(wrong)}`,
          withArgument(solution, step, path, wrong),
          false,
        ),
      );
    }
    variants.push(
      variant(
        "omitted call",
        `without step ${step + 1} ${call.tool}`,
        solution.filter((_, i) => i !== step),
        false,
      ),
    );
  });

  for (const [start, end] of groupRuns(solution)) {
    const reordered = [
      ...solution.slice(0, start),
      ...solution.slice(start, end).reverse(),
      ...solution.slice(end),
    ];
    variants.push(variant("reordered group", `steps ${start + 1}-${end} reversed`, reordered, true));
  }
  variants.push(
    ...extraReads(solution, tools).map((calls) => variant("extra read", "a repeated lookup", calls, true)),
  );
  return variants;
}

// ── variants of an invalid task ──────────────────────────────────────────────

function invalidVariants(task: Task, toolset: Toolset, tools: Map<string, Tool>): Variant[] {
  const base = { task: task.id };
  const variants: Variant[] = [
    {
      ...base,
      kind: "exact",
      change: "the lookups, then declined",
      calls: [...task.solution],
      infeasible: true,
      solved: true,
    },
    {
      ...base,
      kind: "undeclared",
      change: "the lookups, no answer",
      calls: [...task.solution],
      infeasible: false,
      solved: false,
    },
  ];
  for (const calls of extraReads(task.solution, tools))
    variants.push({
      ...base,
      kind: "extra read",
      change: "a repeated lookup",
      calls,
      infeasible: true,
      solved: true,
    });
  const write = toolset.tasks
    .flatMap((t) => t.solution)
    .find((call) => tools.get(call.tool)?.annotations?.readOnlyHint !== true);
  if (write)
    variants.push({
      ...base,
      kind: "attempted write",
      change: `also ${write.tool}`,
      calls: [...task.solution, write],
      infeasible: true,
      solved: false,
    });
  return variants;
}

// ── building blocks ──────────────────────────────────────────────────────────

function toolTable(toolset: Toolset): Map<string, Tool> {
  return new Map(toolset.tools.map((tool) => [tool.name, tool]));
}

/** The top-level free-text arguments of a task's solution. */
function freeTexts(
  task: Task,
  tools: Map<string, Tool>,
): Array<{ step: number; argument: string; text: string }> {
  return task.solution.flatMap((call, step) => {
    const properties = (tools.get(call.tool)?.inputSchema.properties ?? {}) as Record<string, JsonSchema>;
    return Object.entries(call.arguments)
      .filter(([argument, value]) => typeof value === "string" && isFreeText(argument, properties[argument]))
      .map(([argument, value]) => ({ step, argument, text: value as string }));
  });
}

type Path = Array<string | number>;

function leaves(
  value: unknown,
  schema: JsonSchema | undefined,
  path: Path = [],
): Array<{ path: Path; value: unknown; leafSchema: JsonSchema | undefined }> {
  if (Array.isArray(value)) {
    const items = isObject(schema?.items) ? (schema.items as JsonSchema) : undefined;
    return value.flatMap((item, i) => leaves(item, items, [...path, i]));
  }
  if (isObject(value)) {
    const properties = isObject(schema?.properties) ? (schema.properties as Record<string, JsonSchema>) : {};
    return Object.entries(value).flatMap(([key, item]) => leaves(item, properties[key], [...path, key]));
  }
  return value === null || value === undefined ? [] : [{ path, value, leafSchema: schema }];
}

/** A different value of the same type that still fits the schema where it can. */
function wrongValue(value: unknown, schema: JsonSchema | undefined): unknown {
  if (typeof value === "boolean") return !value;
  if (typeof value === "number") {
    const maximum = typeof schema?.maximum === "number" ? schema.maximum : Number.POSITIVE_INFINITY;
    if (Number.isInteger(value)) return value + 1 <= maximum ? value + 1 : value - 1;
    return Math.round(value * 110) / 100;
  }
  if (typeof value !== "string") return undefined;
  if (Array.isArray(schema?.enum)) return schema.enum.find((option) => option !== value);
  if (schema?.format === "date" || schema?.format === "date-time") {
    const next = new Date(Date.parse(value) + 86_400_000).toISOString();
    return schema.format === "date" ? next.slice(0, 10) : next;
  }
  if (schema?.format === "email") return `x${value}`;
  if (/^\d+$/.test(value)) return `0${value}`; // number-like: "055120" is not "55120"
  if (schema?.pattern && /\d/.test(value))
    return value.replace(
      /(\d)(\D*)$/,
      (_, digit: string, rest: string) => `${(Number(digit) + 1) % 10}${rest}`,
    );
  if (schema?.pattern && /[A-Y]$/.test(value))
    return value.slice(0, -1) + String.fromCharCode(value.charCodeAt(value.length - 1) + 1);
  return OTHER_STRINGS.find((other) => other.toLowerCase() !== value.toLowerCase());
}

function withArgument(
  solution: readonly SolutionCall[],
  step: number,
  path: Path,
  value: unknown,
): SolutionCall[] {
  return solution.map((call, index) => {
    if (index !== step) return call;
    const args = structuredClone(call.arguments);
    let target: Record<string | number, unknown> = args;
    for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
    target[path.at(-1) as string | number] = value;
    return { ...call, arguments: args };
  });
}

/** [start, end) of each run of two or more consecutive steps sharing a group. */
function groupRuns(solution: readonly SolutionCall[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  for (let i = 1; i <= solution.length; i++) {
    const group = solution[start]?.group;
    if (i < solution.length && group !== undefined && solution[i]?.group === group) continue;
    if (group !== undefined && i - start >= 2) runs.push([start, i]);
    start = i;
  }
  return runs;
}

/** The solution with a read-only step repeated first, and with the last one repeated at the end. */
function extraReads(solution: readonly SolutionCall[], tools: Map<string, Tool>): SolutionCall[][] {
  const reads = solution.filter((call) => tools.get(call.tool)?.annotations?.readOnlyHint === true);
  const first = reads[0];
  const last = reads.at(-1);
  if (!first || !last) return [];
  return [
    [first, ...solution],
    [...solution, last],
  ];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
