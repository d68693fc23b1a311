/**
 * ToolScan's error patterns. Every finding carries one, so reports can count them.
 *   IFN unknown function name · IAN unknown argument name · IAT wrong argument type
 *   IAV wrong value · IFE malformed call · RAC repeated identical call · IAC insufficient calls
 */
export type FindingCode = "IFN" | "IAN" | "IAT" | "IAV" | "IFE" | "RAC" | "IAC";

export const FINDING_CODES: readonly FindingCode[] = ["IFN", "IAN", "IAT", "IAV", "IFE", "RAC", "IAC"];

export const FINDING_NAMES: Record<FindingCode, string> = {
  IFN: "unknown tool name",
  IAN: "unknown argument name",
  IAT: "wrong argument type",
  IAV: "invalid argument value",
  IFE: "malformed call",
  RAC: "repeated identical call",
  IAC: "insufficient calls",
};

export interface Finding {
  code: FindingCode;
  /** Path of the argument concerned, e.g. `items[0].quantity`; absent for the call as a whole. */
  argument?: string;
  message: string;
  /** Errors reject the call; notes are recorded and reported but the call goes ahead. */
  severity: "error" | "note";
  /** Names the caller may have meant. */
  suggestions?: string[];
}

export function isRejecting(findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === "error");
}
