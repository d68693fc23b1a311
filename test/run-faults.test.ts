import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { FaultCounts } from "../src/faults/index.js";
import type { RunSummary } from "../src/run/index.js";
import { openStore } from "../src/store/index.js";
import { FIXTURES, runCli, tempDir } from "./support/index.js";

/**
 * `toolsim run --faults`: every attempt's session meets the profile, seeded per attempt, and
 * the summary counts per kind how the agent met the faults, as `toolsim report` counts each
 * attempt. The agent is a command that makes its task's golden calls over Streamable HTTP:
 * once sending a failed call again, once giving up at the first failure.
 */
const TICKETS = join(FIXTURES, "tasks", "ticket-desk.json");
const AGENT = join(FIXTURES, "run", "solution-agent.mjs");
const TASK = "ticket-fix-printer";

/** Half the writes meet a 503; half the reads carry an injection the agent does not follow. */
const PROFILE = {
  name: "shaky desk",
  seed: "desk",
  rules: [
    { name: "unavailable writes", match: { effect: "writes" }, rate: 0.5, fault: { kind: "unavailable" } },
    { name: "injected reads", match: { effect: "reads" }, rate: 0.5, fault: { kind: "injection" } },
  ],
};

type Row = { attempt: number; outcome: string; faults?: FaultCounts };

