import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType,
} from "@modelcontextprotocol/server";
import type { Engine } from "../engine/index.js";
import { toPointer } from "../patch/index.js";
import type { State } from "../state/index.js";

export const STATE_URI = "toolsim://session/state";
export const CALLS_URI = "toolsim://session/calls";

export const PART_TEMPLATE = `${STATE_URI}{/path*}{?after,limit}`;
export const ENTITY_TEMPLATE = `${STATE_URI}/{collection}/{key}`;

export const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;

/**
 * The session's state and call log, readable by the client (not by the agent's tools).
 * Nothing here sends a whole log or a whole large collection in one message: the log and
 * collections come in pages, each with the address of the next; a part of the state can
 * be read by its path.
 */
export function sessionResources(engine: Engine, sessionId: string) {
  return {
    list(): Resource[] {
      return [
        {
          uri: STATE_URI,
          name: "session-state",
          title: "Session state",
          description: `The simulated world of this session as one JSON document (head version). Read a part with ${STATE_URI}/COLLECTION/KEY.`,
          mimeType: "application/json",
        },
        {
          uri: CALLS_URI,
          name: "session-calls",
          title: "Session calls",
          description: `The first ${DEFAULT_PAGE} calls of this session (arguments, findings, outcome, engine, state versions); each page names the next.`,
          mimeType: "application/json",
        },
      ];
    },

    templates(): ResourceTemplateType[] {
      return [
        {
          uriTemplate: PART_TEMPLATE,
          name: "session-state-part",
          title: "Part of the session state",
          description: `The value at a path of the state, e.g. ${STATE_URI}/orders/ORD-1001; a collection comes in pages of \`limit\` entities after the key \`after\`.`,
          mimeType: "application/json",
        },
        {
          uriTemplate: ENTITY_TEMPLATE,
          name: "session-state-entity",
          title: "An entity of the session state",
          description: `One entity of a collection, e.g. ${STATE_URI}/orders/ORD-1001; completion/complete offers the collections and their keys.`,
          mimeType: "application/json",
        },
        {
          uriTemplate: `${CALLS_URI}{?after,limit}`,
          name: "session-calls-page",
          title: "A page of the session's calls",
          description: `Calls with a sequence number above \`after\`, at most \`limit\` (default ${DEFAULT_PAGE}, at most ${MAX_PAGE}).`,
          mimeType: "application/json",
        },
      ];
    },

    async read(uri: string): Promise<ReadResourceResult> {
      const address = resourceAddress(uri);
      if (address?.kind === "calls") return json(uri, await callsPage(engine, sessionId, address.query));
      if (address?.kind === "state") {
        return json(uri, await statePart(engine, sessionId, address.path, address.query));
      }
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `unknown resource ${uri}; known: ${STATE_URI}, ${STATE_URI}/PATH, ${CALLS_URI}?after=N&limit=N`,
      );
    },
  };
}

type Query = URLSearchParams;
export type ResourceAddress =
  | { kind: "calls"; query: Query }
  | { kind: "state"; path: string[]; query: Query };

/** Which of the session's resources a URI names (its path segments decoded), if any. */
export function resourceAddress(uri: string): ResourceAddress | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "toolsim:" || url.host !== "session") return undefined;
  const [kind, ...rest] = url.pathname.split("/").filter((part) => part !== "");
  if (kind === "calls" && rest.length === 0) return { kind, query: url.searchParams };
  if (kind !== "state") return undefined;
  try {
    return { kind, path: rest.map((part) => decodeURIComponent(part)), query: url.searchParams };
  } catch {
    return undefined; // a stray "%" that decodes to nothing names no part of the state
  }
}

async function callsPage(engine: Engine, sessionId: string, query: Query) {
  const after = whole(query, "after", 0) ?? 0;
  const limit = Math.min(whole(query, "limit", 1) ?? DEFAULT_PAGE, MAX_PAGE);
  // one more than asked for tells whether there is a next page without counting the log
  const calls = await engine.calls(sessionId, { afterSeq: after, limit: limit + 1 });
  const page = calls.slice(0, limit);
  const last = page.at(-1)?.seq;
  const next =
    calls.length > limit && last !== undefined ? `${CALLS_URI}?after=${last}&limit=${limit}` : undefined;
  return { session: sessionId, after, limit, calls: page, ...(next ? { next } : {}) };
}

async function statePart(engine: Engine, sessionId: string, path: string[], query: Query) {
  const head = await engine.state(sessionId);
  const at = { session: sessionId, version: head.version, path: toPointer(path) };
  const [name, key] = path;
  const paged = query.has("after") || query.has("limit");
  if (name !== undefined && key === undefined && paged && head.state.collection(name)) {
    return { ...at, ...entityPage(head.state, name, query) };
  }
  if (path.length === 0) return { ...at, state: head.state.toJSON() };
  const value = head.state.get(path);
  if (value === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `the state of session ${sessionId} has nothing at ${toPointer(path)}; its collections are ${head.state.keys().join(", ") || "none"}`,
    );
  }
  return { ...at, value };
}

/** A page of a collection's entities in key order, after a key. */
function entityPage(state: State, name: string, query: Query) {
  const collection = state.collection(name);
  const after = query.get("after") ?? undefined;
  const limit = Math.min(whole(query, "limit", 1) ?? DEFAULT_PAGE, MAX_PAGE);
  const entities: Record<string, unknown> = {};
  let count = 0;
  let more = false;
  for (const [key, value] of collection?.entries(after) ?? []) {
    if (key === after) continue;
    if (count === limit) {
      more = true;
      break;
    }
    entities[key] = value;
    count++;
  }
  const last = Object.keys(entities).at(-1);
  const next =
    more && last !== undefined
      ? `${STATE_URI}/${encodeURIComponent(name)}?after=${encodeURIComponent(last)}&limit=${limit}`
      : undefined;
  return { size: collection?.size ?? 0, entities, ...(next ? { next } : {}) };
}

function whole(query: Query, name: string, min: number): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number < min) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${name} must be a whole number of at least ${min}; got "${text}"`,
    );
  }
  return number;
}

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(value, null, 2) }] };
}
