export { type EffectHints, effectHints } from "./annotations.js";
export { Catalog, type CatalogTask, type CatalogTool } from "./catalog.js";
export * from "./faults-format.js";
export * from "./format.js";
export * from "./importers/index.js";
export { type McpImport, type McpImportOptions, toolsetFromMcpTools } from "./importers/mcp.js";
export { compileProblem, type SchemaErrors, schemaProblems, validatorFor } from "./json-schema.js";
export {
  findToolsetFiles,
  type LoadedToolset,
  type LoadOptions,
  type LoadResult,
  loadToolsets,
  loadToolsetText,
  parseToolsetFile,
  toolsetSchemaProblems,
} from "./load.js";
export { nearest } from "./nearest.js";
export {
  type PatternNote,
  type PatternPlan,
  patternMatcher,
  patternNotes,
  planPattern,
  repairPatterns,
} from "./patterns.js";
export { type CatalogProblem, formatPath, formatProblem } from "./problems.js";
export { proseChoices, qualityProblems } from "./quality.js";
export { backtrackingHazard } from "./regex-safety.js";
export {
  CONTROL_TOOLS,
  controlToolNames,
  DEFAULT_CONTROL_PREFIX,
  describeReserved,
  isReservedName,
  type ReservedNames,
  reservedNameProblems,
} from "./reserved-names.js";
export { toolsetJsonSchema } from "./schema-export.js";
export {
  acceptsNull,
  conversionProblems,
  isSchemaProfile,
  type ProfiledSchema,
  profileSchema,
  SCHEMA_PROFILES,
  type SchemaProfile,
} from "./schema-profile.js";
export {
  andList,
  choiceWords,
  conditionalRule,
  consequenceNames,
  constraintPhrases,
  counted,
  forbiddenWords,
  formatWords,
  isPresenceChoice,
  objectRules,
  orList,
  patternWords,
  shown,
} from "./schema-words.js";
export { STRICT_LIMITS, strictModeProblems } from "./strict-rules.js";
export * from "./templates.js";
