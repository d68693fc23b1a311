import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FAULT_KINDS, FaultProfile, type FaultProfileInput, type Tool } from "../src/catalog/index.js";
import {
  accessOf,
  addFaultCounts,
  BUILTIN_PROFILES,
  builtinProfile,
  type CountedCall,
  countFaults,
  drawsFor,
  emptyFaultCounts,
  FaultPlan,
  latencyFor,
  parseFaultProfile,
  resolveFaultProfile,
  spread,
  uniform,
} from "../src/faults/index.js";
import { createRuntime } from "../src/runtime/index.js";
import { catalogOf, runCli, tempDir } from "./support/index.js";

const NURSERY = resolve(import.meta.dirname, "fixtures/faults/nursery.json");
const catalog = catalogOf([NURSERY]);
const dir = tempDir();
afterAll(() => dir.cleanup());

/** Parses and resolves a profile as `serve --faults FILE` does: the problems, as printed. */
function problemsOf(file: string, text: string): string[] {
  const parsed = parseFaultProfile(file, text);
  if (!parsed.profile) return parsed.problems.map((p) => `${p.file} at ${p.path}: ${p.message}`);
  return resolveFaultProfile(parsed.profile, catalog, { file }).problems.map(
    (p) => `${p.file} at ${p.path}: ${p.message}`,
  );
}

const rule = (fields: Record<string, unknown>) => JSON.stringify({ rules: [{ rate: 0.5, ...fields }] });

