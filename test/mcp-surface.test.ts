import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Effect, effectHints, Tool } from "../src/catalog/index.js";
import { CLI, LIBRARY, type RunningServer, startHttpServer, tempDir } from "./support/index.js";

const BORROW = { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" };
const STATE = "toolsim://session/state";
const CALLS = "toolsim://session/calls";
const BOOK = "toolsim://session/state/books/BK-0001";
const MEMBER = "toolsim://session/state/members/MEM-002";
const PART_TEMPLATE = "toolsim://session/state{/path*}{?after,limit}";
const ENTITY_TEMPLATE = "toolsim://session/state/{collection}/{key}";

/** The library fixture plus a task in three turns, in a temp folder. */
function libraryWithTurns(dir: string): string {
  const toolset = JSON.parse(readFileSync(LIBRARY, "utf8")) as { tasks: unknown[] };
  toolset.tasks.push({
    id: "library-renew-in-turns",
    description: "I need to keep The Tide Clock longer.",
    difficulty: "medium",
    turns: ["I need to keep The Tide Clock longer.", "Until April 3, please.", "Thanks, that is all."],
  });
  const file = join(dir, "library.json");
  writeFileSync(file, JSON.stringify(toolset));
  return file;
}

type Era = "2025" | "2026";

function client(era: Era): Client {
  return new Client(
    { name: "surface-test", version: "1" },
    era === "2026" ? { versionNegotiation: { mode: "auto" } } : {},
  );
}

/** Collects resources/updated notifications; `until` waits (within the test's timeout) for a URI to arrive. */
function updates(mcp: Client) {
  const seen: string[] = [];
  const waiting: Array<{ uri: string; count: number; resolve: () => void }> = [];
  mcp.setNotificationHandler("notifications/resources/updated", (notification) => {
    seen.push(notification.params.uri);
    for (const wait of [...waiting]) {
      if (seen.filter((uri) => uri === wait.uri).length >= wait.count) {
        waiting.splice(waiting.indexOf(wait), 1);
        wait.resolve();
      }
    }
  });
  return {
    seen,
    until(uri: string, count: number): Promise<void> {
      if (seen.filter((u) => u === uri).length >= count) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ uri, count, resolve }));
    },
  };
}

/** Subscribes the era's way: resources/subscribe (2025) or a subscriptions/listen stream (2026). */
async function subscribe(mcp: Client, era: Era, uris: string[]): Promise<() => Promise<void>> {
  if (era === "2026") {
    const stream = await mcp.listen({ resourceSubscriptions: uris });
    return () => stream.close();
  }
  for (const uri of uris) await mcp.subscribeResource({ uri });
  return async () => {
    for (const uri of uris) await mcp.unsubscribeResource({ uri });
  };
}

/**
 * What every transport and era must show: a write notifies the state, the call log and the
 * entity it changed, never an entity it did not touch; a read notifies the call log only.
 */
async function subscriptionsWork(mcp: Client, era: Era): Promise<void> {
  const heard = updates(mcp);
  const stop = await subscribe(mcp, era, [STATE, CALLS, BOOK, MEMBER]);
  await mcp.callTool({ name: "borrow_book", arguments: BORROW });
  await Promise.all([heard.until(STATE, 1), heard.until(CALLS, 1), heard.until(BOOK, 1)]);
  await mcp.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
  await heard.until(CALLS, 2);
  // notifications of one subscriber arrive in order: nothing else came for the first two calls
  expect(heard.seen).toEqual([STATE, CALLS, BOOK, CALLS]);
  await stop();
}

