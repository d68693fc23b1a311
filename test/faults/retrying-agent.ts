// A scripted agent that buys shares over MCP while toolsim's `flaky` profile injects faults.
// With retries = 0 it fails; with retries = 3 it passes. docs/faults.md shows this file.
import { type CallToolResult, Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** What the agent does for "buy as many whole VTI shares as my Roth IRA's cash covers, at market". */
const PLAN = [
  { tool: "list_brokerage_accounts", arguments: {} },
  { tool: "get_quote", arguments: { symbol: "VTI" } },
  {
    tool: "place_buy_order",
    arguments: {
      account_id: "ACC-2002",
      symbol: "VTI",
      quantity: 4,
      order_type: "market",
      time_in_force: "day",
      max_notional: 1172.43,
    },
  },
];

/** `serve` starts toolsim's server, e.g. ["npx", "-y", "toolsim", "serve"]; the session is named. */
export async function connect(serve: string[], session: string): Promise<Client> {
  const [command = "toolsim", ...args] = serve;
  const client = new Client({ name: "vti-buyer", version: "1.0.0" });
  const task = ["--task", "trd-roth-max-vti-market-buy", "--no-control-tools"];
  const faults = ["--faults", "flaky", "--seed", "22", "--session", session];
  await client.connect(new StdioClientTransport({ command, args: [...args, "--stdio", ...task, ...faults] }));
  return client;
}

/** A transient error is the service being busy, down or broken (429, 5xx), not a wrong call. */
function retryAfterMs(result: CallToolResult): number | undefined {
  const text = result.content[0]?.type === "text" ? result.content[0].text : "";
  const error = text.startsWith("{") ? JSON.parse(text).error : undefined;
  if (!result.isError || !(error?.status === 429 || error?.status >= 500)) return undefined;
  const seconds = /retry after (\d+) second/i.exec(error.message)?.[1];
  return seconds ? Number(seconds) * 1000 : 250;
}

/** Runs the plan; each call that fails transiently is tried again up to `retries` times. */
export async function run(client: Client, retries: number): Promise<void> {
  for (const step of PLAN) {
    for (let attempt = 0; ; attempt++) {
      const result = (await client.callTool({
        name: step.tool,
        arguments: step.arguments,
      })) as CallToolResult;
      const wait = retryAfterMs(result);
      if (wait === undefined || attempt === retries) break;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  await client.close();
}
