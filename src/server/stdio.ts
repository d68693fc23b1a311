import type { JSONRPCMessage, Server } from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type { ToolsimHub } from "./hub.js";
import { listenedResources } from "./subscriptions.js";

export interface StdioHandle {
  close(): Promise<void>;
}

/**
 * One process, one simulation session, over stdin/stdout. stdout carries only MCP
 * messages; everything else goes to stderr.
 */
export function serveOverStdio(hub: ToolsimHub, sessionId: string): StdioHandle {
  const servers = new Set<Server>();
  const unsubscribe = hub.onToolsChanged((changed) => {
    if (changed !== undefined && changed !== sessionId) return;
    for (const server of servers) server.sendToolListChanged().catch(() => {});
  });
  // one watcher for the connection: 2025-era resources/subscribe and 2026-era listen streams
  // subscribe through it; the SDK's entry hands an update to the listen streams that asked for it
  const watcher = hub.watch.watcher(sessionId, async (uri) => {
    await Promise.all([...servers].map((server) => server.sendResourceUpdated({ uri })));
  });
  const wire = new StdioServerTransport();
  const handle = serveStdio(
    () => {
      const server = hub.createServer(sessionId, { watcher });
      servers.add(server);
      const closed = server.onclose;
      server.onclose = () => {
        servers.delete(server);
        closed?.();
      };
      return server;
    },
    { transport: wire },
  );
  followListenStreams(wire, (uris) => {
    for (const uri of uris) watcher.subscribe(uri).catch(() => {});
    return () => {
      for (const uri of uris) watcher.unsubscribe(uri);
    };
  });
  return {
    async close() {
      unsubscribe();
      watcher.close();
      await handle.close();
    },
  };
}

/**
 * The SDK's stdio entry answers `subscriptions/listen` itself and never shows it to the
 * server; toolsim reads the resources a listen stream asks for off the wire (and its end,
 * a `notifications/cancelled` naming it), to know what to watch. The entry installs its
 * handler when it is created, before any message arrives, so wrapping it here sees all.
 */
function followListenStreams(wire: StdioServerTransport, listen: (uris: string[]) => () => void): void {
  const streams = new Map<string | number, () => void>();
  const deliver = wire.onmessage;
  wire.onmessage = (message: JSONRPCMessage) => {
    const listened = listenedResources(message);
    if (listened && !streams.has(listened.id)) streams.set(listened.id, listen(listened.uris));
    const cancelled = cancelledRequest(message);
    if (cancelled !== undefined) {
      streams.get(cancelled)?.();
      streams.delete(cancelled);
    }
    deliver?.(message);
  };
}

function cancelledRequest(message: JSONRPCMessage): string | number | undefined {
  if (!("method" in message) || message.method !== "notifications/cancelled" || "id" in message)
    return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
