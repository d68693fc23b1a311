/**
 * The generation room: a SynthTools-style catalog from a model, stage by stage
 * (fields → subdomains → workflows → toolsets → tasks), each stage kept on disk so a
 * run can be resumed, every answer checked and regenerated with its problems shown.
 *
 *   generateCatalog(options) → { written, dropped, usage, resumed }
 */
export { CostLedger, costSummary, estimateCost, type Prices, withRun } from "./costs.js";
export { type GenerateOptions, type GenerateResult, generateCatalog } from "./pipeline.js";
export { Progress, type ProgressStream } from "./progress.js";
export { StageFiles } from "./stage-files.js";
