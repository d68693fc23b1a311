export { conform } from "./conform.js";
export { type Action, actionOf, wordsOf } from "./infer.js";
export { LlmSimulator, type LlmSimulatorOptions } from "./llm.js";
export { OfflineSimulator } from "./offline.js";
export { DATA_RULE, dataBlock } from "./prompts/data-block.js";
export { LlmArgumentChecker } from "./semantic-check.js";
export { DEFAULT_SLICE_LIMITS, type SliceLimits, type StateView, stateView } from "./state-slice.js";
export { seedFrom, synthesize } from "./synthesize.js";
export type * from "./types.js";
