export { type OpenOptions, openStore } from "./open.js";
export { describeServer, isPostgresUrl } from "./postgres-server.js";
export { MIGRATIONS, SCHEMA_VERSION } from "./schema.js";
export { StoreOpenError, StoreUnavailableError } from "./shared.js";
export { SqliteStore } from "./sqlite.js";
export type * from "./types.js";
export { DEFAULT_SNAPSHOTS, type SnapshotPolicy } from "./versions.js";
