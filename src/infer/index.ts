/**
 * Inference of effects (the door): a toolset and the shape of its state in, the toolset
 * with effects for the tools that had none out, with a report per tool.
 */
export { compactEffect, type Draft, emit, type Level, languageLevel, toVersion1 } from "./drafts.js";
export {
  INFERRED_BY,
  type InferOptions,
  type Inferred,
  inferLoaded,
  inferToolset,
  inferToolsets,
  type ToolReport,
  type Verdict,
} from "./infer.js";
export { renderReport, type Tally, tally, tallyLine } from "./report.js";
export { type SchemaCollection, type SchemaWorld, schemaWorld } from "./schema-world.js";
export { type CollectionShape, type Part, type StateShape, shapeOf } from "./shape.js";
export {
  type Action,
  actionOf,
  describesOutcome,
  isIdentifierName,
  LOGIN_VERBS,
  LOGOUT_VERBS,
  LOOKUP_VERBS,
  namesChangeOutcome,
  namesFailureOnly,
  nounOfIdentifier,
  participle,
  plural,
  REMOVE_VERBS,
  SHELL_COMMANDS,
  STATUS_VERBS,
  singular,
  TEXT_ANSWER,
  VERBS,
  verbOf,
  verbWords,
  wordsOf,
} from "./words.js";
