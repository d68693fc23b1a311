import type { Tool, Toolset } from "../catalog/index.js";
import type { Engine } from "../engine/index.js";
import { addUsage, zeroUsage } from "../llm/index.js";
import type { Usage } from "../store/index.js";
import { AUDIT_MODES, type AuditCase, type AuditMode, auditCases } from "./audit-cases.js";
import { checkCase } from "./audit-check.js";
import type { PlausibilityJudge } from "./audit-judge.js";

/**
 * The tool audit: every tool is called in the four stress modes through the engine (with
 * whatever simulator it runs), each answer is checked, and each tool gets a reliability:
 * the share of decided checks it passed. A check nobody could decide (a new-input answer
 * with no judge configured) is "not judged" and left out of the share.
 */

export type CaseVerdict = "pass" | "fail" | "not-judged";

export interface AuditCaseReport {
  mode: AuditMode;
  label: string;
  args: Record<string, unknown>;
  /** How the engine answered: ok, error (with its code) or rejected (with its finding codes). */
  answer: string;
  verdict: CaseVerdict;
  /** Who decided: the automatic checks, the judge, or nobody. */
  decidedBy: "checks" | "judge" | "none";
  reasons: string[];
}

export interface ModeTally {
  passed: number;
  failed: number;
  notJudged: number;
}

export interface ToolAudit {
  toolset: string;
  tool: string;
  passed: number;
  failed: number;
  notJudged: number;
  /** passed / (passed + failed); null when nothing was decided. */
  reliability: number | null;
  modes: Record<AuditMode, ModeTally>;
  cases: AuditCaseReport[];
}

export interface AuditReport {
  simulator: string;
  judge: boolean;
  perMode: number;
  tools: ToolAudit[];
  usage: Usage;
}

export interface AuditOptions {
  /** Cases per mode and tool. */
  perMode: number;
  /** Audit only these tool names. */
  tools?: readonly string[];
  judge?: PlausibilityJudge;
  /** Called after each tool, e.g. for a progress line. */
  onTool?: (done: number, total: number, audit: ToolAudit) => void;
}

export async function auditToolsets(
  engine: Engine,
  toolsets: readonly Toolset[],
  options: AuditOptions,
): Promise<AuditReport> {
  const wanted = options.tools?.length ? new Set(options.tools) : undefined;
  const targets = toolsets.flatMap((toolset) =>
    toolset.tools.filter((t) => !wanted || wanted.has(t.name)).map((tool) => ({ toolset, tool })),
  );
  const usage = zeroUsage();
  const tools: ToolAudit[] = [];
  for (const { toolset, tool } of targets) {
    const cases: AuditCaseReport[] = [];
    for (const auditCase of await auditCases(toolset, tool, options.perMode)) {
      const ran = await runCase(engine, toolset, tool, auditCase, options.judge);
      cases.push(ran.report);
      Object.assign(usage, addUsage(usage, ran.usage));
    }
    const audit = tally(toolset.id, tool.name, cases);
    tools.push(audit);
    options.onTool?.(tools.length, targets.length, audit);
  }
  return {
    simulator: engine.simulatorName,
    judge: options.judge !== undefined,
    perMode: options.perMode,
    tools,
    usage,
  };
}

async function runCase(
  engine: Engine,
  toolset: Toolset,
  tool: Tool,
  auditCase: AuditCase,
  judge: PlausibilityJudge | undefined,
): Promise<{ report: AuditCaseReport; usage?: Usage }> {
  const session = await engine.openSession({ seed: "audit" });
  try {
    await engine.resetSession(session.id, auditCase.state, {
      reason: `audit ${tool.name}: ${auditCase.label}`,
      scope: { toolsets: [toolset.id] },
    });
    const before = (await engine.state(session.id)).state.toJSON();
    const outcome = await engine.call(session.id, tool.name, auditCase.args);
    const after = (await engine.state(session.id)).state.toJSON();
    const checked = await checkCase(tool, auditCase, { outcome, before, after });
    const base = {
      mode: auditCase.mode,
      label: auditCase.label,
      args: auditCase.args,
      answer: answerOf(outcome),
    };
    if (checked.verdict !== "pending") {
      return {
        report: { ...base, verdict: checked.verdict, decidedBy: "checks", reasons: checked.reasons },
        usage: outcome.usage,
      };
    }
    if (!judge) {
      return {
        report: { ...base, verdict: "not-judged", decidedBy: "none", reasons: ["no judge model configured"] },
        usage: outcome.usage,
      };
    }
    const judged = await judge.judge({ tool, args: auditCase.args, outcome, state: before });
    const usage = addUsage(outcome.usage, judged.usage);
    if (!judged.verdict) {
      return {
        report: {
          ...base,
          verdict: "not-judged",
          decidedBy: "none",
          reasons: [`the judge gave no verdict: ${judged.problem ?? "unknown problem"}`],
        },
        usage,
      };
    }
    return {
      report: {
        ...base,
        verdict: judged.verdict.plausible ? "pass" : "fail",
        decidedBy: "judge",
        reasons: judged.verdict.reasons,
      },
      usage,
    };
  } finally {
    engine.release(session.id);
  }
}

function answerOf(outcome: Awaited<ReturnType<Engine["call"]>>): string {
  if (outcome.status === "ok") return "ok";
  if (outcome.status === "error") return `error ${outcome.failure?.code ?? ""}`.trim();
  const codes = [...new Set(outcome.findings.filter((f) => f.severity === "error").map((f) => f.code))];
  return `rejected ${codes.join(",")}`;
}

function tally(toolset: string, tool: string, cases: AuditCaseReport[]): ToolAudit {
  const modes = Object.fromEntries(
    AUDIT_MODES.map((m) => [m, { passed: 0, failed: 0, notJudged: 0 }]),
  ) as Record<AuditMode, ModeTally>;
  for (const c of cases) {
    const mode = modes[c.mode];
    if (c.verdict === "pass") mode.passed++;
    else if (c.verdict === "fail") mode.failed++;
    else mode.notJudged++;
  }
  const passed = cases.filter((c) => c.verdict === "pass").length;
  const failed = cases.filter((c) => c.verdict === "fail").length;
  const notJudged = cases.length - passed - failed;
  const decided = passed + failed;
  return {
    toolset,
    tool,
    passed,
    failed,
    notJudged,
    reliability: decided > 0 ? passed / decided : null,
    modes,
    cases,
  };
}