describe("annotations from what a tool's effects do", () => {
  const tool = (effects: unknown[], annotations?: Record<string, boolean>) =>
    Tool.parse({
      name: "t",
      description: "d",
      inputSchema: { type: "object", properties: { id: { type: "string" }, v: { type: "string" } } },
      errors: [{ code: "NOT_FOUND", status: 404, message: "no such item", when: "missing" }],
      ...(annotations ? { annotations } : {}),
      effects,
    });
  const hints = (effects: unknown[], annotations?: Record<string, boolean>) => {
    const parsed = tool(effects, annotations);
    return effectHints(parsed.effects as Effect[], parsed.annotations);
  };

  it("read-only when the effects only read, list, check, respond or bind", () => {
    expect(
      hints([
        { kind: "read", target: "items/{id}", as: "item" },
        { kind: "list", target: "items" },
        { kind: "check", require: [{ field: "id", notIn: ["x"], error: "NOT_FOUND" }] },
        { kind: "let", as: "n", value: { $expr: "1" } },
        { kind: "respond", value: "{$item.name}", output: "name" },
      ]),
    ).toEqual({ annotations: { readOnlyHint: true }, inferred: ["readOnlyHint"] });
  });

  it("destructive when an effect deletes or overwrites; additive writes are not", () => {
    expect(hints([{ kind: "delete", target: "items/{id}" }])?.annotations.destructiveHint).toBe(true);
    expect(
      hints([{ kind: "update", target: "items/{id}", inc: { n: 1 } }])?.annotations.destructiveHint,
    ).toBe(true);
    expect(hints([{ kind: "create", target: "items/{id}", set: { v: "{v}" } }])?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(
      hints([{ kind: "update", target: "items/{id}", append: { log: "{v}" } }])?.annotations.destructiveHint,
    ).toBe(false);
  });

  it("idempotent only when every write sets fields to arguments or constants", () => {
    const idempotent = (effects: unknown[]) => hints(effects)?.annotations.idempotentHint;
    expect(idempotent([{ kind: "update", target: "items/{id}", set: { v: "{v}", status: "done" } }])).toBe(
      true,
    );
    expect(idempotent([{ kind: "update", target: "items/{id}", set: { note: "by {v}" } }])).toBe(true);
    expect(idempotent([{ kind: "update", target: "items/{id}", set: { at: "{$now}" } }])).toBe(false);
    expect(idempotent([{ kind: "update", target: "items/{id}", set: { v: { $expr: "v & 'x'" } } }])).toBe(
      false,
    );
    expect(idempotent([{ kind: "update", target: "items/{id}", set: { v: "{v}" }, inc: { n: 1 } }])).toBe(
      false,
    );
    expect(idempotent([{ kind: "create", target: "items/{id}", set: { v: "{v}" } }])).toBe(false);
    expect(idempotent([{ kind: "delete", target: "items/{id}" }])).toBe(false);
  });

  it("reads a tree effect by its operation", () => {
    const tree = (op: string, more: Record<string, unknown> = {}) =>
      hints([{ kind: "tree", op, target: "fs", ...more }]);
    expect(tree("list")?.annotations).toEqual({ readOnlyHint: true });
    expect(tree("write", { path: "{id}", content: "{v}" })?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
    });
    expect(tree("write", { path: "{id}", content: "{v}", append: true })?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
    });
    expect(tree("mkdir", { path: "{id}" })?.annotations.destructiveHint).toBe(false);
    expect(tree("remove", { path: "{id}" })?.annotations.destructiveHint).toBe(true);
    expect(tree("cd", { path: "{id}" })?.annotations.readOnlyHint).toBe(false);
  });

  it("never replaces what the catalog wrote, and says nothing without effects", () => {
    expect(hints([{ kind: "delete", target: "items/{id}" }], { readOnlyHint: true })).toEqual({
      annotations: { readOnlyHint: true },
      inferred: [],
    });
    expect(hints([{ kind: "delete", target: "items/{id}" }], { destructiveHint: false })).toEqual({
      annotations: { destructiveHint: false, readOnlyHint: false, idempotentHint: false },
      inferred: ["readOnlyHint", "idempotentHint"],
    });
    expect(hints([])).toBeUndefined();
  });
});

