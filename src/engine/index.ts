export { clockOf, DEFAULT_NOW } from "./clock.js";
export { type DescribedTool, parameterSummary, rejectionText } from "./describe.js";
export { runEffects } from "./effects/apply.js";
export { describeFailure } from "./effects/failures.js";
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