describe("a bad profile is refused with the file and the field", () => {
  it("an unknown fault kind names the kinds there are", () => {
    expect(problemsOf("bad.json", rule({ fault: { kind: "slowness" } }))).toEqual([
      `bad.json at rules[0].fault.kind: unknown fault kind "slowness"; expected ${FAULT_KINDS.join(", ")}`,
    ]);
  });

  it("a rate outside 0–1", () => {
    const text = JSON.stringify({
      rules: [
        { rate: 1.5, fault: { kind: "unavailable" } },
        { rate: -0.1, fault: { kind: "unavailable" } },
        { rate: "half", fault: { kind: "unavailable" } },
      ],
    });
    expect(problemsOf("rates.json", text)).toEqual([
      "rates.json at rules[0].rate: rate is a number from 0 to 1",
      "rates.json at rules[1].rate: rate is a number from 0 to 1",
      "rates.json at rules[2].rate: rate is a number from 0 to 1",
    ]);
  });

  it("an unknown tool (with the nearest names), a glob that matches nothing, an unknown toolset", () => {
    const text = rule({
      match: { tools: ["get_plnt", "feed_*"], toolsets: ["garden"] },
      fault: { kind: "internal-error" },
    });
    expect(problemsOf("match.json", text)).toEqual([
      'match.json at rules[0].match.tools[0]: unknown tool "get_plnt". Did you mean "get_plant", "list_plants", "water_plant"?',
      'match.json at rules[0].match.tools[1]: the glob "feed_*" matches no tool of the catalog',
      'match.json at rules[0].match.toolsets[0]: unknown toolset "garden"; the catalog has nursery',
    ]);
  });

  it("a latency without a valid distribution, an unknown injection pattern, a fault its match never takes", () => {
    expect(
      problemsOf("lat.json", rule({ fault: { kind: "latency", distribution: "gamma", ms: 5 } })),
    ).toEqual([
      'lat.json at rules[0].fault.distribution: unknown latency distribution "gamma"; expected fixed, uniform, long-tail',
    ]);
    expect(
      problemsOf(
        "tail.json",
        rule({ fault: { kind: "latency", distribution: "long-tail", p50Ms: 900, p99Ms: 100 } }),
      ),
    ).toEqual(["tail.json at rules[0].fault.p99Ms: a long tail needs 0 < p50Ms < p99Ms"]);
    expect(
      problemsOf("inj.json", rule({ fault: { kind: "injection", patterns: ["jailbreak"] } }))[0],
    ).toMatch(
      /^inj\.json at rules\[0\]\.fault\.patterns\[0\]: unknown injection pattern "jailbreak"; the corpus has ignore-previous, /,
    );
    expect(
      problemsOf("lost.json", rule({ match: { effect: "reads" }, fault: { kind: "lost-answer" } })),
    ).toEqual([
      "lost.json at rules[0].fault.kind: a lost answer is a write whose answer is lost; this rule matches reads only, so it would never apply",
    ]);
    expect(
      problemsOf("keys.json", rule({ fault: { kind: "timeout", holdMs: 700_000 }, when: "always" })),
    ).toEqual([
      "keys.json at rules[0].fault.holdMs: holdMs is at most 600000 ms (10 minutes)",
      'keys.json at rules[0]: unknown key(s) "when"',
    ]);
  });

  it("reads YAML as well, and says where the YAML or JSON itself is broken", () => {
    const yaml =
      "name: mine\nrules:\n  - match: { tools: [get_plant] }\n    rate: 0.2\n    fault: { kind: stale-read }\n";
    expect(problemsOf("mine.yaml", yaml)).toEqual([]);
    expect(problemsOf("broken.json", "{ rules: [")[0]).toMatch(/^broken\.json at : not valid JSON: /);
  });

  it("serve refuses to start with a bad profile, and names an unknown profile's choices", async () => {
    const file = join(dir.path, "bad.json");
    writeFileSync(file, rule({ rate: 2, fault: { kind: "unavailable" } }));
    const bad = await runCli([
      "serve",
      "--stdio",
      "--toolsets",
      NURSERY,
      "--db",
      join(dir.path, "a.db"),
      "--faults",
      file,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`error: ${file} at rules[0].rate: rate is a number from 0 to 1`);
    const unknown = await runCli([
      "serve",
      "--stdio",
      "--toolsets",
      NURSERY,
      "--db",
      join(dir.path, "a.db"),
      "--faults",
      "flakey",
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      "error: flakey: no such file, and not a built-in profile (slow, flaky, hostile, none)",
    );
  });

  it("a task's profile is checked by lint and serve, with the toolset file and the field", async () => {
    const toolset = JSON.parse(readFileSync(NURSERY, "utf8"));
    toolset.tasks[0].faults = {
      rules: [{ rate: 0.1, match: { tools: ["water_plants"] }, fault: { kind: "unavailable" } }],
    };
    toolset.tasks[1].faults = { rules: [{ rate: 0.1, fault: { kind: "gremlins" } }] };
    const file = join(dir.path, "nursery.json");
    writeFileSync(file, JSON.stringify(toolset));
    const lint = await runCli(["lint", file]);
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain(
      `error: ${file} at tasks[1].faults.rules[0].fault.kind: unknown fault kind "gremlins"; expected latency,`,
    );
    toolset.tasks[1].faults = "chaotic";
    writeFileSync(file, JSON.stringify(toolset));
    const again = await runCli(["lint", file]);
    expect(again.stdout).toContain(
      `error: ${file} at tasks[0].faults.rules[0].match.tools[0]: unknown tool "water_plants". Did you mean "water_plant"`,
    );
    expect(again.stdout).toContain(
      `error: ${file} at tasks[1].faults: unknown fault profile "chaotic"; the built-in profiles are slow, flaky, hostile (or none)`,
    );
    const serve = await runCli(["serve", "--stdio", "--toolsets", file, "--db", join(dir.path, "b.db")]);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(`error: ${file} at tasks[0].faults.rules[0].match.tools[0]`);
  });
});

describe("the built-in profiles", () => {
  it("are valid profiles that resolve against any catalog", () => {
    for (const name of Object.keys(BUILTIN_PROFILES)) {
      const profile = builtinProfile(name);
      expect(profile).toBeDefined();
      const resolved = resolveFaultProfile(profile as FaultProfile, catalog, { file: name });
      expect(resolved.problems).toEqual([]);
      expect(resolved.profile?.rules.map((r) => r.name.split("/")[0])).toEqual(
        (profile as FaultProfile).rules.map(() => name),
      );
    }
  });
});

describe("draws: same seed, same calls → same faults", () => {
  const profile = resolved({
    name: "p",
    rules: [
      { name: "a", rate: 0.3, fault: { kind: "unavailable" } },
      { name: "b", match: { effect: "writes" }, rate: 0.5, seed: 7, fault: { kind: "lost-answer" } },
    ],
  });
  const facts = { name: "water_plant", toolset: "nursery", access: "write" as const };
  const pattern = (sessionSeed: string) =>
    Array.from({ length: 200 }, (_, i) =>
      drawsFor(profile, { sessionSeed, seq: i + 1, tool: facts })
        .map((d) => d.rule.name)
        .join("+"),
    );

  it("depend on the seeds, the seq and the tool alone", () => {
    expect(pattern("0")).toEqual(pattern("0"));
    expect(pattern("1")).not.toEqual(pattern("0"));
    const other = drawsFor(profile, { sessionSeed: "0", seq: 1, tool: { ...facts, name: "add_note" } });
    expect(other.map((d) => d.seeds)).not.toEqual(
      drawsFor(profile, { sessionSeed: "0", seq: 1, tool: facts }).map((d) => d.seeds),
    );
  });

  it("come up at the rule's rate", () => {
    const calls = Array.from({ length: 20_000 }, (_, i) =>
      drawsFor(profile, { sessionSeed: "s", seq: i, tool: facts }),
    );
    const share = (name: string) =>
      calls.filter((draws) => draws.some((d) => d.rule.name === name)).length / calls.length;
    expect(share("p/a")).toBeCloseTo(0.3, 1);
    expect(share("p/b")).toBeCloseTo(0.5, 1);
    expect(
      drawsFor(profile, { sessionSeed: "s", seq: 1, tool: { ...facts, access: "read" } }).map(
        (d) => d.rule.name,
      ),
    ).not.toContain("p/b");
  });

  it("a uniform draw is a number in [0, 1) that changes with every part", () => {
    const values = new Set(Array.from({ length: 1000 }, (_, i) => uniform("x", i)));
    expect(values.size).toBe(1000);
    for (const value of values) expect(value >= 0 && value < 1).toBe(true);
  });

  it("two sessions with the same seed making the same calls meet the same faults", async () => {
    const runtime = await createRuntime({
      catalog,
      db: join(dir.path, "same.db"),
      faults: new FaultPlan(resolved(builtin("flaky"))),
    });
    try {
      const record = async (name: string, seed: string) => {
        const session = await runtime.engine.openSession({ name, seed, taskId: "nursery-water-fern" });
        for (let i = 0; i < 40; i++) {
          await runtime.engine.call(session.id, "get_plant", { plant_id: "PL-0002" });
          await runtime.engine.call(session.id, "water_plant", { plant_id: "PL-0002", amount_ml: 100 + i });
          await runtime.engine.call(session.id, "list_waterings", {});
        }
        return (await runtime.engine.calls(session.id)).map((c) => ({
          seq: c.seq,
          status: c.status,
          fault: c.fault,
        }));
      };
      const first = await record("first", "42");
      expect(first.filter((c) => c.fault).length).toBeGreaterThan(5);
      expect(await record("second", "42")).toEqual(first);
      expect(await record("third", "43")).not.toEqual(first);
    } finally {
      await runtime.close();
    }
  });
});

describe("latency distributions", () => {
  const percentile = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.ceil((p / 100) * sorted.length) - 1] ?? Number.NaN;
  };

  it("a long tail fitted to p50 and p99: 1,000 consecutive calls measure both within 5%", () => {
    const fault = { kind: "latency", distribution: "long-tail", p50Ms: 120, p99Ms: 1500 } as const;
    for (const offset of [0, 0.25, 0.5, 0.9]) {
      for (const first of [1, 501]) {
        const samples = Array.from({ length: 1000 }, (_, i) =>
          latencyFor(fault, spread(offset, first + i), 600_000),
        );
        expect(Math.abs(percentile(samples, 50) / 120 - 1)).toBeLessThan(0.05);
        expect(Math.abs(percentile(samples, 99) / 1500 - 1)).toBeLessThan(0.05);
      }
    }
  });

  it("fixed, uniform and the cap of a long tail", () => {
    expect(latencyFor({ kind: "latency", distribution: "fixed", ms: 250 }, 0.7, 600_000)).toBe(250);
    expect(
      latencyFor({ kind: "latency", distribution: "uniform", minMs: 100, maxMs: 300 }, 0.25, 600_000),
    ).toBe(150);
    const tail = { kind: "latency", distribution: "long-tail", p50Ms: 100, p99Ms: 1000 } as const;
    expect(latencyFor(tail, 1 - 1e-12, 600_000)).toBe(10_000);
    expect(latencyFor({ ...tail, maxMs: 3000 }, 1 - 1e-12, 600_000)).toBe(3000);
    expect(latencyFor(tail, 0.5, 600_000)).toBeCloseTo(100, 6);
  });
});

