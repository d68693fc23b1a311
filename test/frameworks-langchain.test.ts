import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/catalog/index.js";
import { runAgent, toolsimOverHttp, toolsimOverStdio } from "./frameworks/langchain.js";
import { CLI, MARKET_BUY_PROMPT, marketBuyHarness, verdictOf } from "./support/index.js";

// the scripted model takes any key; LangChain insists on one
process.env.OPENAI_API_KEY = "sk-scripted";

describe("LangChain (@langchain/mcp-adapters 1): the market-buy task to a solved verdict on the portable profile", () => {
  const { dir, model, server, stdio } = marketBuyHarness({ profile: "portable" });

  it("over stdio: the market order keeps its optional prices optional through LangChain's conversion", async () => {
    const db = join(dir, "stdio.db");
    const text = await runAgent(
      toolsimOverStdio(process.execPath, stdio("langchain-stdio", db)),
      MARKET_BUY_PROMPT,
      model().url,
    );
    expect(text).toContain("4 VTI shares");
    expect((await verdictOf(db, "langchain-stdio")).solved).toBe(true);
    // what LangChain sent the model: the rules in the description, and limit_price not made required
    const request = model().requests.find((r) => Array.isArray(r.body.tools));
    const tools = request?.body.tools as Array<{
      function: { name: string; description: string; parameters: JsonSchema };
    }>;
    const buy = tools.find((t) => t.function.name === "place_buy_order")?.function;
    expect(buy?.parameters.required).not.toContain("limit_price");
    expect(buy?.description).toContain(
      '"limit_price" must not be given when "order_type" is "market" or "stop".',
    );
  });

  it("over HTTP, in a session named by the X-Toolsim-Session header", async () => {
    await runAgent(toolsimOverHttp(server().url, "langchain-http"), MARKET_BUY_PROMPT, model().url);
    expect((await verdictOf(join(dir, "http.db"), "langchain-http")).solved).toBe(true);
  });

  it("on the full profile LangChain would demand the prices a market order must not have (why portable)", async () => {
    const toolsim = toolsimOverStdio(process.execPath, [
      CLI,
      "serve",
      "--stdio",
      "--engine",
      "offline",
      "--db",
      join(dir, "full.db"),
    ]);
    try {
      const buy = (await toolsim.getTools()).find((tool) => tool.name === "place_buy_order");
      expect(((buy?.schema ?? {}) as JsonSchema).required).toEqual(
        expect.arrayContaining(["limit_price", "stop_price"]),
      );
    } finally {
      await toolsim.close();
    }
  });
});
