export { SCHEMA_VERSION } from "./migrations.js";
export { Store } from "./store.js";
export type * from "./types.js";