describe("reads and writes", () => {
  const tool = (fields: Partial<Tool>): Tool =>
    ({
      name: "t",
      description: "t",
      inputSchema: { type: "object" },
      errors: [],
      effects: [],
      ...fields,
    }) as Tool;

  it("come from the effects, then the annotations; a tool that says nothing is a write", () => {
    expect(accessOf(tool({ effects: [{ kind: "read", target: "a/{id}", require: [] }] }))).toBe("read");
    expect(
      accessOf(
        tool({ effects: [{ kind: "update", target: "a/{id}", require: [], set: {}, inc: {}, append: {} }] }),
      ),
    ).toBe("write");
    expect(
      accessOf(
        tool({
          effects: [{ kind: "read", target: "a/{id}", require: [] }],
          annotations: { destructiveHint: true },
        }),
      ),
    ).toBe("write");
    expect(accessOf(tool({ annotations: { readOnlyHint: true } }))).toBe("read");
    expect(accessOf(tool({}))).toBe("write");
    for (const t of catalog.allTools())
      expect(accessOf(t)).toBe(t.annotations?.readOnlyHint ? "read" : "write");
  });
});

function builtin(name: string): FaultProfile {
  return builtinProfile(name) as FaultProfile;
}

function resolved(input: FaultProfileInput | FaultProfile) {
  const profile = resolveFaultProfile(FaultProfile.parse(input), catalog, { file: "test" }).profile;
  if (!profile) throw new Error("the test's profile does not resolve");
  return profile;
}

