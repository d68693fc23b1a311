import { join } from "node:path";
import { type CatalogProblem, type Task, Toolset, type ToolsetInput } from "../catalog/index.js";
import { addUsage, Limiter, type LlmClient, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import {
  FieldsAnswer,
  type GeneratedTask,
  type Named,
  SubdomainsAnswer,
  TasksAnswer,
  ToolsetAnswer,
  type Workflow,
  WorkflowsAnswer,
} from "./answers.js";
import { askUntilValid } from "./ask.js";
import type { Progress } from "./progress.js";
import * as prompts from "./prompts.js";
import { StageFiles, slugOf, writeJsonAtomically } from "./stage-files.js";

export interface GenerateOptions {
  out: string;
  /** How many fields to propose, or the fields themselves. */
  fields: { count: number } | { names: string[] };
  subdomains: number;
  toolsets: number;
  tools: { min: number; max: number };
  tasks: number;
  concurrency: number;
  /** Answers asked for per item before giving up on it (the first included). */
  attempts: number;
  client: LlmClient;
  /** Error problems of a toolset file: the loader and the golden-solution replay. */
  check: (file: string) => Promise<CatalogProblem[]>;
  progress: Progress;
}

export interface GenerateResult {
  /** Toolset files written to the output folder. */
  written: string[];
  /** What could not be generated, and why. */
  dropped: Array<{ item: string; reason: string }>;
  /** Model usage of this run (stages found on disk cost nothing). */
  usage: Usage;
  /** Stage items taken from disk instead of asked for. */
  resumed: number;
}

interface Place {
  field: Named;
  subdomain: Named;
}

const ToolsetShape = Toolset;
const TaskFile = TasksAnswer.extend({});

/**
 * fields → subdomains → workflows → toolsets (tools + state) → tasks, one level at a time,
 * each item at most `concurrency` at once, each answer checked (the toolset and its tasks
 * by the real loader and a replay of every golden solution) and asked again with the
 * problems shown when it fails.
 */
export async function generateCatalog(options: GenerateOptions): Promise<GenerateResult> {
  const files = new StageFiles(options.out);
  const limiter = new Limiter(Math.max(1, options.concurrency));
  const result: GenerateResult = { written: [], dropped: [], usage: zeroUsage(), resumed: 0 };
  const spend = (usage: Usage) => {
    result.usage = addUsage(result.usage, usage) ?? result.usage;
  };
  const each = <T, R>(
    stage: string,
    items: T[],
    label: (item: T) => string,
    work: (item: T) => Promise<R>,
  ) => {
    const progress = options.progress.stage(stage, items.length);
    return Promise.all(
      items.map((item) =>
        limiter.run(async () => {
          const value = await work(item);
          progress.tick(label(item));
          return value;
        }),
      ),
    );
  };

  // fields
  let fields: Named[];
  if ("names" in options.fields) {
    fields = options.fields.names.map((name) => ({ name, description: name }));
    files.write("fields.json", { fields });
  } else {
    const stored = files.read("fields.json", FieldsAnswer);
    if (stored) {
      result.resumed++;
      fields = stored.fields;
    } else {
      const asked = await askUntilValid(options.client, {
        stage: "generate_fields",
        system: prompts.FIELDS_SYSTEM,
        user: prompts.fieldsUser(options.fields.count),
        shape: FieldsAnswer,
        attempts: options.attempts,
      });
      spend(asked.usage);
      if (!asked.ok) {
        result.dropped.push({ item: "fields", reason: asked.problems.join("; ") });
        return result;
      }
      fields = asked.value.fields.slice(0, options.fields.count);
      files.write("fields.json", { fields });
    }
  }

  // subdomains of each field
  const places = (
    await each(
      "subdomains",
      fields,
      (f) => f.name,
      async (field): Promise<Place[]> => {
        const relative = join("subdomains", `${slugOf(field.name)}.json`);
        const stored = files.read(relative, SubdomainsAnswer);
        if (stored) {
          result.resumed++;
          return stored.subdomains.map((subdomain) => ({ field, subdomain }));
        }
        const asked = await askUntilValid(options.client, {
          stage: "generate_subdomains",
          system: prompts.SUBDOMAINS_SYSTEM,
          user: prompts.subdomainsUser(field, options.subdomains),
          shape: SubdomainsAnswer,
          attempts: options.attempts,
        });
        spend(asked.usage);
        if (!asked.ok) {
          result.dropped.push({ item: `field ${field.name}`, reason: asked.problems.join("; ") });
          return [];
        }
        const subdomains = asked.value.subdomains.slice(0, options.subdomains);
        files.write(relative, { subdomains });
        return subdomains.map((subdomain) => ({ field, subdomain }));
      },
    )
  ).flat();

  // workflows of each subdomain: one toolset each
  const planned = (
    await each(
      "workflows",
      places,
      (p) => `${p.field.name} / ${p.subdomain.name}`,
      async (place) => {
        const relative = join(
          "workflows",
          `${slugOf(place.field.name)}--${slugOf(place.subdomain.name)}.json`,
        );
        const stored = files.read(relative, WorkflowsAnswer);
        if (stored) {
          result.resumed++;
          return stored.toolsets.map((workflow) => ({ ...place, workflow }));
        }
        const asked = await askUntilValid(options.client, {
          stage: "generate_workflows",
          system: prompts.WORKFLOWS_SYSTEM,
          user: prompts.workflowsUser(place.field, place.subdomain, options.toolsets),
          shape: WorkflowsAnswer,
          attempts: options.attempts,
        });
        spend(asked.usage);
        if (!asked.ok) {
          result.dropped.push({
            item: `subdomain ${place.subdomain.name}`,
            reason: asked.problems.join("; "),
          });
          return [];
        }
        const toolsets = asked.value.toolsets.slice(0, options.toolsets);
        files.write(relative, { toolsets });
        return toolsets.map((workflow) => ({ ...place, workflow }));
      },
    )
  ).flat();
  const unique = uniqueIds(planned);

  // the tools and sandbox state of each workflow
  const toolsets = (
    await each(
      "toolsets",
      unique,
      (p) => p.workflow.id,
      async (item): Promise<Toolset[]> => {
        const relative = join("toolsets", `${item.workflow.id}.json`);
        const stored = files.read(relative, ToolsetShape);
        if (stored) {
          result.resumed++;
          return [stored];
        }
        let built: Toolset | undefined;
        const asked = await askUntilValid(options.client, {
          stage: "generate_toolset",
          system: prompts.TOOLSET_SYSTEM,
          user: prompts.toolsetUser(item.field, item.subdomain, item.workflow, options.tools),
          shape: ToolsetAnswer,
          attempts: options.attempts,
          check: async (answer) => {
            const problems = toolCountProblems(answer, options.tools);
            const candidate = toolsetOf(item, answer);
            const checked = await checkCandidate(files, options.check, candidate);
            built = checked.toolset;
            return [...problems, ...checked.problems.map(describeProblem)];
          },
        });
        spend(asked.usage);
        if (!asked.ok) {
          result.dropped.push({ item: `toolset ${item.workflow.id}`, reason: asked.problems.join("; ") });
          return [];
        }
        if (!built) throw new Error(`toolset ${item.workflow.id} passed its check but did not parse`);
        files.write(relative, built);
        return [built];
      },
    )
  ).flat();

  // tasks of each toolset, then the final file
  await each(
    "tasks",
    toolsets,
    (t) => t.id,
    async (toolset) => {
      const relative = join("tasks", `${toolset.id}.json`);
      let tasks = files.read(relative, TaskFile)?.tasks;
      if (tasks) result.resumed++;
      else {
        const generated = await generateTasks(options, files, toolset, result.dropped);
        spend(generated.usage);
        tasks = generated.tasks;
        files.write(relative, { tasks });
      }
      const final = { ...toolset, tasks: tasks.map(taskOf) };
      const file = join(options.out, `${toolset.id}.json`);
      writeJsonAtomically(file, final);
      result.written.push(file);
    },
  );
  return result;
}

/** Tasks whose golden solutions replay; after the last attempt, the failing ones are dropped with their reasons. */
async function generateTasks(
  options: GenerateOptions,
  files: StageFiles,
  toolset: Toolset,
  dropped: GenerateResult["dropped"],
): Promise<{ tasks: GeneratedTask[]; usage: Usage }> {
  let failing = new Map<number, string[]>();
  const asked = await askUntilValid(options.client, {
    stage: "generate_tasks",
    system: prompts.TASKS_SYSTEM,
    user: prompts.tasksUser(toolset, options.tasks),
    shape: TasksAnswer,
    attempts: options.attempts,
    check: async (answer) => {
      const candidate = { ...toolset, tasks: answer.tasks.map(taskOf) };
      const checked = await checkCandidate(files, options.check, candidate);
      failing = problemsByTask(checked.problems);
      return checked.problems.map(describeProblem);
    },
  });
  if (asked.ok) return { tasks: asked.value.tasks, usage: asked.usage };
  if (!asked.value) {
    dropped.push({ item: `tasks of ${toolset.id}`, reason: asked.problems.join("; ") });
    return { tasks: [], usage: asked.usage };
  }
  const kept: GeneratedTask[] = [];
  for (const [index, task] of asked.value.tasks.entries()) {
    // a problem outside any task (index -1: the toolset itself) condemns every task
    const reasons = failing.get(index) ?? failing.get(-1);
    if (reasons) dropped.push({ item: `task ${toolset.id}/${task.id}`, reason: reasons.join("; ") });
    else kept.push(task);
  }
  return { tasks: kept, usage: asked.usage };
}

function toolCountProblems(answer: ToolsetAnswer, tools: { min: number; max: number }): string[] {
  const count = answer.tools.length;
  if (count < tools.min || count > tools.max)
    return [`write between ${tools.min} and ${tools.max} tools; the answer has ${count}`];
  return [];
}

/** The toolset file a generated answer stands for. */
function toolsetOf(item: Place & { workflow: Workflow }, answer: ToolsetAnswer): ToolsetInput {
  return {
    id: item.workflow.id,
    name: item.workflow.name,
    field: item.field.name,
    subdomain: item.subdomain.name,
    description: item.workflow.description,
    state: answer.state,
    tools: answer.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      usage: `Consumes: ${tool.consumes.length ? tool.consumes.join(", ") : "nothing"}. Produces: ${tool.produces.join(", ")}.`,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      errors: tool.errors,
      ...(tool.readOnly ? { annotations: { readOnlyHint: true } } : {}),
      effects: tool.effects as ToolsetInput["tools"][number]["effects"],
    })),
  };
}

