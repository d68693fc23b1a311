export { Collection } from "./collection.js";
export { indexKeys, looselyEqual, numberLike, probeKeys } from "./loose.js";
export { valueAtPath } from "./path.js";
export { State, type StateDocument, type StateResult } from "./state.js";
