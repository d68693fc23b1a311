import { z } from "zod";

/**
 * The fault profile format: rules that inject faults into calls on purpose (see
 * docs/faults.md). It lives with the catalog's formats because a task may carry a profile;
 * faults/ resolves profiles against a catalog and applies them. schema/faults.schema.json
 * is generated from this schema for editors.
 */

/** Every kind of fault, in the order docs/faults.md lists them. */
export const FAULT_KINDS = [
  "latency",
  "rate-limited",
  "unavailable",
  "internal-error",
  "timeout",
  "lost-answer",
  "truncated",
  "stale-read",
  "drift",
  "injection",
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** The longest any injected wait may last: a fault slows an agent down, it never stalls a session. */
export const MAX_FAULT_WAIT_MS = 600_000;

const ID_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;
const waitMs = (what: string) =>
  z
    .number()
    .min(0, `${what} cannot be negative`)
    .max(MAX_FAULT_WAIT_MS, `${what} is at most ${MAX_FAULT_WAIT_MS} ms (10 minutes)`);

const FixedLatency = z
  .object({
    kind: z.literal("latency"),
    distribution: z.literal("fixed"),
    ms: waitMs("ms").describe("Every matching call waits this long."),
  })
  .strict();
const UniformLatency = z
  .object({
    kind: z.literal("latency"),
    distribution: z.literal("uniform"),
    minMs: waitMs("minMs"),
    maxMs: waitMs("maxMs"),
  })
  .strict()
  .refine((f) => f.minMs <= f.maxMs, { message: "minMs must not be above maxMs", path: ["maxMs"] });
const LongTailLatency = z
  .object({
    kind: z.literal("latency"),
    distribution: z.literal("long-tail"),
    p50Ms: waitMs("p50Ms").describe("Median wait."),
    p99Ms: waitMs("p99Ms").describe("99th percentile of the wait; log-normal between and beyond."),
    maxMs: waitMs("maxMs")
      .optional()
      .describe("No wait is longer than this (default: ten times p99, at most 10 minutes)."),
  })
  .strict()
  .refine((f) => f.p50Ms > 0 && f.p50Ms < f.p99Ms, {
    message: "a long tail needs 0 < p50Ms < p99Ms",
    path: ["p99Ms"],
  });

export const LatencyFault = z
  .discriminatedUnion("distribution", [FixedLatency, UniformLatency, LongTailLatency])
  .describe("The answer is delayed; a client that asked for progress hears from the call meanwhile.");

const RateLimitedFault = z
  .object({
    kind: z.literal("rate-limited"),
    retryAfterSeconds: z
      .number()
      .min(0)
      .max(3600)
      .default(1)
      .describe("The hint the error gives: retry after this many seconds."),
  })
  .strict()
  .describe("A 429 error with a retry-after hint; nothing is executed.");
const UnavailableFault = z
  .object({ kind: z.literal("unavailable") })
  .strict()
  .describe("A 503 error; nothing is executed.");
const InternalErrorFault = z
  .object({ kind: z.literal("internal-error") })
  .strict()
  .describe("A 500 error; nothing is executed.");
const TimeoutFault = z
  .object({
    kind: z.literal("timeout"),
    holdMs: z
      .number()
      .int()
      .min(1, "holdMs is at least 1")
      .max(MAX_FAULT_WAIT_MS, `holdMs is at most ${MAX_FAULT_WAIT_MS} ms (10 minutes)`)
      .default(65_000)
      .describe(
        "How long the answer is held: a client that gives up earlier gets no answer; one that waits gets a 504 error. Default 65 s, past the MCP SDK's 60 s.",
      ),
  })
  .strict()
  .describe("No answer before the client's deadline; nothing is executed.");
const LostAnswerFault = z
  .object({ kind: z.literal("lost-answer") })
  .strict()
  .describe("Writes only: the write is applied and recorded, and the client gets a 503 error instead.");
const TruncatedFault = z
  .object({
    kind: z.literal("truncated"),
    keep: z
      .number()
      .gt(0, "keep is a fraction above 0")
      .lt(1, "keep is a fraction below 1")
      .default(0.5)
      .describe("The share of the list's items that comes back."),
  })
  .strict()
  .describe(
    "A list comes back cut short: with a continuation where the tool takes a cursor, silently where it does not.",
  );
const StaleReadFault = z
  .object({
    kind: z.literal("stale-read"),
    versionsBack: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(1)
      .describe("How many changes of the state the answer lags behind."),
  })
  .strict()
  .describe("Reads only: the answer comes from an earlier state version of the session.");
const DriftFault = z
  .object({
    kind: z.literal("drift"),
    change: z
      .enum(["omit-optional", "reformat", "either"])
      .default("either")
      .describe("omit-optional: an optional field is left out; reformat: a date-time in another valid form."),
  })
  .strict()
  .describe("The answer still fits the output schema, in a shape the agent has not seen.");
const InjectionFault = z
  .object({
    kind: z.literal("injection"),
    patterns: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe("Ids of the built-in injection patterns to use (default: all of them)."),
  })
  .strict()
  .describe("A text field of the answer carries instructions with a canary (see docs/faults.md).");

export const Fault = z
  .discriminatedUnion("kind", [
    LatencyFault,
    RateLimitedFault,
    UnavailableFault,
    InternalErrorFault,
    TimeoutFault,
    LostAnswerFault,
    TruncatedFault,
    StaleReadFault,
    DriftFault,
    InjectionFault,
  ])
  .meta({ id: "Fault" });
export type Fault = z.infer<typeof Fault>;

const seed = z
  .union([z.string().min(1), z.number().int()])
  .transform(String)
  .describe("Seed of the rule's draws: same seed, same calls → same faults.");

export const FaultMatch = z
  .object({
    tools: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe('Tool names or globs ("get_*", "*_order"; * is any run of characters, ? one character).'),
    toolsets: z
      .array(z.string().regex(ID_PATTERN, "toolset ids are lowercase letters, digits, _ . -"))
      .min(1)
      .optional()
      .describe("Toolset ids."),
    effect: z
      .enum(["reads", "writes"])
      .optional()
      .describe(
        "reads: tools whose effects only read (or, without effects, annotated readOnlyHint); writes: every other tool.",
      ),
  })
  .strict()
  .describe("Which calls the rule applies to: all of what is given must hold; empty matches every tool.");
export type FaultMatch = z.infer<typeof FaultMatch>;

export const FaultRule = z
  .object({
    name: z.string().min(1).optional().describe("How reports and _meta name the rule (default: its number)."),
    match: FaultMatch.default({}),
    rate: z
      .number({ error: "rate is a number from 0 to 1" })
      .min(0, "rate is a number from 0 to 1")
      .max(1, "rate is a number from 0 to 1")
      .describe("Share of the matching calls that get the fault (0 to 1)."),
    seed: seed.optional(),
    fault: Fault,
  })
  .strict();
export type FaultRule = z.infer<typeof FaultRule>;

export const FaultProfile = z
  .object({
    $schema: z.string().optional(),
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    seed: seed.optional().describe("Seed of every rule that names none (default 0)."),
    rules: z
      .array(FaultRule)
      .describe("Tried in order for each call; the first whose draw comes up and that applies decides."),
  })
  .strict()
  .meta({ id: "FaultProfile" });
export type FaultProfile = z.infer<typeof FaultProfile>;
/** The shape authors write (defaults not yet applied). */
export type FaultProfileInput = z.input<typeof FaultProfile>;

/** The fault profile format as JSON Schema (draft 2020-12), for editors; `npm run schema` writes it. */
export function faultProfileJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(FaultProfile, {
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  });
  return {
    title: "toolsim fault profile",
    description:
      "Faults injected on purpose into simulated calls: latency, transient errors, timeouts, lost answers, truncated lists, stale reads, drift and prompt injections (see docs/faults.md).",
    ...schema,
  };
}

/**
 * A problem zod found in a fault profile, in words an author acts on: an unknown fault kind
 * or distribution names the choices, a missing field says what it expected.
 */
export function describeFaultIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === "invalid_union" && "note" in issue && issue.note === "No matching discriminator") {
    const discriminator = "discriminator" in issue ? String(issue.discriminator) : "kind";
    const options = "options" in issue && Array.isArray(issue.options) ? issue.options.map(String) : [];
    const what = discriminator === "kind" ? "fault kind" : `latency ${discriminator}`;
    const expected = options.length > 0 ? `; expected ${options.join(", ")}` : "";
    return `unknown ${what} ${JSON.stringify(value)}${expected}`;
  }
  if (issue.code === "unrecognized_keys")
    return `unknown key(s) ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if (issue.code === "invalid_type" && value === undefined)
    return `missing required field (expected ${issue.expected})`;
  return issue.message;
}
