import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type JsonSchema, strictModeProblems } from "../src/catalog/index.js";
import { runAgent, toolsimOverHttp, toolsimOverStdio } from "./frameworks/openai-agents.js";
import { MARKET_BUY_PROMPT, marketBuyHarness, verdictOf } from "./support/index.js";

// the scripted model takes any key; the SDK insists on one (and must not send traces anywhere)
process.env.OPENAI_API_KEY = "sk-scripted";
process.env.OPENAI_AGENTS_DISABLE_TRACING = "1";

describe("OpenAI Agents SDK (@openai/agents 0.14): the market-buy task to a solved verdict in strict mode", () => {
  const { dir, model, server, stdio } = marketBuyHarness({
    profile: "openai-strict",
    model: { strict: true },
  });

  it("over stdio: every schema the SDK sends is strict and passes OpenAI's rules; nulls are accepted", async () => {
    const db = join(dir, "stdio.db");
    const text = await runAgent(
      toolsimOverStdio(process.execPath, stdio("agents-stdio", db)),
      MARKET_BUY_PROMPT,
      model().url,
    );
    expect(text).toContain("4 VTI shares");
    expect((await verdictOf(db, "agents-stdio")).solved).toBe(true);
    const request = model().requests.find((r) => Array.isArray(r.body.tools));
    const tools = request?.body.tools as Array<{
      function: { name: string; strict?: boolean; parameters: JsonSchema };
    }>;
    expect(tools.length).toBeGreaterThan(10);
    for (const tool of tools) {
      expect(tool.function.strict, tool.function.name).toBe(true);
      expect(strictModeProblems(tool.function.parameters), tool.function.name).toEqual([]);
    }
  });

  it("over HTTP, in a session named by the X-Toolsim-Session header", async () => {
    await runAgent(toolsimOverHttp(server().url, "agents-http"), MARKET_BUY_PROMPT, model().url);
    expect((await verdictOf(join(dir, "http.db"), "agents-http")).solved).toBe(true);
  });
});
