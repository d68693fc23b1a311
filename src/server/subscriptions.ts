import { AsyncLocalStorage } from "node:async_hooks";
import type { ServerEvent, ServerEventBus } from "@modelcontextprotocol/server";
import type { Engine } from "../engine/index.js";
import { deepEqual, isPlainObject } from "../patch/index.js";
import type { SessionRecord, StateHead } from "../store/index.js";
import { DEFAULT_PAGE, type ResourceAddress, resourceAddress } from "./resources.js";

/** Sends `notifications/resources/updated` for a URI to one subscriber. */
export type ResourceNotify = (uri: string) => Promise<void> | void;

/** The most resources one subscriber (a connection, a listen stream) may watch. */
export const MAX_SUBSCRIPTIONS = 100;

export type SubscribeResult = { ok: true } | { ok: false; problem: string };

interface Subscription {
  address: ResourceAddress;
  /** How many subscribe requests hold it (a listen stream and resources/subscribe may overlap). */
  holders: number;
  /** What the resource showed when last notified (or subscribed): a version, a count, a value. */
  seen: unknown;
}

/** The session as one check reads it: its head and record, loaded once and only when needed. */
interface SessionView {
  head(): Promise<StateHead>;
  record(): Promise<SessionRecord>;
}

/**
 * Who watches which resources of which session, and telling them when one changed. A
 * subscriber's resources are compared after each call the hub answers in that session
 * (tool calls and control tools alike): the state by its version, a part of it by its
 * value, the call log by its count. Nothing is kept or compared for a session nobody
 * watches, so calls of unwatched sessions pay nothing.
 */
export class ResourceWatch {
  private readonly engine: Engine;
  private readonly bySession = new Map<string, Set<ResourceWatcher>>();
  /** One check at a time per session, so notifications keep the order of the changes. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(engine: Engine) {
    this.engine = engine;
  }

  /** A subscriber of one session's resources; it costs nothing until it subscribes. */
  watcher(sessionId: string, notify: ResourceNotify): ResourceWatcher {
    return new ResourceWatcher(this, sessionId, notify);
  }

  /**
   * After something may have changed a session: notifies each subscriber whose resources
   * changed. Undefined when nobody watches the session, so a call has nothing to wait for.
   */
  changed(sessionId: string): Promise<void> | undefined {
    if (!this.bySession.has(sessionId)) return undefined;
    const previous = this.queues.get(sessionId) ?? Promise.resolve();
    const next = previous.then(() => this.check(sessionId));
    this.queues.set(sessionId, next);
    return next.finally(() => {
      if (this.queues.get(sessionId) === next) this.queues.delete(sessionId);
    });
  }

  /** @internal */
  attach(watcher: ResourceWatcher): void {
    let watchers = this.bySession.get(watcher.sessionId);
    if (!watchers) {
      watchers = new Set();
      this.bySession.set(watcher.sessionId, watchers);
    }
    watchers.add(watcher);
  }

  /** @internal */
  detach(watcher: ResourceWatcher): void {
    const watchers = this.bySession.get(watcher.sessionId);
    watchers?.delete(watcher);
    if (watchers?.size === 0) this.bySession.delete(watcher.sessionId);
  }

  /** @internal What a resource of the session shows now, to compare with what was seen. */
  fingerprint(address: ResourceAddress, view: SessionView): Promise<unknown> {
    return fingerprintOf(address, view);
  }

  /** @internal */
  view(sessionId: string): SessionView {
    let head: Promise<StateHead> | undefined;
    let record: Promise<SessionRecord> | undefined;
    return {
      head: () => {
        head ??= this.engine.state(sessionId);
        return head;
      },
      record: () => {
        // the store's row: the record held in memory keeps the count of calls it was loaded with
        record ??= this.engine
          .record(sessionId)
          .then(async (held) => (await this.engine.session(sessionId, held.tenant)) ?? held);
        return record;
      },
    };
  }

  private async check(sessionId: string): Promise<void> {
    const view = this.view(sessionId);
    for (const watcher of this.bySession.get(sessionId) ?? []) {
      try {
        await watcher.check(view);
      } catch {
        // a session that cannot be read now (a store restarting) is checked again after the next call
      }
    }
  }
}

/** One subscriber's resources: a 2025-era connection's resources/subscribe, or a 2026 listen stream. */
export class ResourceWatcher {
  readonly sessionId: string;
  private readonly watch: ResourceWatch;
  private readonly notify: ResourceNotify;
  private readonly subscriptions = new Map<string, Subscription>();
  private closed = false;

  constructor(watch: ResourceWatch, sessionId: string, notify: ResourceNotify) {
    this.watch = watch;
    this.sessionId = sessionId;
    this.notify = notify;
  }

