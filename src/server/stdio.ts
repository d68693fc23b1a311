import type { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { ToolsimHub } from "./hub.js";

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
  const handle = serveStdio(() => {
    const server = hub.createServer(sessionId);
    servers.add(server);
    return server;
  });
  return {
    async close() {
      unsubscribe();
      await handle.close();
    },
  };
}
