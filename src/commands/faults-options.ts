import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type Catalog, type CatalogProblem, formatProblem } from "../catalog/index.js";
import {
  BUILTIN_PROFILES,
  FaultPlan,
  isBuiltinProfile,
  NO_FAULTS,
  parseFaultProfile,
  resolveFaultSetting,
} from "../faults/index.js";

export const FAULTS_OPTIONS = { faults: { type: "string" } } as const;

export const FAULTS_HELP = `  --faults FILE|NAME   inject faults on purpose into every session: a built-in profile (${Object.keys(BUILTIN_PROFILES).join(", ")}),
                       a profile file (JSON or YAML, see docs/faults.md), or ${NO_FAULTS} (not even a task's
                       own profile); without it, sessions on a task with a profile meet that one`;

/**
 * The fault plan `--faults` asks for, checked against the catalog: every problem of a bad
 * profile is printed with its file and field, and the command refuses to start (undefined).
 */
export function faultPlanFor(value: string | undefined, catalog: Catalog): FaultPlan | undefined {
  if (value === undefined) return new FaultPlan();
  const setting = readSetting(value);
  if ("problems" in setting) return refuse(setting.problems);
  const resolved = resolveFaultSetting(setting.profile, catalog, { file: setting.file });
  if (resolved.profile === undefined) return refuse(resolved.problems);
  return new FaultPlan(resolved.profile);
}

function readSetting(
  value: string,
): { profile: Parameters<typeof resolveFaultSetting>[0]; file: string } | { problems: CatalogProblem[] } {
  if (value === NO_FAULTS || isBuiltinProfile(value)) return { profile: value, file: `--faults ${value}` };
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
  return parsed.profile ? { profile: parsed.profile, file: value } : { problems: parsed.problems };
}

function refuse(problems: readonly CatalogProblem[]): undefined {
  for (const problem of problems) process.stderr.write(`${formatProblem(problem)}\n`);
  process.stderr.write(
    "toolsim: the fault profile has errors; fix them (see docs/faults.md) and start again.\n",
  );
  return undefined;
}