  /** Watches a resource from now on: only changes after this call are notified. */
  async subscribe(uri: string): Promise<SubscribeResult> {
    if (this.closed) return { ok: false, problem: "the connection is closing" };
    const held = this.subscriptions.get(uri);
    if (held) {
      held.holders++;
      return { ok: true };
    }
    const address = resourceAddress(uri);
    if (!address) {
      return {
        ok: false,
        problem: `cannot subscribe to ${uri}: toolsim's resources are toolsim://session/state (and parts by path, toolsim://session/state/COLLECTION/KEY) and toolsim://session/calls`,
      };
    }
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
      return {
        ok: false,
        problem: `at most ${MAX_SUBSCRIPTIONS} resources per connection; unsubscribe from one first (or subscribe to ${address.kind === "state" ? "the whole state" : "the call log"})`,
      };
    }
    const subscription: Subscription = { address, holders: 1, seen: undefined };
    this.subscriptions.set(uri, subscription);
    this.watch.attach(this);
    subscription.seen = await this.watch.fingerprint(address, this.watch.view(this.sessionId));
    return { ok: true };
  }

  unsubscribe(uri: string): void {
    const held = this.subscriptions.get(uri);
    if (!held) return;
    held.holders--;
    if (held.holders > 0) return;
    this.subscriptions.delete(uri);
    if (this.subscriptions.size === 0) this.watch.detach(this);
  }

  close(): void {
    this.closed = true;
    this.subscriptions.clear();
    this.watch.detach(this);
  }

  /** @internal */
  async check(view: SessionView): Promise<void> {
    for (const [uri, subscription] of this.subscriptions) {
      const now = await this.watch.fingerprint(subscription.address, view);
      if (same(now, subscription.seen)) continue;
      subscription.seen = now;
      if (this.closed) return;
      try {
        await this.notify(uri);
      } catch {
        // a client that went away misses the notification, as it would any other message
      }
    }
  }
}

/**
 * What a resource shows, cheaply: the state's version; the value at a path (collections
 * and entities are shared between versions until they change, so a reference says
 * whether they did); the number of calls for the log (the unpaged log tells of every
 * new call), or for a page, how many of its calls exist and whether a next page does.
 */
async function fingerprintOf(address: ResourceAddress, view: SessionView): Promise<unknown> {
  if (address.kind === "calls") {
    const recorded = (await view.record()).nextSeq - 1;
    if (!address.query.has("after") && !address.query.has("limit")) return recorded;
    const after = Number(address.query.get("after") ?? 0) || 0;
    const limit = Number(address.query.get("limit") ?? DEFAULT_PAGE) || DEFAULT_PAGE;
    return `${Math.min(Math.max(recorded - after, 0), limit)}:${recorded > after + limit}`;
  }
  const { state, version } = await view.head();
  if (address.path.length === 0) return version;
  const [name] = address.path;
  if (address.path.length === 1 && name !== undefined)
    return state.collection(name) ?? state.get(address.path);
  return state.get(address.path);
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  // plain values read afresh (a field copied with its entity) compare by content; collections by reference only
  const plain = (value: unknown) => isPlainObject(value) || Array.isArray(value);
  return plain(a) && plain(b) && deepEqual(a, b);
}

/** The resources a `subscriptions/listen` request asks to hear of (the 2026 era), if it is one. */
export function listenedResources(message: unknown): { id: string | number; uris: string[] } | undefined {
  if (!isPlainObject(message) || message.method !== "subscriptions/listen") return undefined;
  const id = message.id;
  if (typeof id !== "string" && typeof id !== "number") return undefined;
  const params = isPlainObject(message.params) ? message.params : {};
  const filter = isPlainObject(params.notifications) ? params.notifications : {};
  const asked = Array.isArray(filter.resourceSubscriptions) ? filter.resourceSubscriptions : [];
  const uris = asked.filter((uri): uri is string => typeof uri === "string").slice(0, MAX_SUBSCRIPTIONS);
  return { id, uris };
}

/** A listen request being served over HTTP: the resources it asks for, and its session once known. */
interface ListenRequest {
  uris: string[];
  sessionId?: string;
}

/**
 * The event bus of the 2026-era HTTP handler. The SDK serves `subscriptions/listen` streams
 * itself and hands each a listener on this bus; a resource update is for one session's
 * subscribers only (the same URI names every session's state), so each listener is tied
 * to the session of the request that opened it, which the request's async context carries
 * from the server factory (where the session is resolved) to the stream (where the SDK
 * subscribes). List changes go to every listener, as the SDK's own bus sends them.
 */
export class SessionEventBus implements ServerEventBus {
  private readonly watch: ResourceWatch;
  private readonly listeners = new Set<(event: ServerEvent) => void>();
  private readonly requests = new AsyncLocalStorage<ListenRequest>();

  constructor(watch: ResourceWatch) {
    this.watch = watch;
  }

  /** Runs the handling of an HTTP request; a listen request's stream is then tied to its session. */
  serve<T>(body: unknown, handle: () => T): T {
    const listened = listenedResources(body);
    return listened ? this.requests.run({ uris: listened.uris }, handle) : handle();
  }

  /** The server factory found the session of the request it serves. */
  found(sessionId: string): void {
    const request = this.requests.getStore();
    if (request) request.sessionId = sessionId;
  }

  publish(event: ServerEvent): void {
    // resource updates are per session and reach listeners through their watchers, never from here
    if (event.kind === "resource_updated") return;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // one stream that cannot take an event does not keep it from the others
      }
    }
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    const request = this.requests.getStore();
    const watcher = request?.sessionId
      ? this.watch.watcher(request.sessionId, (uri) => listener({ kind: "resource_updated", uri }))
      : undefined;
    for (const uri of request?.uris ?? []) watcher?.subscribe(uri).catch(() => {});
    return () => {
      this.listeners.delete(listener);
      watcher?.close();
    };
  }
}
