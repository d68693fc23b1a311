import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveLlmConfig } from "../src/llm/index.js";
import {
  commandOf,
  DocRun,
  type Fence,
  fence,
  fencesWhere,
  linesOf,
  readerEnv,
  startServing,
  toolsimBin,
} from "./support/docs.js";
import {
  callMeta,
  connectHttp,
  type FakeOpenAI,
  type FakeStep,
  HELPDESK,
  type RecordedRequest,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

/**
 * docs/llm.md (and the README's engine lines) as written: every setup serves and answers a
 * call through the model it names, the configuration file loads and is the configuration the
 * page says, the startup lines are the ones toolsim prints, and the answer format is one
 * toolsim takes. The model is the scripted OpenAI-compatible server: where a line names
 * OpenAI's endpoint, OPENAI_BASE_URL points there, as a reader's own proxy would; where it
 * names a local server (`http://localhost:PORT/v1`), that address is the reader's server, and
 * the scripted one's stands in for it.
 */
const DOC = "docs/llm.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-llm-docs-");
const bin = toolsimBin(join(dir.path, "bin"));
const LOCAL = /http:\/\/localhost:\d+\/v1/;

/** The one shipped tool no effect grounds: every engine choice that uses a model sends it there. */
const GUESSED = {
  name: "check_entry_requirements",
  arguments: {
    nationality: "US",
    destination_country: "PT",
    arrival_date: "2026-04-10",
    purpose: "tourism",
    stay_days: 10,
  },
};
const MODEL_NOTE = "Proof of onward travel may be asked for at the border.";
const ENTRY_ANSWER = {
  outcome: "success",
  result: {
    nationality: "US",
    destination_country: "PT",
    visa_required: false,
    travel_authorization: { required: true, name: "ETIAS" },
    passport_validity_months: 3,
    max_stay_days: 90,
    notes: [MODEL_NOTE],
    source_updated_on: "2026-01-15",
  },
  error: null,
  patch: [],
};

/** The answer-format line of the page, its elided result filled in for a ticket it closes. */
const answerLine = fence(DOC, { heading: "One call, one request", lang: "json" });
const CLOSED = '{"ticket_id": "TCK-1", "status": "closed"}';

function respond(request: RecordedRequest): FakeStep {
  const asked = request.messages.map((m) => m.content).join("\n");
  if (asked.includes("close_ticket"))
    return { kind: "text", content: answerLine.code.replace("{…}", CLOSED) };
  if (asked.includes(GUESSED.name)) return { kind: "json", value: ENTRY_ANSWER };
  return { kind: "status", status: 500, message: "the scripted model answers two tools only" };
}

let model: FakeOpenAI;
beforeAll(async () => {
  model = await startFakeOpenAI({ respond });
});
afterAll(async () => {
  await model?.close();
  dir.cleanup();
});

let homes = 0;

/** The engine line a server printed. */
const engineLine = (stdout: string) => /^ {2}engine {4}(.*)$/m.exec(stdout)?.[1] ?? "";

/**
 * Serves a setup's line as written (only on a free port, not the default 3333), makes a call
 * that goes to the model, and returns what the model was asked and what the server printed.
 */
async function serveAndCall(
  line: string,
  cwd: string,
): Promise<{ stdout: string; request?: RecordedRequest }> {
  const asWritten = commandOf(line).replace(LOCAL, model.url);
  const before = model.requests.length;
  // OpenAI's endpoint is reached with the key in the environment; a local server takes none
  const hosted = !LOCAL.test(line) ? { OPENAI_API_KEY: "sk-docs", OPENAI_BASE_URL: model.url } : {};
  // a home of its own: the replay cache of an earlier run would answer instead of the model
  const env = readerEnv(bin, join(dir.path, `home-${++homes}`), hosted);
  const server = await startServing(`${asWritten} --port 0`, cwd, env);
  try {
    const client = await connectHttp(server.url);
    try {
      const result = await client.callTool(GUESSED);
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      // the model's own words are in the answer: it came from the model, not the offline engine
      expect(JSON.stringify(result.structuredContent), callMeta(result).fallback).toContain(MODEL_NOTE);
    } finally {
      await client.close();
    }
    return { stdout: server.stdout(), request: model.requests.slice(before).at(-1) };
  } finally {
    await server.stop();
  }
}