describe("the MCP surface over stdio", () => {
  const dir = tempDir();
  const toolsets = libraryWithTurns(dir.path);
  const open = async (era: Era, name: string) => {
    const mcp = client(era);
    await mcp.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          CLI,
          "serve",
          "--stdio",
          "--toolsets",
          toolsets,
          "--db",
          join(dir.path, "stdio.db"),
          "--session",
          name,
        ],
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
        stderr: "pipe",
      }),
    );
    return mcp;
  };
  afterAll(() => dir.cleanup());

  it("lists tools with the hints their effects give, marked as inferred", async () => {
    const mcp = await open("2025", "hints");
    try {
      const tools = new Map((await mcp.listTools()).tools.map((t) => [t.name, t]));
      expect(tools.get("renew_loan")?.annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(tools.get("renew_loan")?._meta?.["toolsim/inferredHints"]).toEqual([
        "readOnlyHint",
        "destructiveHint",
        "idempotentHint",
      ]);
      // the catalog's own hints stay, and only the missing ones are marked as inferred
      expect(tools.get("get_member")?.annotations).toEqual({ readOnlyHint: true });
      expect(tools.get("get_member")?._meta).toBeUndefined();
      expect(tools.get("delete_member")?.annotations?.destructiveHint).toBe(true);
      expect(tools.get("delete_member")?._meta?.["toolsim/inferredHints"]).not.toContain("destructiveHint");
      expect(tools.get("search_books")?.annotations).toEqual({ readOnlyHint: true });
    } finally {
      await mcp.close();
    }
  });

  it.each<Era>(["2025", "2026"])("notifies resource updates to a %s-era client", async (era) => {
    const mcp = await open(era, `subscribe-${era}`);
    try {
      await subscriptionsWork(mcp, era);
    } finally {
      await mcp.close();
    }
  });

  it("stops notifying a resource once unsubscribed, and refuses what is not a resource", async () => {
    const mcp = await open("2025", "unsubscribe");
    try {
      const heard = updates(mcp);
      await mcp.subscribeResource({ uri: STATE });
      await mcp.subscribeResource({ uri: STATE }); // twice is once
      await mcp.subscribeResource({ uri: CALLS });
      await mcp.unsubscribeResource({ uri: STATE });
      await mcp.callTool({ name: "borrow_book", arguments: BORROW });
      await heard.until(CALLS, 1);
      expect(heard.seen).toEqual([CALLS]);
      await expect(mcp.subscribeResource({ uri: "file:///etc/passwd" })).rejects.toThrow(
        /toolsim:\/\/session\/state/,
      );
    } finally {
      await mcp.close();
    }
  });

  it("offers the catalog's tasks as prompts: the request, and each turn of a task in turns", async () => {
    const mcp = await open("2025", "prompts");
    try {
      const { prompts } = await mcp.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(["library-borrow", "library-renew-in-turns"]);
      expect(prompts[0]?.arguments).toBeUndefined();
      expect(prompts[1]?.arguments?.map((a) => a.name)).toEqual(["turn"]);
      const borrow = await mcp.getPrompt({ name: "library-borrow" });
      expect(borrow.messages).toEqual([
        {
          role: "user",
          content: { type: "text", text: "Ada (MEM-001) wants to borrow The Tide Clock until March 20." },
        },
      ]);
      const first = await mcp.getPrompt({ name: "library-renew-in-turns" });
      expect(first.messages.map((m) => (m.content as { text: string }).text)).toEqual([
        "I need to keep The Tide Clock longer.",
      ]);
      const second = await mcp.getPrompt({ name: "library-renew-in-turns", arguments: { turn: "2" } });
      expect(second.messages.map((m) => (m.content as { text: string }).text)).toEqual([
        "Until April 3, please.",
      ]);
      const all = await mcp.getPrompt({ name: "library-renew-in-turns", arguments: { turn: "all" } });
      expect(all.messages).toHaveLength(3);
      await expect(
        mcp.getPrompt({ name: "library-renew-in-turns", arguments: { turn: "4" } }),
      ).rejects.toThrow(/"turn" takes 1 to 3 or "all"; got "4"/);
      await expect(mcp.getPrompt({ name: "library-borow" })).rejects.toThrow(/Did you mean "library-borrow"/);
      const turns = await mcp.complete({
        ref: { type: "ref/prompt", name: "library-renew-in-turns" },
        argument: { name: "turn", value: "" },
      });
      expect(turns.completion.values).toEqual(["1", "2", "3", "all"]);
    } finally {
      await mcp.close();
    }
  });

  it.each<Era>(["2025", "2026"])(
    "completes the state template's collection, key and path (%s era)",
    async (era) => {
      const mcp = await open(era, `complete-${era}`);
      try {
        const complete = async (uri: string, name: string, value: string, context?: Record<string, string>) =>
          (
            await mcp.complete({
              ref: { type: "ref/resource", uri },
              argument: { name, value },
              ...(context ? { context: { arguments: context } } : {}),
            })
          ).completion;
        expect((await complete(ENTITY_TEMPLATE, "collection", "bo")).values).toEqual(["books"]);
        expect(await complete(ENTITY_TEMPLATE, "key", "BK-000", { collection: "books" })).toEqual({
          values: ["BK-0001", "BK-0002", "BK-0003"],
          total: 3,
        });
        // a key typed in the wrong case still finds it
        expect((await complete(ENTITY_TEMPLATE, "key", "mem-00", { collection: "members" })).values).toEqual([
          "MEM-001",
          "MEM-002",
        ]);
        expect((await complete(ENTITY_TEMPLATE, "key", "x", { collection: "nothing" })).values).toEqual([]);
        expect((await complete(PART_TEMPLATE, "path", "books/BK-0002")).values).toEqual(["books/BK-0002"]);
        expect((await complete(PART_TEMPLATE, "path", "books/BK-0001/ti")).values).toEqual([
          "books/BK-0001/title",
        ]);
      } finally {
        await mcp.close();
      }
    },
  );
});

