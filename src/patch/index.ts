export { canonicalJson, hashOf } from "./canonical.js";
export {
  applyPatch,
  deepEqual,
  diff,
  type Patch,
  type PatchOperation,
  type PatchResult,
  parsePointer,
  pointerSegments,
  readPointer,
  removeValueAt,
  type StepResult,
  setValueAt,
  toPointer,
  valueAt,
} from "./patch.js";
export { isPlainObject } from "./plain.js";