describe("docs/llm.md: Setups", () => {
  const setups = fencesWhere(DOC, { heading: "Setups", lang: "sh" });

  it("each setup serves, and a call no rule answers goes to the model it names", async () => {
    expect(setups.length).toBe(5);
    for (const setup of setups) {
      const [line] = linesOf(setup);
      const named = /--model (\S+)/.exec(line ?? "")?.[1];
      const { stdout, request } = await serveAndCall(line ?? "", dir.path);
      expect(request?.model, line).toBe(named);
      expect(engineLine(stdout), line).toMatch(
        new RegExp(`^llm .*\\(${named?.replace(/[.:/]/g, "\\$&")} at `),
      );
      doc.ran(setup);
    }
  }, 120_000);

  it("the settings in a file load, and are the configuration the flags would give", async () => {
    const settings = fence(DOC, { heading: "Setups", lang: "json" });
    const cwd = join(dir.path, "with-config");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "toolsim.config.json"), settings.code);
    const resolved = resolveLlmConfig({ flags: {}, env: {}, file: join(cwd, "toolsim.config.json") });
    expect(resolved).toMatchObject({
      engine: "llm",
      deadlineMs: 40_000,
      passes: { semanticCheck: false, audit: false, cache: true },
      config: {
        baseURL: "http://localhost:11434/v1",
        models: { simulate: "qwen3:8b", judge: "qwen3:14b" },
        timeoutMs: 20_000,
        concurrency: 2,
      },
    });
    // toolsim serve finds ./toolsim.config.json by itself
    const server = await startServing("toolsim serve --port 0", cwd, readerEnv(bin, join(dir.path, "home")));
    await server.stop();
    expect(engineLine(server.stdout())).toContain(
      "(qwen3:8b at http://localhost:11434/v1; auto: a base URL is configured)",
    );
    doc.ran(settings);
  }, 60_000);
});

describe("docs/llm.md: Choosing the engine", () => {
  it("prints the engine lines the page shows", async () => {
    const shown = fence(DOC, { heading: "Choosing the engine", lang: "" });
    const [withKey, without] = linesOf(shown);
    const printed = async (extra: NodeJS.ProcessEnv) => {
      const server = await startServing(
        "toolsim serve --port 0",
        dir.path,
        readerEnv(bin, join(dir.path, "home"), extra),
      );
      await server.stop();
      return `engine    ${engineLine(server.stdout())}`;
    };
    // a key and nothing else: OpenAI's endpoint (no request is made at start)
    expect(await printed({ OPENAI_API_KEY: "sk-docs" })).toBe(withKey);
    expect(await printed({})).toBe(without);
    doc.ran(shown);
  }, 60_000);
});

describe("docs/llm.md: One call, one request", () => {
  it("the answer the page shows is one toolsim takes: the result answers, the patch applies", async () => {
    const server = await startServing(
      `toolsim serve --port 0 --toolsets ${HELPDESK} --no-infer --engine llm --llm-base-url ${model.url} --model desk`,
      dir.path,
      readerEnv(bin, join(dir.path, "home")),
    );
    try {
      const client = await connectHttp(server.url);
      const result = await client.callTool({ name: "close_ticket", arguments: { ticket_id: "TCK-1" } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual(JSON.parse(CLOSED));
      expect(callMeta(result).fallback).toBeUndefined();
      const read = await client.readResource({ uri: "toolsim://session/state/tickets/TCK-1" });
      const ticket = read.contents[0];
      expect(JSON.parse(ticket && "text" in ticket ? ticket.text : "{}").value).toMatchObject({
        status: "closed",
      });
      await client.close();
    } finally {
      await server.stop();
    }
    doc.ran(answerLine);
  }, 60_000);
});

describe("the README's engine lines", () => {
  const engines = fence("README.md", {
    heading: "Engines: offline by default, any OpenAI-compatible model when you want one",
    lang: "sh",
  });

  it("each serves, and a call no rule answers goes to the model it names", async () => {
    for (const line of linesOf(engines)) {
      const named = /--model (\S+)/.exec(line)?.[1];
      const { request } = await serveAndCall(line, dir.path);
      expect(request?.model, line).toBe(named);
      doc.ran(engines as Fence, commandOf(line));
    }
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