describe("resource subscriptions over HTTP", () => {
  const dir = tempDir();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startHttpServer(["--toolsets", LIBRARY, "--db", join(dir.path, "http.db")]);
  });
  afterAll(async () => {
    await server.stop();
    dir.cleanup();
  });
  const open = async (era: Era, session: string) => {
    const mcp = client(era);
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { "X-Toolsim-Session": session } },
      }),
    );
    return mcp;
  };

  it.each<Era>(["2025", "2026"])("notifies resource updates to a %s-era client", async (era) => {
    const mcp = await open(era, `http-subscribe-${era}`);
    try {
      expect(mcp.getNegotiatedProtocolVersion()).toBe(era === "2026" ? "2026-07-28" : "2025-11-25");
      await subscriptionsWork(mcp, era);
    } finally {
      await mcp.close();
    }
  });

  it.each<Era>(["2025", "2026"])(
    "lists hints and prompts, and completes keys, for a %s-era client",
    async (era) => {
      const mcp = await open(era, `http-surface-${era}`);
      try {
        const renew = (await mcp.listTools()).tools.find((t) => t.name === "renew_loan");
        expect(renew?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
        expect((await mcp.listPrompts()).prompts.map((p) => p.name)).toEqual(["library-borrow"]);
        const prompt = await mcp.getPrompt({ name: "library-borrow" });
        expect(prompt.messages[0]?.content).toMatchObject({
          type: "text",
          text: expect.stringContaining("Ada"),
        });
        const keys = await mcp.complete({
          ref: { type: "ref/resource", uri: ENTITY_TEMPLATE },
          argument: { name: "key", value: "LN" },
          context: { arguments: { collection: "loans" } },
        });
        expect(keys.completion.values).toEqual(["LN-0006", "LN-0007"]);
      } finally {
        await mcp.close();
      }
    },
  );

  it("tells a 2026-era listen stream of its own session's changes only", async () => {
    const [mine, theirs] = await Promise.all([open("2026", "listen-mine"), open("2026", "listen-theirs")]);
    try {
      const heard = updates(mine);
      const stream = await mine.listen({ resourceSubscriptions: [STATE] });
      await theirs.callTool({ name: "borrow_book", arguments: BORROW });
      await mine.callTool({ name: "borrow_book", arguments: BORROW });
      await heard.until(STATE, 1);
      // one stream, in order: a leak of the other session's change would have come first
      expect(heard.seen).toEqual([STATE]);
      await stream.close();
    } finally {
      await Promise.all([mine.close(), theirs.close()]);
    }
  });
});
