import type { Toolset } from "../catalog/index.js";
import { MAX_SEED_COUNT, type SeededCollection, seedState } from "../seed/index.js";
import { UsageError } from "./command.js";

/** `--seed-state N` and `--seed S`, shared by every importer. */
export const SEED_OPTIONS = {
  "seed-state": { type: "string" },
  seed: { type: "string" },
} as const;

/** The options' help, with descriptions starting at `column` (the command's own help layout). */
export function seedHelp(column: number): string {
  const entries: Array<[string, string[]]> = [
    [
      "--seed-state N",
      [
        "fill every collection the schemas describe (and the state leaves empty)",
        `with N entities (0 to ${MAX_SEED_COUNT}; 0 is the empty world), written as the`,
        "toolset's starting state: values fit the record schema, keys follow the id",
        "scheme, fields naming another collection's id point at its entities",
      ],
    ],
    ["--seed S", ["with --seed-state: the same seed writes the same entities (default 0)"]],
  ];
  return entries
    .flatMap(([flag, lines]) =>
      lines.map((line, i) => `${(i === 0 ? `  ${flag}` : "").padEnd(column)}${line}`),
    )
    .join("\n");
}

export interface SeedRequest {
  count: number;
  seed: string;
}

/** The seeding a command line asks for, or undefined; a count out of range is a usage error. */
export function seedRequestOf(values: { "seed-state"?: string; seed?: string }): SeedRequest | undefined {
  const text = values["seed-state"];
  if (text === undefined) {
    if (values.seed !== undefined)
      throw new UsageError("--seed chooses the entities of --seed-state N; give both");
    return undefined;
  }
  const count = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!(count >= 0 && count <= MAX_SEED_COUNT))
    throw new UsageError(
      `--seed-state takes a whole number of entities per collection from 0 to ${MAX_SEED_COUNT}; got "${text}"`,
    );
  return { count, seed: values.seed ?? "0" };
}

export interface SeedOutcome {
  toolset: string;
  collections: SeededCollection[];
}

/** Every toolset with its world seeded, and what was seeded where. */
export function seedToolsets(
  toolsets: readonly Toolset[],
  request: SeedRequest,
): { toolsets: Toolset[]; outcomes: SeedOutcome[] } {
  const outcomes: SeedOutcome[] = [];
  const seeded = toolsets.map((toolset) => {
    const { state, collections } = seedState(toolset, request);
    outcomes.push({ toolset: toolset.id, collections });
    return { ...toolset, state };
  });
  return { toolsets: seeded, outcomes };
}

/** One line per toolset: which collections got how many entities, which were kept, what fits badly. */
export function seedLines(outcomes: readonly SeedOutcome[], request: SeedRequest): string[] {
  return outcomes.map(({ toolset, collections }) => {
    if (collections.length === 0) return `${toolset}: no collection described by the schemas; nothing seeded`;
    const parts = collections.map((c) => {
      if (c.kept) return `${c.name} kept (${c.keys.length} from the state)`;
      const range = c.keys.length > 0 ? ` ${c.keyField} ${c.keys[0]}…${c.keys.at(-1)}` : "";
      const short = c.keys.length < request.count ? ` (the key's schema allows only ${c.keys.length})` : "";
      const refs = Object.entries(c.references).map(([field, target]) => `${field} → ${target}`);
      const misfit =
        c.misfits.length > 0 ? `; ${c.misfits.length} do not fit the schema, first ${c.misfits[0]}` : "";
      return `${c.name}: ${c.keys.length}${range}${short}${refs.length ? `, ${refs.join(", ")}` : ""}${misfit}`;
    });
    return `${toolset}: seeded ${parts.join("; ")} (seed ${request.seed})`;
  });
}
