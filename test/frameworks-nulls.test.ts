import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as aiSdk from "./frameworks/ai-sdk.js";
import * as langchain from "./frameworks/langchain.js";
import * as mastra from "./frameworks/mastra.js";
import * as agents from "./frameworks/openai-agents.js";
import { CLI, type FakeOpenAI, MARKET_BUY_TASK, runCli, startFakeOpenAI, tempDir } from "./support/index.js";

// the scripted model takes any key; the frameworks insist on one
process.env.OPENAI_API_KEY = "sk-scripted";
process.env.OPENAI_AGENTS_DISABLE_TRACING = "1";

type Profile = "full" | "portable" | "openai-strict";
type Outcome = "toolsim took it as not given" | "the framework refused it";

/**
 * Who sees a null for an optional argument, per framework and profile: the scripted model
 * calls list_brokerage_accounts with {"status": null} once, and the call log says whether
 * the call reached toolsim. docs/frameworks.md states this table.
 */
const EXPECTED: Record<string, Record<Profile, Outcome>> = {
  "ai-sdk": {
    full: "toolsim took it as not given",
    portable: "toolsim took it as not given",
    "openai-strict": "toolsim took it as not given",
  },
  "openai-agents": {
    full: "toolsim took it as not given",
    portable: "toolsim took it as not given",
    "openai-strict": "toolsim took it as not given",
  },
  langchain: {
    full: "the framework refused it",
    portable: "the framework refused it",
    "openai-strict": "toolsim took it as not given",
  },
  mastra: {
    full: "the framework refused it",
    portable: "the framework refused it",
    "openai-strict": "toolsim took it as not given",
  },
};

const RUN: Record<string, (command: string, args: string[], model: string) => Promise<unknown>> = {
  "ai-sdk": async (command, args, model) =>
    aiSdk.runAgent(await aiSdk.toolsimOverStdio(command, args), "List my accounts.", model),
  "openai-agents": (command, args, model) =>
    agents.runAgent(agents.toolsimOverStdio(command, args), "List my accounts.", model),
  langchain: (command, args, model) =>
    langchain.runAgent(langchain.toolsimOverStdio(command, args), "List my accounts.", model),
  mastra: (command, args, model) =>
    mastra.runAgent(mastra.toolsimOverStdio(command, args), "List my accounts.", model),
};

describe("null for an optional argument, framework by framework", () => {
  const dir = tempDir("toolsim-nulls-");
  let model: FakeOpenAI | undefined;
  beforeAll(async () => {
    // one call with a null, then a final answer, whatever the framework names the tool
    model = await startFakeOpenAI({
      respond: (request) => {
        const tools = (request.body.tools ?? []) as Array<{ function: { name: string } }>;
        const name = tools.map((t) => t.function.name).find((n) => n.endsWith("list_brokerage_accounts"));
        const called = request.messages.some((m) => m.role === "tool");
        return called || !name
          ? { kind: "text", content: "Done." }
          : { kind: "tools", calls: [{ name, arguments: { status: null } }] };
      },
    });
  });
  afterAll(async () => {
    await model?.close();
    dir.cleanup();
  });

  const cases = Object.entries(EXPECTED).flatMap(([framework, byProfile]) =>
    Object.entries(byProfile).map(([profile, outcome]) => ({ framework, profile, outcome })),
  );

  it.each(cases)(
    "$framework on $profile: $outcome",
    async ({ framework, profile, outcome }) => {
      const session = `nulls-${framework}-${profile}`;
      const db = join(dir.path, `${session}.db`);
      const serve = [CLI, "serve", "--stdio", "--engine", "offline", "--schema-profile", profile];
      const args = [...serve, "--task", MARKET_BUY_TASK, "--session", session, "--db", db];
      const before = model?.requests.length ?? 0;
      await RUN[framework]?.(process.execPath, args, model?.url ?? "");
      // the model did call the tool, and the framework sent back an answer to that call
      const asked = (model?.requests ?? []).slice(before);
      const answered = asked.flatMap((r) => r.messages).filter((m) => m.role === "tool");
      expect(answered).toHaveLength(1);
      const answer = answered[0]?.content ?? "";
      const report = await runCli(["report", session, "--db", db, "--json"]);
      const { timeline } = JSON.parse(report.stdout) as { timeline: Array<{ tool: string; status: string }> };
      const reached = timeline.filter((c) => c.tool === "list_brokerage_accounts");
      if (outcome === "toolsim took it as not given") {
        expect(reached.map((c) => c.status)).toEqual(["ok"]);
        expect(answer).toContain("ACC-2002");
      } else {
        // the framework's own schema check answered, and nothing reached toolsim
        expect(reached).toEqual([]);
        expect(answer).toMatch(/did not match expected schema|Tool validation failed/);
      }
    },
    120_000,
  );
});
