/**
 * The baseline: an MCP server built with the same SDK (low-level Server) and the same
 * transports as toolsim, that does no work. It advertises tools with the bench tools'
 * schemas (or, with --tools, every tool of the given toolset files and folders, parsed but
 * not checked) and answers every tools/call with the same small fixed result.
 *
 *   node noop-server.js --stdio [--tools PATH]...   PATH: a toolset file or a folder of them
 *   node noop-server.js --http [--tools PATH]...    prints "MCP URL http://127.0.0.1:PORT/mcp"
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  localhostHostValidation,
  localhostOriginValidation,
  NodeStreamableHTTPServerTransport,
} from "@modelcontextprotocol/node";
import { isInitializeRequest, type Tool as McpTool, Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { benchToolset } from "./bench-toolset.js";

const PAGE_SIZE = 500; // toolsim's default page size

interface ToolsetShape {
  tools: Array<{
    name: string;
    description: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
  }>;
}

function advertised(toolsets: ToolsetShape[]): McpTool[] {
  return toolsets.flatMap((toolset) =>
    toolset.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as McpTool["inputSchema"],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as McpTool["outputSchema"] } : {}),
    })),
  );
}

function toolsetsAt(path: string): ToolsetShape[] {
  const files = statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith(".json"))
        .sort()
        .map((name) => join(path, name))
    : [path];
  return files.map((file) => JSON.parse(readFileSync(file, "utf8")) as ToolsetShape);
}

const FIXED_ITEM = {
  item_id: "ITM-0001",
  name: "Catalog item 1",
  category: "garden",
  stock: 21,
  price: 5.5,
  status: "active",
  updated_at: "2026-03-01T08:00:00Z",
};
const FIXED_RESULT = {
  content: [{ type: "text" as const, text: JSON.stringify({ item: FIXED_ITEM }) }],
  structuredContent: { item: FIXED_ITEM },
};

function buildServer(tools: McpTool[]): Server {
  const server = new Server(
    { name: "noop", version: "1.0.0" },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler("tools/list", async (request) => {
    const start = request.params?.cursor ? Number(request.params.cursor) : 0;
    const end = start + PAGE_SIZE;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });
  server.setRequestHandler("tools/call", async () => FIXED_RESULT);
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

function serveHttp(tools: McpTool[]): void {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  const hostOk = localhostHostValidation();
  const originOk = localhostOriginValidation();
  const http = createServer(async (req, res) => {
    if (!hostOk(req, res) || !originOk(req, res)) return;
    const body = req.method === "POST" ? await readJson(req) : undefined;
    const sessionId = req.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (req.method !== "POST" || sessionId || !isInitializeRequest(body)) {
        res.writeHead(400).end();
        return;
      }
      const fresh = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      await buildServer(tools).connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res, body);
  });
  http.listen(0, "127.0.0.1", () => {
    const { port } = http.address() as AddressInfo;
    process.stdout.write(`MCP URL http://127.0.0.1:${port}/mcp\n`);
  });
  process.once("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}

const { values } = parseArgs({
  options: {
    stdio: { type: "boolean" },
    http: { type: "boolean" },
    tools: { type: "string", multiple: true },
  },
  strict: true,
});
const tools = advertised(
  values.tools?.length ? values.tools.flatMap(toolsetsAt) : [benchToolset() as ToolsetShape],
);
if (values.http) serveHttp(tools);
else {
  serveStdio(() => buildServer(tools));
  process.stdin.once("end", () => process.exit(0));
}
