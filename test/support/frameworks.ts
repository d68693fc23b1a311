import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type FakeOpenAI, type FakeStep, type RecordedRequest, startFakeOpenAI } from "./fake-openai.js";
import { CLI, type RunningServer, runCli, startHttpServer, tempDir } from "./processes.js";

/** The shipped task every framework test runs, and what its user asks. */
export const MARKET_BUY_TASK = "trd-roth-max-vti-market-buy";
export const MARKET_BUY_PROMPT =
  "In my Roth IRA, buy as many whole shares of VTI as my available cash covers, at market.";

export interface GoldenOptions {
  /** Send every argument, null for the optional ones, as a model in OpenAI's strict mode must. */
  strict?: boolean;
  /** What the framework puts before every tool name (Mastra: "toolsim_"). */
  toolPrefix?: string;
}

/**
 * A scripted model that works the market-buy task: the task's golden calls, then the
 * feedback tool with its answer, then a final message. It picks its step from how many
 * tool results the framework has sent back, so it follows the conversation rather than
 * a clock.
 */
export function goldenModel(options: GoldenOptions = {}): (request: RecordedRequest) => FakeStep {
  const calls = marketBuyCalls(options).map((call) => ({
    ...call,
    name: `${options.toolPrefix ?? ""}${call.name}`,
  }));
  const answer = MARKET_BUY_ANSWER;
  return (request) => {
    const done = request.messages.filter((m) => m.role === "tool").length;
    const next = calls[done];
    return next ? { kind: "tools", calls: [next] } : { kind: "text", content: answer };
  };
}

const MARKET_BUY_ANSWER =
  "I bought 4 VTI shares at market in your Roth IRA (ACC-2002); 1,172.43 USD is held for the order.";

/** The market-buy task's golden calls, then the feedback tool with the answer. */
export function marketBuyCalls(options: { strict?: boolean } = {}): Array<{
  name: string;
  arguments: Record<string, unknown>;
}> {
  const nulls = (names: string[]) => (options.strict ? Object.fromEntries(names.map((n) => [n, null])) : {});
  return [
    { name: "list_brokerage_accounts", arguments: { ...nulls(["status"]) } },
    { name: "get_quote", arguments: { symbol: "VTI" } },
    {
      name: "place_buy_order",
      arguments: {
        account_id: "ACC-2002",
        symbol: "VTI",
        quantity: 4,
        order_type: "market",
        time_in_force: "day",
        max_notional: 1172.43,
        ...nulls(["limit_price", "stop_price", "client_order_id"]),
      },
    },
    { name: "sim_task_feedback", arguments: { answer: MARKET_BUY_ANSWER, ...nulls(["infeasible"]) } },
  ];
}

/** The task verdict of a stored session, as `toolsim report --json` gives it. */
export async function verdictOf(
  db: string,
  session: string,
): Promise<{ solved: boolean | null; report: unknown }> {
  const result = await runCli(["report", session, "--db", db, "--json"]);
  if (result.code !== 0) throw new Error(`toolsim report failed (${result.code}): ${result.stderr}`);
  const report = JSON.parse(result.stdout) as { verdict?: { solved?: boolean | null } };
  return { solved: report.verdict?.solved ?? null, report };
}

export interface MarketBuyHarness {
  /** A folder for the test file's state files, removed after its tests. */
  dir: string;
  /** The scripted model and the toolsim HTTP server, started before the file's tests. */
  model: () => FakeOpenAI;
  server: () => RunningServer;
  /** The command line of a toolsim stdio child serving the task in `session`, with its state in `db`. */
  stdio: (session: string, db: string) => string[];
}

/**
 * The market-buy task served to an agent framework: a scripted model working it and a
 * toolsim HTTP server (offline, with the framework's schema profile), started before the
 * file's tests and stopped after them.
 */
export function marketBuyHarness(
  options: { profile?: string; model?: GoldenOptions } = {},
): MarketBuyHarness {
  // offline: the toolsim process must not take the scripted key for a real model
  const serve = [
    "--engine",
    "offline",
    ...(options.profile ? ["--schema-profile", options.profile] : []),
    "--task",
    MARKET_BUY_TASK,
  ];
  const dir = tempDir();
  let model: FakeOpenAI | undefined;
  let server: RunningServer | undefined;
  beforeAll(async () => {
    model = await startFakeOpenAI({ respond: goldenModel(options.model) });
    server = await startHttpServer([...serve, "--db", join(dir.path, "http.db")]);
  });
  afterAll(async () => {
    await server?.stop();
    await model?.close();
    dir.cleanup();
  });
  return {
    dir: dir.path,
    model: () => model ?? fail("the scripted model is not started"),
    server: () => server ?? fail("the toolsim server is not started"),
    stdio: (session, db) => [CLI, "serve", ...serve, "--stdio", "--session", session, "--db", db],
  };
}

function fail(why: string): never {
  throw new Error(why);
}
