import { createHash } from "node:crypto";
import { State, type StateDocument } from "../state/index.js";

/**
 * Whole states as stored: JSON text under the hash of that text. A task's initial state is
 * stored once and shared by every session that starts from it; snapshots are stored the
 * same way. Serializing and hashing a large state costs milliseconds, so both the text of
 * a state and the state parsed from a stored text are remembered.
 */
export interface StoredDocument {
  hash: string;
  text: string;
}

/** Parsed states kept in memory, by the hash of their text, up to this many bytes of text. */
const LOADED_BYTES = 256 * 1024 * 1024;

export class Documents {
  private readonly written = new WeakMap<object, StoredDocument>();
  private readonly adopted = new WeakMap<object, State>();
  private readonly loaded = new Map<string, { state: State; bytes: number }>();
  private loadedBytes = 0;

  /**
   * The state a plain document stands for: a copy, built once per document object, so a
   * catalog's task state costs one copy however many sessions start from it. The document
   * is taken as it is at first use; the catalog never changes its documents.
   */
  stateOf(input: State | StateDocument): State {
    if (input instanceof State) return input;
    let state = this.adopted.get(input);
    if (!state) {
      state = State.fromDocument(structuredClone(input));
      this.adopted.set(input, state);
    }
    return state;
  }

  /** The stored form of a state (computed once per state). */
  stored(state: State): StoredDocument {
    let stored = this.written.get(state);
    if (!stored) {
      const text = JSON.stringify(state.toJSON());
      stored = { hash: createHash("sha256").update(text).digest("hex"), text };
      this.written.set(state, stored);
      this.remember(stored.hash, state, text.length);
    }
    return stored;
  }

  /** The state stored under a hash if it is in memory (a networked store asks before fetching the text). */
  known(hash: string): State | undefined {
    return this.loaded.get(hash)?.state;
  }

  /** The state stored under a hash, from memory, or parsed from `text()` and remembered. */
  load(hash: string, text: () => string): State {
    const known = this.loaded.get(hash);
    if (known) {
      // most recently used last, so the oldest is evicted first
      this.loaded.delete(hash);
      this.loaded.set(hash, known);
      return known.state;
    }
    const source = text();
    const state = State.fromDocument(JSON.parse(source) as StateDocument);
    this.written.set(state, { hash, text: source });
    this.remember(hash, state, source.length);
    return state;
  }

  private remember(hash: string, state: State, bytes: number): void {
    if (this.loaded.has(hash) || bytes > LOADED_BYTES) return;
    this.loaded.set(hash, { state, bytes });
    this.loadedBytes += bytes;
    for (const [oldest, entry] of this.loaded) {
      if (this.loadedBytes <= LOADED_BYTES) break;
      this.loaded.delete(oldest);
      this.loadedBytes -= entry.bytes;
    }
  }
}
