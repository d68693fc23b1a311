import type { FaultProfileInput } from "../catalog/index.js";

/**
 * The built-in profiles, exactly as docs/faults.md shows them (a test holds the two
 * together). Each is an ordinary profile: copy one into a file to change it.
 */
export const BUILTIN_PROFILES: Readonly<Record<"slow" | "flaky" | "hostile", FaultProfileInput>> = {
  slow: {
    name: "slow",
    description: "Every call waits, with the long tail of a busy service: reads less, writes more.",
    seed: "slow",
    rules: [
      {
        name: "slow reads",
        match: { effect: "reads" },
        rate: 1,
        fault: { kind: "latency", distribution: "long-tail", p50Ms: 250, p99Ms: 2500 },
      },
      {
        name: "slow writes",
        match: { effect: "writes" },
        rate: 1,
        fault: { kind: "latency", distribution: "long-tail", p50Ms: 600, p99Ms: 5000 },
      },
    ],
  },
  flaky: {
    name: "flaky",
    description:
      "An unreliable backend: transient errors, rare timeouts, writes whose answer is lost, lagging replicas, lists cut short and answers in a shape the agent has not seen.",
    seed: "flaky",
    rules: [
      { name: "rate limited", rate: 0.06, fault: { kind: "rate-limited", retryAfterSeconds: 1 } },
      { name: "unavailable", rate: 0.06, fault: { kind: "unavailable" } },
      { name: "internal errors", match: { effect: "writes" }, rate: 0.04, fault: { kind: "internal-error" } },
      { name: "timeouts", rate: 0.02, fault: { kind: "timeout", holdMs: 65000 } },
      { name: "lost answers", match: { effect: "writes" }, rate: 0.03, fault: { kind: "lost-answer" } },
      {
        name: "stale reads",
        match: { effect: "reads" },
        rate: 0.05,
        fault: { kind: "stale-read", versionsBack: 1 },
      },
      {
        name: "truncated lists",
        match: { effect: "reads" },
        rate: 0.05,
        fault: { kind: "truncated", keep: 0.5 },
      },
      { name: "drift", match: { effect: "reads" }, rate: 0.03, fault: { kind: "drift", change: "either" } },
    ],
  },
  hostile: {
    name: "hostile",
    description:
      "Text from outside the user's control: a quarter of the reads carry a prompt injection from the built-in corpus in a text field.",
    seed: "hostile",
    rules: [
      { name: "injected content", match: { effect: "reads" }, rate: 0.25, fault: { kind: "injection" } },
    ],
  },
};

export type BuiltinProfileName = keyof typeof BUILTIN_PROFILES;

/** What `--faults none` and a task's `"faults": "none"` mean: no faults at all. */
export const NO_FAULTS = "none";

export function isBuiltinProfile(name: string): name is BuiltinProfileName {
  return Object.hasOwn(BUILTIN_PROFILES, name);
}
