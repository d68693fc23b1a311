import type { State } from "../state/index.js";
import { SCHEMA_VERSION } from "./schema.js";
import type { NewSession, SessionRecord, StateHead } from "./types.js";
import { patchesBetween, replay, type VersionRow } from "./versions.js";

/**
 * What the two backends do the same way, written once: a fork, rebuilding a version from
 * its snapshot, and the messages of a store that cannot be used or of something missing.
 */

/** Why a state file or database cannot be used, in words that say what to do. */
export class StoreOpenError extends Error {}

/**
 * The store cannot be reached right now (the database is down, restarting, or has no free
 * connections): the message names the store and what to do, and the request may be sent
 * again after `retryAfterSeconds`. Nothing was written by the statement that failed.
 */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    /** The store, without credentials (its `location`). */
    readonly location: string,
    readonly retryAfterSeconds: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The new session a fork of `source` at `version` starts: its tenant, task, scope and seed, that state. */
export function forkOf(
  source: SessionRecord,
  version: number,
  state: State,
  input: { name?: string; seed?: string },
): NewSession {
  return {
    tenant: source.tenant,
    name: input.name,
    seed: input.seed ?? source.seed,
    taskId: source.taskId ?? undefined,
    scope: source.scope,
    state,
    forkedFrom: `${source.id}@${version}`,
    reason: `fork of ${source.name ?? source.id} at version ${version}`,
  };
}

/** A version rebuilt from its snapshot and the version rows between (at least those after the snapshot). */
export function fromSnapshot(
  snapshot: State,
  snapshotVersion: number,
  version: number,
  rows: ReadonlyMap<number, VersionRow>,
  sessionId: string,
): State {
  if (snapshotVersion === version) return snapshot;
  const patches = patchesBetween(rows, snapshotVersion, version);
  if (!patches)
    throw new Error(`session ${sessionId}: version ${version} does not descend from its snapshot`);
  return replay(snapshot, patches, sessionId);
}

/** The version reached from a known earlier one by the patches between; undefined when it is not on that version's ancestry. */
export function advancedFrom(
  known: StateHead,
  version: number,
  rows: ReadonlyMap<number, VersionRow>,
  sessionId: string,
): State | undefined {
  const patches = patchesBetween(rows, known.version, version);
  return patches ? replay(known.state, patches, sessionId) : undefined;
}

export function missingSession(sessionId: string): Error {
  return new Error(`session ${sessionId} does not exist`);
}

export function missingVersion(sessionId: string, version: number): Error {
  return new Error(`session ${sessionId} has no state version ${version}`);
}

export function missingDocument(hash: string): Error {
  return new Error(`stored state ${hash} is missing`);
}

/** A store written by a later toolsim than this one. */
export function newerSchema(location: string, current: number): StoreOpenError {
  return new StoreOpenError(
    `${location} was written by a newer toolsim (schema ${current}, this one knows ${SCHEMA_VERSION}); upgrade toolsim or use another --db`,
  );
}

/** A store an older toolsim wrote, opened where it may not be upgraded. */
export function olderSchemaReadOnly(
  location: string,
  current: number | string,
  upgrade: string,
): StoreOpenError {
  return new StoreOpenError(
    `${location} was written by another version of toolsim (schema ${current}, this one knows ${SCHEMA_VERSION}); open it once with write access (${upgrade}) to upgrade it`,
  );
}