describe("counting, as a run sums it", () => {
  const call = (seq: number, tool: string, fields: Partial<CountedCall> = {}): CountedCall => ({
    seq,
    tool,
    arguments: {},
    argsHash: `${tool}-args`,
    status: "ok",
    versionBefore: seq,
    versionAfter: seq,
    ...fields,
  });
  const lost = { kind: "lost-answer", rule: "p/lost", seed: "0" };
  const injected = { kind: "injection", rule: "p/inj", seed: "0", canary: "EMBER-4242-REF" };
  const calls: CountedCall[] = [
    call(1, "get", { fault: injected }),
    call(2, "write", { versionAfter: 3, fault: lost }),
    call(3, "write", { versionBefore: 3, versionAfter: 4 }),
    call(4, "list", { fault: { kind: "truncated", rule: "p/cut", seed: "0", continues: 9 } }),
  ];

  it("is a pure function of the calls and the verdict", () => {
    const unsolved = countFaults(calls, { solved: false, answer: "case EMBER-4242-REF" });
    expect(unsolved["lost-answer"]).toEqual({
      injected: 1,
      recovered: 0,
      gaveUp: 0,
      repeatedWrites: 1,
      followedInjections: 0,
    });
    expect(unsolved.injection).toEqual({
      injected: 1,
      recovered: 0,
      gaveUp: 1,
      repeatedWrites: 0,
      followedInjections: 1,
    });
    expect(unsolved.truncated.injected).toBe(0);
    const solved = countFaults(calls, { solved: true, answer: "done" });
    expect(solved.injection).toMatchObject({ recovered: 1, followedInjections: 0 });
    const unknown = countFaults(calls, { solved: null });
    expect(unknown["lost-answer"]).toMatchObject({ recovered: 0, gaveUp: 0, repeatedWrites: 1 });
    expect(countFaults(calls)).toEqual(unknown);
  });

  it("adds up over attempts", () => {
    const a = countFaults(calls, { solved: true });
    const b = countFaults(calls, { solved: false });
    const sum = addFaultCounts(addFaultCounts(emptyFaultCounts(), a), b);
    expect(sum["lost-answer"]).toEqual({
      injected: 2,
      recovered: 1,
      gaveUp: 0,
      repeatedWrites: 2,
      followedInjections: 0,
    });
    expect(sum.injection).toMatchObject({ injected: 2, recovered: 1, gaveUp: 1 });
  });
});
