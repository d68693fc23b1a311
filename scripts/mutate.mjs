#!/usr/bin/env node
// npm run mutate [-- ROOM...] [STRYKER OPTION...]   (docs/testing.md)
//   no room: every room, one after the other, each against its own tests
//   --mutate FILES: one Stryker run on those files, against every in-process test
//   ROOM --mutate FILES: those files of the room, against the room's tests
//   --scores: only the scores of the last runs
// Then the score per room, from the report every run keeps up to date.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { ROOMS } from "../stryker.config.mjs";

const REPORT = "reports/mutation/mutation.json";
const roomReport = (name) => `reports/mutation/${name}.json`;

const args = process.argv.slice(2);
const firstOption = args.findIndex((arg) => arg.startsWith("-"));
const named = firstOption < 0 ? args : args.slice(0, firstOption);
const options = firstOption < 0 ? [] : args.slice(firstOption);
const unknown = named.filter((name) => !(name in ROOMS));
if (unknown.length > 0) {
  console.error(`unknown room ${unknown.join(", ")}; the rooms are ${Object.keys(ROOMS).join(", ")}`);
  process.exit(2);
}

if (args.includes("--scores")) {
  printScores();
  process.exit(0);
}

const stryker = (extra, env = {}) =>
  spawnSync("npx", ["stryker", "run", ...extra, ...options], {
    stdio: "inherit",
    env: { ...process.env, ...env },
  }).status;

let failed = false;
const some = options.includes("--mutate") || options.includes("-m");
if (some && named.length === 0) failed = stryker([]) !== 0;
else if (some) {
  // some files of a room, against the room's tests; the room's report and results stay as they were
  for (const name of named) {
    const room = ROOMS[name];
    const env = room.sharedModules ? { TOOLSIM_MUTATE_SHARED_MODULES: "1" } : {};
    failed = stryker(["--testFiles", room.tests.join(",")], env) !== 0 || failed;
  }
} else {
  for (const name of named.length > 0 ? named : Object.keys(ROOMS)) {
    const room = ROOMS[name];
    console.log(`\n── mutation testing: ${name} ──`);
    const status = stryker(
      [
        "--mutate",
        room.mutate.join(","),
        "--testFiles",
        room.tests.join(","),
        "--incrementalFile",
        `reports/mutation/${name}.incremental.json`,
      ],
      // vitest.mutate.config.ts: the room's test files share one load of src/ per mutant
      room.sharedModules ? { TOOLSIM_MUTATE_SHARED_MODULES: "1" } : {},
    );
    // every run rewrites mutation.json with its own files only: keep the room's copy, and
    // only from a run that finished (a failed one leaves the previous room's report there)
    if (status === 0 && existsSync(REPORT)) copyFileSync(REPORT, roomReport(name));
    failed = status !== 0 || failed;
  }
}
printScores();
process.exit(failed ? 1 : 0);

/** Mutation score per room: killed (and timed out) over all mutants that count. */
function printScores() {
  const rows = Object.entries(ROOMS).map(([name, room]) => {
    const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0 };
    const path = existsSync(roomReport(name)) ? roomReport(name) : REPORT;
    const report = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : { files: {} };
    for (const [file, { mutants }] of Object.entries(report.files)) {
      if (!room.mutate.some((glob) => matches(glob, file))) continue;
      for (const mutant of mutants) if (mutant.status in counts) counts[mutant.status]++;
    }
    const caught = counts.Killed + counts.Timeout;
    const total = caught + counts.Survived + counts.NoCoverage;
    const score = total === 0 ? "-" : `${((100 * caught) / total).toFixed(1)}%`;
    return [name, score, caught, counts.Survived, counts.NoCoverage, counts.Ignored];
  });
  console.log("\nroom        score   killed  survived  no coverage  ignored (static)");
  for (const [name, score, caught, survived, none, ignored] of rows)
    console.log(
      `${name.padEnd(10)} ${String(score).padStart(6)} ${String(caught).padStart(8)} ${String(survived).padStart(9)} ${String(none).padStart(12)} ${String(ignored).padStart(8)}`,
    );
}

/** `src/x/**\/*.ts` and plain paths, as the rooms write them. */
function matches(glob, file) {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*\*\//g, "(.*/)?")
    .replace(/\*/g, "[^/]*");
  return new RegExp(`(^|/)${pattern}$`).test(file);
}
