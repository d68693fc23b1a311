import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent, toolsimOverHttp, toolsimOverStdio } from "./frameworks/ai-sdk.js";
import { MARKET_BUY_PROMPT, marketBuyHarness, verdictOf } from "./support/index.js";

// the scripted model takes any key; the frameworks insist on one
process.env.OPENAI_API_KEY = "sk-scripted";

describe("Vercel AI SDK (ai 6, @ai-sdk/mcp): the market-buy task to a solved verdict", () => {
  const { dir, model, server, stdio } = marketBuyHarness();
  const db = join(dir, "ai-sdk.db");

  it("over stdio, with the full profile the AI SDK passes through unchanged", async () => {
    // runAgent closes the connection (the child process ends with it)
    const text = await runAgent(
      await toolsimOverStdio(process.execPath, stdio("ai-sdk-stdio", db)),
      MARKET_BUY_PROMPT,
      model().url,
    );
    expect(text).toContain("4 VTI shares");
    const { solved } = await verdictOf(db, "ai-sdk-stdio");
    expect(solved).toBe(true);
    // the model saw the tool as toolsim advertises it: the market-order rules intact
    const request = model().requests.find((r) => Array.isArray(r.body.tools));
    const tools = request?.body.tools as Array<{
      function: { name: string; parameters: Record<string, unknown> };
    }>;
    const buy = tools.find((t) => t.function.name === "place_buy_order");
    expect(buy?.function.parameters.allOf).toBeDefined();
  });

  it("over HTTP, in a session named by the X-Toolsim-Session header", async () => {
    await runAgent(await toolsimOverHttp(server().url, "ai-sdk-http"), MARKET_BUY_PROMPT, model().url);
    const { solved } = await verdictOf(join(dir, "http.db"), "ai-sdk-http");
    expect(solved).toBe(true);
  });
});
