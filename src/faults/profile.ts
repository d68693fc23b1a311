import { createRequire } from "node:module";
import { extname } from "node:path";
import {
  type Catalog,
  type CatalogProblem,
  describeFaultIssue,
  type Fault,
  FaultProfile,
  type FaultRule,
  formatPath,
  type Tool,
} from "../catalog/index.js";
import { BUILTIN_PROFILES, isBuiltinProfile, NO_FAULTS } from "./builtin.js";
import { INJECTION_PATTERNS } from "./injections.js";

/** What a tool does to the state, as rules match it. */
export type Access = "read" | "write";

/** What a rule matches a call on. */
export interface ToolFacts {
  name: string;
  toolset?: string;
  access: Access;
}

export interface ResolvedRule {
  /** profile/rule, as records and reports name it. */
  name: string;
  index: number;
  rate: number;
  seed: string;
  fault: Fault;
  matches(tool: ToolFacts): boolean;
}

/** A profile checked against a catalog, ready to decide calls. */
export interface ResolvedProfile {
  name: string;
  rules: readonly ResolvedRule[];
}

type Problem = Omit<CatalogProblem, "severity">;

/**
 * Reads a profile file's text (JSON, or YAML for .yaml/.yml): the profile, or every problem
 * with the file and the field.
 */
export function parseFaultProfile(
  file: string,
  text: string,
): { profile?: FaultProfile; problems: CatalogProblem[] } {
  let json: unknown;
  try {
    json = /\.ya?ml$/i.test(extname(file)) ? yaml().parse(text) : JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      problems: [
        {
          file,
          path: "",
          message: `not valid ${/\.ya?ml$/i.test(file) ? "YAML" : "JSON"}: ${reason}`,
          severity: "error",
        },
      ],
    };
  }
  const parsed = FaultProfile.safeParse(json);
  if (!parsed.success) {
    return {
      problems: parsed.error.issues.map((issue) => ({
        file,
        path: formatPath(issue.path),
        message: describeFaultIssue(issue, valueAt(json, issue.path)),
        severity: "error",
      })),
    };
  }
  return { profile: parsed.data, problems: [] };
}

/**
 * The YAML parser, loaded on the first YAML profile only: every command that loads a catalog
 * reaches this room, and loading the parser up front would cost each of them its start-up.
 */
function yaml(): typeof import("yaml") {
  return createRequire(import.meta.url)("yaml") as typeof import("yaml");
}

/** A built-in profile by name, parsed (its defaults applied). */
export function builtinProfile(name: string): FaultProfile | undefined {
  return isBuiltinProfile(name) ? FaultProfile.parse(BUILTIN_PROFILES[name]) : undefined;
}

/**
 * Checks a profile against the catalog it will run on and compiles its rules: every tool a
 * rule names exists (a glob matches at least one), every toolset exists, every injection
 * pattern is in the corpus, and no rule asks for a fault its match can never take.
 * `where` says where the profile sits (its file, and its path inside a toolset file).
 */
export function resolveFaultProfile(
  profile: FaultProfile,
  catalog: Catalog,
  where: { file: string; path?: ReadonlyArray<PropertyKey>; name?: string },
): { profile?: ResolvedProfile; problems: CatalogProblem[] } {
  const problems: Problem[] = [];
  const base = where.path ?? [];
  const name = profile.name ?? where.name ?? where.file;
  const toolNames = catalog.allTools().map((tool) => tool.name);
  const rules: ResolvedRule[] = profile.rules.map((rule, index) => {
    const at = (...path: PropertyKey[]) => formatPath([...base, "rules", index, ...path]);
    const report = (path: string, message: string) => problems.push({ file: where.file, path, message });
    (rule.match.tools ?? []).forEach((pattern, i) => {
      const glob = globOf(pattern);
      if (glob && !toolNames.some((tool) => glob.test(tool))) {
        report(at("match", "tools", i), `the glob "${pattern}" matches no tool of the catalog`);
      } else if (!glob && !catalog.tool(pattern)) {
        const near = catalog.nearestToolNames(pattern, 3);
        const hint = near.length ? ` Did you mean ${near.map((n) => `"${n}"`).join(", ")}?` : "";
        report(at("match", "tools", i), `unknown tool "${pattern}".${hint}`);
      }
    });
    (rule.match.toolsets ?? []).forEach((id, i) => {
      if (!catalog.toolset(id)) {
        const known = catalog.toolsets.map((t) => t.id).join(", ") || "none";
        report(at("match", "toolsets", i), `unknown toolset "${id}"; the catalog has ${known}`);
      }
    });
    const never = neverApplies(rule);
    if (never) report(at("fault", "kind"), never);
    if (rule.fault.kind === "injection") {
      (rule.fault.patterns ?? []).forEach((id, i) => {
        if (!INJECTION_PATTERNS.some((p) => p.id === id)) {
          report(
            at("fault", "patterns", i),
            `unknown injection pattern "${id}"; the corpus has ${INJECTION_PATTERNS.map((p) => p.id).join(", ")}`,
          );
        }
      });
    }
    return compileRule(rule, index, name, profile.seed ?? "0");
  });
  const errors = problems.map((p): CatalogProblem => ({ ...p, severity: "error" }));
  return errors.length > 0 ? { problems: errors } : { profile: { name, rules }, problems: [] };
}

