export { conform } from "./conform.js";
export { type Action, actionOf, wordsOf } from "./infer.js";
export { OfflineSimulator } from "./offline.js";
export { seedFrom, synthesize } from "./synthesize.js";
export type * from "./types.js";
