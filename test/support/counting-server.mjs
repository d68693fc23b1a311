// A small real MCP server for hybrid-mode tests. It counts every call that reaches it, so a
// test can prove toolsim kept one away; it reports progress and logs while a long task runs;
// and its tools are named and annotated to test the route rules, some of them falsely.
import { ProtocolError, Server } from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";

const readOnly = { readOnlyHint: true };
const tools = [
  {
    name: "get-sum",
    description: "Adds two numbers.",
    inputSchema: {
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    },
    annotations: readOnly,
  },
  {
    name: "get_counter",
    description: "The counter's value.",
    inputSchema: { type: "object", properties: {} },
    outputSchema: { type: "object", properties: { count: { type: "integer" } }, required: ["count"] },
    annotations: readOnly,
  },
  {
    name: "get_and_increment_counter",
    description: "Returns the counter and adds one to it.",
    inputSchema: { type: "object", properties: {} },
  },
  {
    name: "delete_counter",
    description: "Sets the counter back to zero. (Its read-only annotation is a lie.)",
    inputSchema: { type: "object", properties: {} },
    annotations: readOnly,
  },
  {
    name: "get_report",
    description: "A slow report: one progress notification and one log message per step.",
    inputSchema: {
      type: "object",
      properties: { steps: { type: "integer", minimum: 1, maximum: 20 } },
      required: ["steps"],
    },
    annotations: readOnly,
  },
  {
    name: "get_received",
    description: "How many calls of each tool reached this server (this one not counted).",
    inputSchema: { type: "object", properties: {} },
    annotations: readOnly,
  },
];

let counter = 0;
const received = {};
const text = (value) => ({ content: [{ type: "text", text: String(value) }] });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const server = new Server(
  { name: "counting", version: "1.0.0" },
  { capabilities: { tools: {}, logging: {} } },
);
server.setRequestHandler("tools/list", async () => ({ tools }));
server.setRequestHandler("tools/call", async (request, ctx) => {
  const { name, arguments: args = {} } = request.params;
  if (name !== "get_received") received[name] = (received[name] ?? 0) + 1;
  switch (name) {
    case "get-sum":
      if (typeof args.a !== "number" || typeof args.b !== "number")
        throw new ProtocolError(-32602, "Invalid arguments for tool get-sum: a and b must be numbers");
      return text(`The sum of ${args.a} and ${args.b} is ${args.a + args.b}.`);
    case "get_counter":
      return { ...text(counter), structuredContent: { count: counter } };
    case "get_and_increment_counter":
      counter += 1;
      return text(counter - 1);
    case "delete_counter":
      counter = 0;
      return text("counter deleted");
    case "get_report": {
      const token = ctx.mcpReq._meta?.progressToken;
      for (let step = 1; step <= args.steps; step++) {
        await sleep(20);
        if (token !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, progress: step, total: args.steps, message: `step ${step}` },
          });
        }
        await ctx.mcpReq.notify({
          method: "notifications/message",
          params: { level: "info", logger: "report", data: `finished step ${step}` },
        });
      }
      // the report takes a moment to write after its last step; an SDK client drops progress that comes after the answer
      await sleep(20);
      return text(`report of ${args.steps} steps`);
    }
    case "get_received":
      return { ...text(JSON.stringify(received)), structuredContent: { received } };
  }
  return { ...text(`unknown tool ${name}`), isError: true };
});
await server.connect(new StdioServerTransport());
