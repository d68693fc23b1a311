export { canonicalJson, hashOf } from "./canonical.js";
export {
  applyPatch,
  deepEqual,
  diff,
  type Patch,
  type PatchOperation,
  type PatchResult,
  parsePointer,
  readPointer,
  toPointer,
} from "./patch.js";