function taskOf(task: GeneratedTask): Task {
  return { ...task, valid: true, solution: task.solution.map((call) => ({ ...call })) };
}

/** Writes the candidate where the real loader can read it, and returns its error problems. */
async function checkCandidate(
  files: StageFiles,
  check: GenerateOptions["check"],
  candidate: ToolsetInput,
): Promise<{ toolset?: Toolset; problems: CatalogProblem[] }> {
  const file = files.path("candidates", `${candidate.id}.json`);
  writeJsonAtomically(file, candidate);
  const problems = (await check(file)).filter((p) => p.severity === "error");
  const parsed = Toolset.safeParse(candidate);
  return { toolset: parsed.success ? parsed.data : undefined, problems };
}

function describeProblem(problem: CatalogProblem): string {
  return problem.path ? `${problem.path}: ${problem.message}` : problem.message;
}

function problemsByTask(problems: readonly CatalogProblem[]): Map<number, string[]> {
  const byTask = new Map<number, string[]>();
  for (const problem of problems) {
    const match = /^tasks\[(\d+)\]/.exec(problem.path);
    const index = match ? Number(match[1]) : -1;
    byTask.set(index, [...(byTask.get(index) ?? []), describeProblem(problem)]);
  }
  return byTask;
}

/** Workflow ids become toolset ids: the same id proposed twice gets a suffix. */
function uniqueIds<T extends { workflow: Workflow }>(items: T[]): T[] {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const count = (seen.get(item.workflow.id) ?? 0) + 1;
    seen.set(item.workflow.id, count);
    return count === 1
      ? item
      : { ...item, workflow: { ...item.workflow, id: `${item.workflow.id}_${count}` } };
  });
}
