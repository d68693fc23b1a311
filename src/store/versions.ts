import type { Patch } from "../patch/index.js";
import type { State } from "../state/index.js";

/**
 * How versions are kept: each version is its parent plus a patch; some versions also have
 * a snapshot (a whole stored document). A snapshot is written when the patches since the
 * last one add up to as many bytes as a snapshot would take (within bounds), so storage
 * grows with what changed, and loading any version replays a bounded number of bytes.
 */
export interface SnapshotPolicy {
  /** Never snapshot before this many bytes of patches (small states would snapshot too often). */
  minBytes: number;
  /** Always snapshot after this many bytes of patches (large states would replay too much). */
  maxBytes: number;
}

export const DEFAULT_SNAPSHOTS: SnapshotPolicy = { minBytes: 256 * 1024, maxBytes: 4 * 1024 * 1024 };

export function snapshotDue(policy: SnapshotPolicy, patchBytes: number, snapshotBytes: number): boolean {
  return patchBytes >= Math.min(policy.maxBytes, Math.max(policy.minBytes, snapshotBytes));
}

export interface VersionRow {
  version: number;
  parent: number | null;
  patch: string;
}

/**
 * The patches that lead from version `from` to version `to` along `to`'s ancestry, oldest
 * first; undefined when `from` is not on that ancestry (the head was moved elsewhere).
 * `rows` holds at least the versions after `from` up to `to`.
 */
export function patchesBetween(
  rows: ReadonlyMap<number, VersionRow>,
  from: number,
  to: number,
): string[] | undefined {
  const chain: string[] = [];
  let cursor: number | null = to;
  while (cursor !== null && cursor !== from) {
    const row = rows.get(cursor);
    if (!row) return undefined;
    chain.push(row.patch);
    cursor = row.parent;
  }
  return cursor === from ? chain.reverse() : undefined;
}

/** Applies stored patches in order; a patch that does not apply means the store is corrupt. */
export function replay(state: State, patches: readonly string[], sessionId: string): State {
  let current = state;
  for (const text of patches) {
    const applied = current.apply(JSON.parse(text) as Patch);
    if (!applied.ok) throw new Error(`stored patch of session ${sessionId} does not apply: ${applied.error}`);
    current = applied.state;
  }
  return current;
}
