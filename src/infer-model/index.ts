/**
 * The model path of effects inference: a model writes a tool's effects once, they are
 * linted and replayed against the state, repaired once, and handed back with their
 * provenance for the caller (toolsim infer --model) to write into the toolset file.
 *
 *   inferEffectsWithModel(toolset, toolName, { client, perMode?, now?, signal? })
 *     → { tool, status: "inferred" | "failed", effects?, problems, provenance, usage }
 */
export {
  type EffectsProvenance,
  inferEffectsWithModel,
  type ModelInference,
  type ModelInferenceOptions,
} from "./infer.js";
export { DEFAULT_SAMPLE, type SampleLimits, stateSample } from "./state-sample.js";
