import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
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
    const head = file.prepare("SELECT head_version FROM sessions WHERE name = 'crash'").get() as {
      head_version: number;
    };
    file.close();
    expect(rows.map((r) => r.seq)).toEqual(answered);
    expect(head.head_version).toBe(2); // two copies on the shelf: two loans, then NO_COPIES answers change nothing
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
