/** Importers: pure functions from a source format to toolsets plus what could not be mapped. */
export { type BfclSource, importBfcl } from "./bfcl.js";
export { type ParsedCall, type ParsedPythonCall, parseCallString, parsePythonCall } from "./call-string.js";
export { mcpToolName } from "./names.js";
export { importOpenAiFunctions, type OpenAiOptions, type OpenAiSource } from "./openai.js";
export { importOpenApi, type OpenApiOptions } from "./openapi.js";
export { formatImportProblem, type ImportProblem, type ImportResult } from "./result.js";
export { importSynthTools, type SynthToolsSource } from "./synthtools.js";
