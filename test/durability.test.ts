import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openStore } from "../src/store/index.js";
import { callMeta, connectHttp, connectStdio, LIBRARY, startHttpServer, tempDir } from "./support/index.js";

describe("durability", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("every answered call survives kill -9 of the server, and a second process sees it", async () => {
    const db = join(dir.path, "kill.db");
    const server = await startHttpServer(["--toolsets", LIBRARY, "--db", db]);
    const client = await connectHttp(server.url, { "X-Toolsim-Session": "crash" });
    const answered: number[] = [];
    for (let i = 0; i < 20; i++) {
      const result = await client.callTool({
        name: "borrow_book",
        arguments: { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" },
      });
      answered.push(callMeta(result).seq);
    }
    await server.stop("SIGKILL");
    const file = new Database(db, { readonly: true });
    const rows = file.prepare("SELECT seq FROM calls ORDER BY seq").all() as Array<{ seq: number }>;
    file.close();
    expect(rows.map((r) => r.seq)).toEqual(answered);
    const reader = await openStore(db, { readonly: true });
    try {
      // two copies on the shelf: two loans, then NO_COPIES answers change nothing
      expect((await reader.session("crash", ""))?.headVersion).toBe(2);
    } finally {
      await reader.close();
    }
  });

  it("a kill -9 in the middle of calls in flight loses no answered call and leaves every session consistent", async () => {
    const db = join(dir.path, "inflight.db");
    const server = await startHttpServer(["--toolsets", LIBRARY, "--db", db]);
    const sessions = ["w0", "w1", "w2"];
    const answered = new Map<string, Array<{ seq: number; due: string }>>(sessions.map((s) => [s, []]));
    let killed = false;
    const work = sessions.map(async (name) => {
      const client = await connectHttp(server.url, { "X-Toolsim-Session": name });
      for (let i = 0; !killed; i++) {
        const due = `2026-04-${String(1 + (i % 28)).padStart(2, "0")}`;
        try {
          const result = await client.callTool({
            name: "renew_loan",
            arguments: { loan_id: "LN-0007", new_due: due },
          });
          answered.get(name)?.push({ seq: callMeta(result).seq, due });
        } catch {
          return; // the server died with this call in flight: its answer never came
        }
      }
    });
    // let every session get going, then kill while calls are being answered
    while ([...answered.values()].some((calls) => calls.length < 5))
      await new Promise((r) => setTimeout(r, 10));
    await server.stop("SIGKILL");
    killed = true;
    await Promise.all(work);

    const store = await openStore(db);
    try {
      for (const name of sessions) {
        const session = await store.session(name, "");
        if (!session) throw new Error(`session ${name} is missing`);
        const logged = await store.calls(session.id);
        const seen = answered.get(name) ?? [];
        // every answered call is there, in order; at most the one in flight was committed without its answer reaching us
        expect(logged.slice(0, seen.length).map((c) => c.seq)).toEqual(seen.map((c) => c.seq));
        expect(logged.length - seen.length).toBeLessThanOrEqual(1);
        const last = logged.at(-1);
        expect(session.headVersion).toBe(last?.versionAfter);
        const head = await store.head(session.id);
        const loan = head.state.entity("loans", "LN-0007") as { due: string } | undefined;
        expect(loan?.due).toBe((last?.arguments as { new_due?: string } | undefined)?.new_due);
      }
    } finally {
      await store.close();
    }
  });

  it("a restart with --session NAME continues the state where it stopped", async () => {
    const db = join(dir.path, "resume.db");
    const first = await connectStdio(["--toolsets", LIBRARY, "--db", db, "--session", "ada"]);
    const borrowed = await first.client.callTool({
      name: "borrow_book",
      arguments: { member_id: "MEM-001", book_id: "BK-0001", due: "2026-03-20" },
    });
    expect(borrowed.isError).toBeFalsy();
    await first.client.close();

    const second = await connectStdio(["--toolsets", LIBRARY, "--db", db, "--session", "ada"]);
    const books = await second.client.callTool({ name: "search_books", arguments: { genre: "fiction" } });
    const returned = await second.client.callTool({
      name: "return_book",
      arguments: { loan_id: "LN-0008", book_id: "BK-0001" },
    });
    await second.client.close();
    expect((books.structuredContent as { books: Array<{ copies: number }> }).books[0]?.copies).toBe(1);
    expect(returned.structuredContent).toMatchObject({ loan_id: "LN-0008", status: "closed" });
    expect(second.stderr()).toContain("stdio session ada");
  });
});
