export { clockOf, DEFAULT_NOW } from "./clock.js";
export { type DescribedTool, parameterSummary, rejectionText } from "./describe.js";
export { describeFailure, runEffects } from "./effects.js";
export {
  type CallOutcome,
  type CallStatus,
  Engine,
  type EngineOptions,
  type ExternalAnswer,
  type OpenSession,
} from "./engine.js";
export { FINDING_CODES, FINDING_NAMES, type Finding, type FindingCode, isRejecting } from "./findings.js";
export { type ValidatedArguments, validateArguments, validateInput } from "./validate.js";