/**
 * What `--faults` (or a task's `faults`) names: "none", a built-in profile, or a profile
 * object (from a file or written in a task), resolved against the catalog.
 */
export function resolveFaultSetting(
  setting: string | FaultProfile,
  catalog: Catalog,
  where: { file: string; path?: ReadonlyArray<PropertyKey> },
): { profile?: ResolvedProfile | null; problems: CatalogProblem[] } {
  if (typeof setting !== "string") return resolveFaultProfile(setting, catalog, where);
  if (setting === NO_FAULTS) return { profile: null, problems: [] };
  const builtin = builtinProfile(setting);
  if (builtin) return resolveFaultProfile(builtin, catalog, { ...where, name: setting });
  return {
    problems: [
      {
        file: where.file,
        path: formatPath(where.path ?? []),
        message: `unknown fault profile "${setting}"; the built-in profiles are ${Object.keys(BUILTIN_PROFILES).join(", ")} (or ${NO_FAULTS})`,
        severity: "error",
      },
    ],
  };
}

/** Every problem of the tasks' fault profiles, with the toolset file and the field. */
export function taskFaultProblems(catalog: Catalog): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  for (const { task, toolset } of catalog.allTasks()) {
    if (task.faults === undefined) continue;
    const file = catalog.files.get(toolset.id) ?? toolset.id;
    const path = ["tasks", toolset.tasks.indexOf(task), "faults"];
    problems.push(...resolveFaultSetting(task.faults, catalog, { file, path }).problems);
  }
  return problems;
}

/**
 * Reads or writes, as faults see a tool: by its effects when it has any (a create, update
 * or delete is a write, and so is a tool annotated readOnlyHint false or destructive);
 * without effects, by its readOnlyHint; a tool that says nothing is a write.
 */
export function accessOf(tool: Tool): Access {
  const hints = tool.annotations;
  if (
    tool.effects.some(
      (effect) => effect.kind === "create" || effect.kind === "update" || effect.kind === "delete",
    )
  )
    return "write";
  if (hints?.readOnlyHint === false || hints?.destructiveHint === true) return "write";
  if (tool.effects.length > 0) return "read";
  return hints?.readOnlyHint === true ? "read" : "write";
}

function compileRule(rule: FaultRule, index: number, profile: string, profileSeed: string): ResolvedRule {
  const globs = rule.match.tools?.map((pattern) => globOf(pattern) ?? pattern);
  const toolsets = rule.match.toolsets ? new Set(rule.match.toolsets) : undefined;
  const access =
    rule.match.effect === undefined ? undefined : rule.match.effect === "reads" ? "read" : "write";
  return {
    name: `${profile}/${rule.name ?? `rule ${index + 1}`}`,
    index,
    rate: rule.rate,
    seed: rule.seed ?? profileSeed,
    fault: rule.fault,
    matches: (tool) =>
      (access === undefined || tool.access === access) &&
      (toolsets === undefined || (tool.toolset !== undefined && toolsets.has(tool.toolset))) &&
      (globs === undefined ||
        globs.some((g) => (typeof g === "string" ? g === tool.name : g.test(tool.name)))),
  };
}

/** A glob of tool names as a regular expression, or undefined for a plain name. */
function globOf(pattern: string): RegExp | undefined {
  if (!/[*?]/.test(pattern)) return undefined;
  const source = pattern
    .replace(/[.+^${}()|[\]\\-]/g, "\\$&")
    .replaceAll("*", ".*")
    .replaceAll("?", ".");
  return new RegExp(`^${source}$`);
}

/** Why a rule can never inject its fault, if it cannot. */
function neverApplies(rule: FaultRule): string | undefined {
  if (rule.fault.kind === "lost-answer" && rule.match.effect === "reads")
    return "a lost answer is a write whose answer is lost; this rule matches reads only, so it would never apply";
  if (rule.fault.kind === "stale-read" && rule.match.effect === "writes")
    return "a stale read answers a read from an earlier state; this rule matches writes only, so it would never apply";
  return undefined;
}

function valueAt(json: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current = json;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
