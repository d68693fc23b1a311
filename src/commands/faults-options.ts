import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Catalog, type CatalogProblem, type FaultProfile, formatProblem } from "../catalog/index.js";
import {
  BUILTIN_PROFILES,
  FaultPlan,
  isBuiltinProfile,
  NO_FAULTS,
  parseFaultProfile,
  type ResolvedProfile,
  resolveFaultSetting,
} from "../faults/index.js";

export const FAULTS_OPTIONS = { faults: { type: "string" } } as const;

export const FAULTS_HELP = `  --faults FILE|NAME   inject faults on purpose into every session: a built-in profile (${Object.keys(BUILTIN_PROFILES).join(", ")}),
                       a profile file (JSON or YAML, see docs/faults.md), or ${NO_FAULTS} (not even a task's
                       own profile); without it, sessions on a task with a profile meet that one`;

/** What `--faults` names, read (a file's profile as its text says) and checked against a catalog. */
export interface FaultChoice {
  /** "none", a built-in profile's name, or the profile a file holds: what a run stores to resume with. */
  setting: string | FaultProfile;
  /** The profile every session meets (null: none, not even a task's own). */
  profile: ResolvedProfile | null;
}

/**
 * The fault plan `--faults` asks for, checked against the catalog: every problem of a bad
 * profile is printed with its file and field, and the command refuses to start (undefined).
 */
export function faultPlanFor(value: string | undefined, catalog: Catalog): FaultPlan | undefined {
  if (value === undefined) return new FaultPlan();
  const choice = faultChoiceFor(value, catalog);
  return choice ? new FaultPlan(choice.profile) : undefined;
}

/**
 * `--faults VALUE` read and checked against the catalog; a bad one has every problem printed
 * with its file and field, and is refused (undefined).
 */
export function faultChoiceFor(value: string, catalog: Catalog): FaultChoice | undefined {
  const read = readSetting(value);
  if ("problems" in read) return refuse(read.problems);
  return checkedChoice(read.setting, catalog, read.file);
}

/**
 * A setting stored earlier (a run resumed), checked again against the catalog loaded now;
 * `where` names it in problems.
 */
export function checkedChoice(
  setting: string | FaultProfile,
  catalog: Catalog,
  where: string,
): FaultChoice | undefined {
  const resolved = resolveFaultSetting(setting, catalog, { file: where });
  if (resolved.profile === undefined) return refuse(resolved.problems);
  return { setting, profile: resolved.profile };
}

function readSetting(
  value: string,
): { setting: string | FaultProfile; file: string } | { problems: CatalogProblem[] } {
  if (value === NO_FAULTS || isBuiltinProfile(value)) return { setting: value, file: `--faults ${value}` };
  const file = resolve(value);
  if (!existsSync(file)) {
    const names = [...Object.keys(BUILTIN_PROFILES), NO_FAULTS].join(", ");
    return {
      problems: [
        {
          file: value,
          path: "",
          message: `no such file, and not a built-in profile (${names})`,
          severity: "error",
        },
      ],
    };
  }
  const parsed = parseFaultProfile(value, readFileSync(file, "utf8"));
  return parsed.profile ? { setting: parsed.profile, file: value } : { problems: parsed.problems };
}

function refuse(problems: readonly CatalogProblem[]): undefined {
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  process.stderr.write(
    "toolsim: the fault profile has errors; fix them (see docs/faults.md) and start again.\n",
  );
  return undefined;
}
