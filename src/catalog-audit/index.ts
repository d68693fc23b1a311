/** Catalog audit room: near-duplicate detection and tool reliability audits over loaded toolsets. */

export {
  type AuditCaseReport,
  type AuditReport,
  auditToolsets,
  type ModeTally,
  type ToolAudit,
} from "./audit.js";
export {
  AUDIT_MODES,
  type AuditCase,
  type AuditExpectation,
  type AuditMode,
  auditCases,
} from "./audit-cases.js";
export { type DroppedTool, dropUnreliable, type FilteredCatalog } from "./audit-drop.js";
export { LlmPlausibilityJudge, type PlausibilityJudge, type PlausibilityVerdict } from "./audit-judge.js";
export { type DedupDrop, type DedupReport, type DedupTool, selectDuplicates } from "./dedup.js";
export { denseCosine, sparseCosine, tfidfVectors, toolText } from "./lexical.js";