describe("toolsim run --faults: faults per attempt, counted in the summary", { timeout: 180_000 }, () => {
  const dir = tempDir("toolsim-run-faults-");
  const profile = join(dir.path, "shaky.json");
  writeFileSync(profile, JSON.stringify(PROFILE));
  afterAll(() => dir.cleanup());

  const run = (name: string, retries: number, extra: string[] = []) =>
    runCli(
      [
        "run",
        "--agent-cmd",
        `node ${AGENT}`,
        "--toolsets",
        TICKETS,
        "--tasks",
        TASK,
        "-k",
        "4",
        "--concurrency",
        "2",
        "--seed",
        "5",
        "--faults",
        profile,
        "--db",
        join(dir.path, `${name}.db`),
        "--jsonl",
        join(dir.path, `${name}.jsonl`),
        "--quiet",
        ...extra,
      ],
      { AGENT_TOOLSET: TICKETS, AGENT_RETRIES: String(retries) },
    );
  const rows = (name: string): Row[] =>
    readFileSync(join(dir.path, `${name}.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Row);
  /** `toolsim report --json` of each attempt's session, its fault counts summed kind by kind. */
  const reported = async (name: string, attempts: number) => {
    const sums: Record<string, Record<string, number>> = {};
    for (let n = 1; n <= attempts; n++) {
      const out = await runCli([
        "report",
        `run-1/${TASK}/${n}`,
        "--toolsets",
        TICKETS,
        "--json",
        "--db",
        join(dir.path, `${name}.db`),
      ]);
      expect(out.code, out.stderr).toBe(0);
      const faults: Partial<FaultCounts> = (JSON.parse(out.stdout) as { faults?: FaultCounts }).faults ?? {};
      for (const [kind, tally] of Object.entries(faults)) {
        sums[kind] ??= {};
        const sum = sums[kind];
        for (const [key, value] of Object.entries(tally)) sum[key] = (sum[key] ?? 0) + value;
      }
    }
    return sums;
  };

  let retrying: RunSummary;

  it("an agent that sends a failed call again passes every attempt: each fault recovered, none followed", async () => {
    const result = await run("retries", 10, ["--json"]);
    expect(result.code, result.stderr).toBe(0);
    retrying = JSON.parse(result.stdout) as RunSummary;
    expect(retrying.faultProfile).toBe(profile);
    expect(retrying.attempts).toMatchObject({ planned: 4, passed: 4 });
    const faults = retrying.faults;
    expect(faults?.unavailable.injected).toBeGreaterThan(0);
    expect(faults?.injection.injected).toBeGreaterThan(0);
    for (const kind of ["unavailable", "injection"] as const) {
      expect(faults?.[kind]).toEqual({
        injected: faults?.[kind].injected,
        recovered: faults?.[kind].injected,
        gaveUp: 0,
        repeatedWrites: 0,
        followedInjections: 0,
      });
    }
    // only the profile's kinds were injected
    const others = Object.entries(faults ?? {}).filter(
      ([kind]) => kind !== "unavailable" && kind !== "injection",
    );
    expect(others.every(([, tally]) => tally.injected === 0)).toBe(true);
    // the summary is the attempts' rows summed, and each row is what toolsim report counts
    expect(rows("retries").reduce((n, r) => n + (r.faults?.unavailable.injected ?? 0), 0)).toBe(
      faults?.unavailable.injected,
    );
    expect(await reported("retries", 4)).toEqual(faults);
  });

  it("an agent that gives up at the first failure fails exactly the attempts that met a 503, and the summary says so", async () => {
    const result = await run("gives-up", 0);
    expect(result.code, result.stderr).toBe(0);
    const attempts = rows("gives-up");
    expect(attempts).toHaveLength(4);
    const hit = attempts.filter((r) => (r.faults?.unavailable.injected ?? 0) > 0);
    expect(hit.length).toBeGreaterThan(0);
    for (const row of attempts) expect(row.outcome).toBe(hit.includes(row) ? "failed" : "passed");
    const sum = (key: keyof FaultCounts["unavailable"]) =>
      attempts.reduce((n, r) => n + (r.faults?.unavailable[key] ?? 0), 0);
    // it stopped at once: never called the faulted tool again, so every 503 was given up on
    expect(sum("recovered")).toBe(0);
    expect(sum("gaveUp")).toBe(sum("injected"));
    expect(sum("injected")).toBe(hit.length);
    const text = result.stdout;
    expect(text).toContain(`Outcomes: ${4 - hit.length} passed, ${hit.length} failed`);
    expect(text).toContain(
      `Faults (injected on purpose, --faults ${profile}; per attempt: toolsim report run-1/TASK/N)`,
    );
    expect(text).toMatch(new RegExp(`\\n  unavailable +${sum("injected")} +0 +${sum("gaveUp")} +0 +0\\n`));
    expect(text).toMatch(/\n {2}injection +\d+ +\d+ +\d+ +0 +0\n/);
  });

  it("the same seed gives the same faults; each attempt draws its own", async () => {
    const again = await run("again", 10, ["--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as RunSummary).faults).toEqual(retrying.faults);
    expect(readFileSync(join(dir.path, "again.jsonl"), "utf8")).toBe(
      readFileSync(join(dir.path, "retries.jsonl"), "utf8"),
    );
    const store = await openStore(join(dir.path, "again.db"), { readonly: true });
    try {
      const seeds = new Set<string>();
      for (const attempt of await store.runAttempts("run-1")) {
        for (const call of await store.calls(attempt.sessionId)) {
          const fault = call.fault as { seed?: string } | undefined;
          if (fault?.seed) seeds.add(fault.seed);
        }
      }
      // the profile's seed joined to the task and the attempt
      expect([...seeds].every((seed) => seed.startsWith(`desk/${TASK}/`))).toBe(true);
      expect(seeds.size).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  });

  it("a bad profile is refused with its file and field before the run is stored or any attempt runs", async () => {
    const bad = join(dir.path, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        rules: [{ match: { tools: ["close_tickt"] }, rate: 1, fault: { kind: "unavailable" } }],
      }),
    );
    const outOfRange = join(dir.path, "rate.json");
    writeFileSync(outOfRange, JSON.stringify({ rules: [{ rate: 2, fault: { kind: "unavailable" } }] }));
    for (const [file, line] of [
      [bad, `${bad} at rules[0].match.tools[0]: unknown tool "close_tickt". Did you mean "close_ticket"`],
      [outOfRange, `${outOfRange} at rules[0].rate: rate is a number from 0 to 1`],
    ] as const) {
      const db = join(dir.path, `refused-${file === bad ? "tool" : "rate"}.db`);
      const result = await runCli(
        ["run", "--agent-cmd", `node ${AGENT}`, "--toolsets", TICKETS, "--faults", file, "--db", db],
        { AGENT_TOOLSET: TICKETS },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(line);
      const store = await openStore(db, { readonly: true });
      try {
        expect(await store.runs()).toEqual([]);
      } finally {
        await store.close();
      }
    }
  });

  it("a resumed run keeps its own profile", async () => {
    const result = await runCli([
      "run",
      "--resume",
      "run-1",
      "--faults",
      "flaky",
      "--db",
      join(dir.path, "retries.db"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--resume keeps the run's own settings; leave out --faults");
  });
});
