import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { JsonSchema } from "../src/catalog/index.js";
import { runAgent, toolsimOverHttp, toolsimOverStdio } from "./frameworks/mastra.js";
import { MARKET_BUY_PROMPT, marketBuyHarness, verdictOf } from "./support/index.js";

// the scripted model takes any key; Mastra insists on one
process.env.OPENAI_API_KEY = "sk-scripted";

describe("Mastra (0.24): the market-buy task to a solved verdict on the openai-strict profile", () => {
  const { dir, model, server, stdio } = marketBuyHarness({
    profile: "openai-strict",
    model: { strict: true, toolPrefix: "toolsim_" },
  });

  it("over stdio: Mastra requires every property, so optional ones travel as the nulls openai-strict allows", async () => {
    const db = join(dir, "stdio.db");
    const text = await runAgent(
      toolsimOverStdio(process.execPath, stdio("mastra-stdio", db)),
      MARKET_BUY_PROMPT,
      model().url,
    );
    expect(text).toContain("4 VTI shares");
    expect((await verdictOf(db, "mastra-stdio")).solved).toBe(true);
    // what Mastra sent the model: the rules in the description, the optional prices nullable
    const request = model().requests.find((r) => Array.isArray(r.body.tools));
    const tools = request?.body.tools as Array<{
      function: { name: string; description: string; parameters: JsonSchema };
    }>;
    const buy = tools.find((t) => t.function.name === "toolsim_place_buy_order")?.function;
    expect(buy?.description).toContain(
      '"limit_price" must not be given when "order_type" is "market" or "stop".',
    );
    const properties = (buy?.parameters.properties ?? {}) as Record<string, unknown>;
    expect(JSON.stringify(properties.limit_price)).toContain("null");
  });

  it("over HTTP, in a session named by the X-Toolsim-Session header", async () => {
    await runAgent(toolsimOverHttp(server().url, "mastra-http"), MARKET_BUY_PROMPT, model().url);
    expect((await verdictOf(join(dir, "http.db"), "mastra-http")).solved).toBe(true);
  });
});
