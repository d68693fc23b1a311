import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
} from "@modelcontextprotocol/server";
import type { Engine } from "../engine/index.js";

export const STATE_URI = "toolsim://session/state";
export const CALLS_URI = "toolsim://session/calls";

/** The session's state and call log, readable by the client (not by the agent's tools). */
export function sessionResources(engine: Engine, sessionId: string) {
  return {
    list(): Resource[] {
      return [
        {
          uri: STATE_URI,
          name: "session-state",
          title: "Session state",
          description: "The simulated world of this session as one JSON document (head version).",
          mimeType: "application/json",
        },
        {
          uri: CALLS_URI,
          name: "session-calls",
          title: "Session calls",
          description: "Every call of this session: arguments, findings, outcome, engine and state versions.",
          mimeType: "application/json",
        },
      ];
    },
    read(uri: string): ReadResourceResult {
      if (uri === STATE_URI) {
        const head = engine.state(sessionId);
        const text = JSON.stringify(
          { session: sessionId, version: head.version, state: head.document },
          null,
          2,
        );
        return { contents: [{ uri, mimeType: "application/json", text }] };
      }
      if (uri === CALLS_URI) {
        const text = JSON.stringify({ session: sessionId, calls: engine.calls(sessionId) }, null, 2);
        return { contents: [{ uri, mimeType: "application/json", text }] };
      }
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `unknown resource ${uri}; known: ${STATE_URI}, ${CALLS_URI}`,
      );
    },
  };
}
