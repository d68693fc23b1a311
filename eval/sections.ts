import { join } from "node:path";
import {
  importBfcl,
  importOpenAiFunctions,
  importOpenApi,
  importSynthTools,
  mcpToolName,
  parseCallString,
  type Toolset,
} from "../src/catalog/index.js";
import { readBfcl, readDatabase, readDocument, readSynthTools } from "../src/sources/index.js";
import { type CatalogFigures, catalogFigures, rejection } from "./measure.js";

export interface GoldenFigures {
  calls: number;
  accepted: number;
  rejected: Array<{ task: string; tool: string; arguments: unknown; reason: string }>;
}

function goldenFigures(toolsets: readonly Toolset[]): GoldenFigures {
  const figures: GoldenFigures = { calls: 0, accepted: 0, rejected: [] };
  const byId = new Map(toolsets.map((t) => [t.id, t]));
  for (const toolset of toolsets)
    for (const task of toolset.tasks) {
      // a task across several APIs calls the tools of its other toolsets too
      const tools = [toolset, ...(task.toolsets ?? []).map((id) => byId.get(id))].flatMap(
        (t) => t?.tools ?? [],
      );
      for (const call of task.solution) {
        figures.calls++;
        const tool = tools.find((t) => t.name === call.tool);
        const reason = tool ? rejection(tool, call.arguments) : `no tool ${call.tool}`;
        if (reason)
          figures.rejected.push({ task: task.id, tool: call.tool, arguments: call.arguments, reason });
        else figures.accepted++;
      }
    }
  return figures;
}

export function synthToolsSection(dir: string) {
  const read = readSynthTools(dir);
  const result = importSynthTools(read.source);
  return {
    toolFiles: read.source.tools.length,
    taskFiles: read.source.tasks.length,
    unreadable: read.unreadable,
    ...catalogFigures(result.toolsets, result.problems),
    golden: goldenFigures(result.toolsets),
    notesByKind: notesByKind(result.problems),
  };
}

export function bfclSection(dir: string) {
  const read = readBfcl(dir);
  const result = importBfcl(read.source);
  return {
    entries: read.source.entries.length,
    answers: read.source.answers.size,
    unreadable: read.unreadable,
    ...catalogFigures(result.toolsets, result.problems),
    golden: goldenFigures(result.toolsets),
    rejectedByCause: causesOf(goldenFigures(result.toolsets).rejected),
    alternatives: alternativeFigures(result.toolsets, read.source.answers),
    notesByKind: notesByKind(result.problems),
  };
}

/** Why BFCL golden calls fail the imported schemas, by cause (each cause is a disagreement in the data). */
function causesOf(rejected: GoldenFigures["rejected"]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const r of rejected) {
    const nulls = Object.values(r.arguments as Record<string, unknown>).includes(null);
    const cause = /^simple_java|^simple_javascript/.test(r.task)
      ? "Java/JavaScript source expression (a variable name) given for an object, array or integer parameter"
      : /additional properties|required property/.test(r.reason)
        ? "ground truth names arguments the function does not declare (or leaves out a required one)"
        : /allowed values/.test(r.reason)
          ? "ground truth value outside the parameter's own enum"
          : nulls && /must be/.test(r.reason)
            ? "ground truth passes null to a parameter whose default is not null"
            : "ground truth value of another type than the parameter declares";
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}

/**
 * Every accepted value of the ground truth, not only the first: each alternative is put in
 * place of the first choice and the call validated again.
 */
function alternativeFigures(toolsets: readonly Toolset[], answers: ReadonlyMap<string, unknown>) {
  let checked = 0;
  const rejected: Array<{ task: string; tool: string; argument: string; value: unknown; reason: string }> =
    [];
  for (const toolset of toolsets)
    for (const task of toolset.tasks) {
      const truth = answers.get(task.id);
      const steps =
        truth &&
        typeof truth === "object" &&
        Array.isArray((truth as { ground_truth?: unknown }).ground_truth)
          ? ((truth as { ground_truth: unknown[] }).ground_truth as Array<
              Record<string, Record<string, unknown[]>>
            >)
          : [];
      steps.forEach((step, i) => {
        const call = task.solution[i];
        const tool = call && toolset.tools.find((t) => t.name === call.tool);
        if (!call || !tool) return;
        for (const options of Object.values(step))
          for (const [argument, values] of Object.entries(options ?? {})) {
            if (!Array.isArray(values)) continue;
            for (const value of values.slice(1)) {
              if (value === "" || (value !== null && typeof value === "object")) continue;
              checked++;
              const reason = rejection(tool, { ...call.arguments, [argument]: value });
              if (reason) rejected.push({ task: task.id, tool: tool.name, argument, value, reason });
            }
          }
      });
    }
  return { checked, rejected };
}

