export { type LlmSetup, llmParts } from "./llm-parts.js";
export { createRuntime, type Runtime, type RuntimeOptions } from "./runtime.js";
