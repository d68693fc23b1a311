import type { Catalog } from "../catalog/index.js";
import { spread, uniform } from "./draw.js";
import { type ResolvedProfile, type ResolvedRule, resolveFaultSetting, type ToolFacts } from "./profile.js";

/** One call, as the decision sees it. */
export interface CallKey {
  /** The session's seed. */
  sessionSeed: string;
  seq: number;
  tool: ToolFacts;
}

/** A rule whose draw came up for a call: it injects its fault if the fault applies to the call. */
export interface Draw {
  rule: ResolvedRule;
  /** The seeds of this draw: every further choice for the call (a field, a pattern) draws from them. */
  seeds: ReadonlyArray<string | number>;
  /** The call's point of the evenly spread sequence (latency samples). */
  spread: number;
}

/**
 * The rules whose draws come up for a call, in the profile's order: each matching rule
 * draws once from (its seed, the session's seed, the seq, the tool) against its rate. The
 * first of them whose fault applies to the call decides; the rest do nothing.
 */
export function drawsFor(profile: ResolvedProfile, call: CallKey): Draw[] {
  const draws: Draw[] = [];
  for (const rule of profile.rules) {
    if (rule.rate <= 0 || !rule.matches(call.tool)) continue;
    const seeds = [rule.seed, call.sessionSeed, call.seq, call.tool.name, rule.index];
    if (rule.rate < 1 && uniform(...seeds, "rate") >= rule.rate) continue;
    draws.push({
      rule,
      seeds,
      spread: spread(uniform(rule.seed, call.sessionSeed, rule.index, "spread"), call.seq),
    });
  }
  return draws;
}

/** A session as the plan looks it up. */
export interface SessionKey {
  id: string;
  taskId: string | null;
}

/**
 * Which profile each session's calls meet: one assigned to the session (an attempt of
 * `toolsim run`), else the one the server was started with (`--faults`), else the task's
 * own. `--faults none` turns off every profile, the tasks' included. Task profiles are
 * resolved once per catalog (a reloaded catalog resolves them again).
 */
export class FaultPlan {
  private readonly assigned = new Map<string, ResolvedProfile | null>();
  private readonly tasks = new WeakMap<Catalog, Map<string, ResolvedProfile | null>>();

  /** `served`: the profile of every session (null: none, not even a task's); undefined: the tasks' own. */
  constructor(private readonly served?: ResolvedProfile | null) {}

  /** Gives one session a profile of its own (null: no faults), whatever the server or its task says. */
  assign(sessionId: string, profile: ResolvedProfile | null): void {
    this.assigned.set(sessionId, profile);
  }

  profileFor(session: SessionKey, catalog: Catalog): ResolvedProfile | undefined {
    const own = this.assigned.get(session.id);
    if (own !== undefined) return own ?? undefined;
    if (this.served !== undefined) return this.served ?? undefined;
    return session.taskId === null ? undefined : (this.taskProfile(catalog, session.taskId) ?? undefined);
  }

  private taskProfile(catalog: Catalog, taskId: string): ResolvedProfile | null {
    let known = this.tasks.get(catalog);
    if (!known) {
      known = new Map();
      this.tasks.set(catalog, known);
    }
    const cached = known.get(taskId);
    if (cached !== undefined) return cached;
    const found = catalog.task(taskId);
    const setting = found?.task.faults;
    // a task's profile was checked when the catalog was loaded (serve and lint refuse a bad one)
    const resolved =
      found && setting !== undefined
        ? (resolveFaultSetting(setting, catalog, { file: catalog.files.get(found.toolset.id) ?? "" })
            .profile ?? null)
        : null;
    known.set(taskId, resolved);
    return resolved;
  }
}