export function tauSection(dir: string) {
  const domains = ["airline", "retail"].map((domain) => {
    const tools = readDocument(join(dir, domain, "tools.json"));
    const db = readDatabase(join(dir, domain, "db"));
    const result = importOpenAiFunctions(
      { functions: tools.value, state: db.value },
      { id: `tau_${domain}` },
    );
    const all = result.toolsets.flatMap((t) => t.tools);
    const state = result.toolsets[0]?.state ?? {};
    return {
      domain,
      ...catalogFigures(result.toolsets, result.problems),
      readOnly: all.filter((t) => t.annotations?.readOnlyHint === true).length,
      writing: all.filter((t) => t.annotations?.readOnlyHint === false).length,
      unlabelled: all.filter((t) => t.annotations?.readOnlyHint === undefined).length,
      errors: all.reduce((n, t) => n + t.errors.length, 0),
      stateCollections: Object.fromEntries(
        Object.entries(state).map(([k, v]) => [k, v && typeof v === "object" ? Object.keys(v).length : 0]),
      ),
      notesByKind: notesByKind(result.problems),
    };
  });
  return { domains };
}

export async function toolAlpacaSection(dir: string) {
  const toolsets: Toolset[] = [];
  const problems: Array<{ toolset: string; tool?: string; message: string; path: string }> = [];
  const golden: GoldenFigures = { calls: 0, accepted: 0, rejected: [] };
  const failed: string[] = [];
  for (const file of ["eval_real.json", "eval_simulated.json"]) {
    const read = readDocument(join(dir, file));
    const apis = Array.isArray(read.value) ? (read.value as Array<Record<string, unknown>>) : [];
    for (const api of apis) {
      let document: unknown;
      try {
        document = JSON.parse(String(api.Documentation));
      } catch {
        failed.push(`${String(api.Name)}: documentation is not JSON`);
        continue;
      }
      const result = await importOpenApi(document, { field: String(api.Category ?? "Web APIs") });
      problems.push(...result.problems);
      const toolset = result.toolsets[0];
      if (!toolset) {
        failed.push(`${String(api.Name)}: ${result.problems.map((p) => p.message).join("; ")}`);
        continue;
      }
      toolsets.push(toolset);
      const projection = projectionOf(api.Function_Projection);
      for (const call of goldenCallsOf(api.Golden_Answers)) {
        golden.calls++;
        const target = projection.get(call.action);
        const name = target ? mcpToolName(`${target[1]}_${target[0]}`) : call.action;
        const tool = toolset.tools.find(
          (t) => [call.action, name].includes(t.name) || t.title === call.action,
        );
        const reason = call.error ?? (tool ? rejection(tool, call.input) : `no operation ${call.action}`);
        if (reason)
          golden.rejected.push({ task: String(api.Name), tool: call.action, arguments: call.input, reason });
        else golden.accepted++;
      }
    }
  }
  return {
    apis: toolsets.length,
    failed,
    ...catalogFigures(toolsets, problems),
    golden,
    notesByKind: notesByKind(problems),
  };
}

/** Operations without an operationId are named by ToolAlpaca after `{action: [path, method]}`. */
function projectionOf(raw: unknown): Map<string, [string, string]> {
  let value: unknown = raw;
  if (typeof raw === "string") {
    const parsed = parseCallString(`projection(value = ${raw})`);
    value = parsed.ok ? parsed.arguments.value : {};
  }
  const map = new Map<string, [string, string]>();
  if (value && typeof value === "object")
    for (const [action, target] of Object.entries(value))
      if (Array.isArray(target) && target.length === 2)
        map.set(action, [String(target[0]), String(target[1])]);
  return map;
}

/** Golden answers are a Python literal of lists of {Action, Action_Input (JSON text)}. */
function goldenCallsOf(raw: unknown): Array<{ action: string; input: unknown; error?: string }> {
  let value: unknown = raw;
  if (typeof raw === "string") {
    const parsed = parseCallString(`answers(value = ${raw})`);
    if (!parsed.ok) return [];
    value = parsed.arguments.value;
  }
  const calls: Array<{ action: string; input: unknown; error?: string }> = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object" && "Action" in value) {
      const step = value as { Action: unknown; Action_Input?: unknown };
      try {
        calls.push({ action: String(step.Action), input: JSON.parse(String(step.Action_Input ?? "{}")) });
      } catch {
        calls.push({
          action: String(step.Action),
          input: step.Action_Input,
          error: "Action_Input is not JSON",
        });
      }
    }
  };
  walk(value);
  return calls;
}

/** Import notes grouped by what they say (names and values stripped), most frequent first. */
function notesByKind(problems: ReadonlyArray<{ message: string }>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const { message } of problems) {
    const kind = message.replace(/"[^"]*"|\d+(\.\d+)?|\[[^\]]*\]/g, "…").slice(0, 90);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).slice(0, 12);
}

export type SectionFigures = CatalogFigures;
