import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectStdio, LIBRARY, tempDir, textJson } from "./support/index.js";

describe("stdio end to end (real SDK client, spawned CLI)", () => {
  const dir = tempDir();
  const db = join(dir.path, "toolsim.db");
  let client: Client;
  let stderr: () => string;

  beforeAll(async () => {
    ({ client, stderr } = await connectStdio(["--toolsets", LIBRARY, "--db", db, "--session", "desk"]));
  });
  afterAll(async () => {
    await client.close();
    dir.cleanup();
  });

  it("lists the catalog's tools with their schemas, annotations and documented errors", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_member", "borrow_book", "create_reading_list"]));
    const getMember = tools.find((t) => t.name === "get_member");
    expect(getMember?.inputSchema).toMatchObject({ type: "object", required: ["member_id"] });
    expect(getMember?.outputSchema).toMatchObject({ type: "object" });
    expect(getMember?.annotations?.readOnlyHint).toBe(true);
    expect(getMember?.description).toContain("MEMBER_NOT_FOUND (404)");
  });

  it("answers a call with structured content that the client checks against the output schema", async () => {
    const result = await client.callTool({ name: "get_member", arguments: { member_id: "MEM-001" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ member: { member_id: "MEM-001", name: "Ada Park" } });
    expect(textJson(result)).toEqual(result.structuredContent);
    expect(result._meta?.["toolsim/call"]).toMatchObject({ engine: "offline", seq: expect.any(Number) });
  });

  it("keeps state across calls: a write is visible to the next read", async () => {
    const borrowed = await client.callTool({
      name: "borrow_book",
      arguments: { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" },
    });
    expect(borrowed.isError).toBeFalsy();
    const books = await client.callTool({ name: "search_books", arguments: { genre: "fiction" } });
    expect((books.structuredContent as { books: Array<{ copies: number }> }).books[0]?.copies).toBe(1);
  });

  it("a bad call is an isError result with every finding in _meta and a fix-it text", async () => {
    const result = await client.callTool({
      name: "borrow_book",
      arguments: { member: "MEM-001", due: "tomorrow" },
    });
    expect(result.isError).toBe(true);
    const findings = result._meta?.["toolsim/findings"] as Array<{ code: string; argument?: string }>;
    expect(findings.map((f) => f.code).sort()).toEqual(["IAN", "IAV", "IAV", "IAV"]);
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toContain("rejected and nothing was executed");
    expect(text).toContain("Parameters of borrow_book:");
    expect(text).toContain("- due (string, required, format date)");
  });

  it("an unknown tool is an isError result, not a protocol error", async () => {
    const result = await client.callTool({ name: "borow_book", arguments: {} });
    expect(result.isError).toBe(true);
    expect((result._meta?.["toolsim/findings"] as Array<{ code: string }> | undefined)?.[0]?.code).toBe(
      "IFN",
    );
  });

  it("exposes the session state and call log as resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(["toolsim://session/state", "toolsim://session/calls"]);
    const state = JSON.parse(
      ((await client.readResource({ uri: "toolsim://session/state" })).contents[0] as { text: string }).text,
    );
    expect(state.state.loans["LN-0008"]).toMatchObject({ member_id: "MEM-001", status: "open" });
    const calls = JSON.parse(
      ((await client.readResource({ uri: "toolsim://session/calls" })).contents[0] as { text: string }).text,
    );
    expect(calls.calls.map((c: { status: string }) => c.status)).toEqual([
      "ok",
      "ok",
      "ok",
      "rejected",
      "rejected",
    ]);
  });

  it("logs to stderr only, and the database holds every answered call", async () => {
    expect(stderr()).toContain("stdio session desk");
    const file = new Database(db, { readonly: true });
    const count = file.prepare("SELECT COUNT(*) AS n FROM calls").get() as { n: number };
    file.close();
    expect(count.n).toBe(5);
  });
});
