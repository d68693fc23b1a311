import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Finding } from "../src/engine/index.js";
import { openRuntime } from "./support/index.js";

type Opened = Awaited<ReturnType<typeof openRuntime>>;

describe("validation findings (ToolScan codes)", () => {
  let rt: Opened;
  let session: string;
  beforeEach(async () => {
    rt = await openRuntime();
    session = (await rt.engine.openSession()).id;
  });
  afterEach(() => rt.dispose());

  const errors = (findings: Finding[]) => findings.filter((f) => f.severity === "error");

  it("IFN: an unknown tool is rejected with up to three nearest names", async () => {
    const outcome = await rt.engine.call(session, "get_membr", { member_id: "MEM-001" });
    expect(outcome.status).toBe("rejected");
    const [finding] = errors(outcome.findings);
    expect(finding?.code).toBe("IFN");
    expect(finding?.suggestions?.[0]).toBe("get_member");
    expect(finding?.suggestions?.length).toBeLessThanOrEqual(3);
    expect(finding?.message).toContain('Did you mean "get_member"');
  });

  it("IAN: an unknown argument names the parameter that was probably meant", async () => {
    const outcome = await rt.engine.call(session, "get_member", { memberId: "MEM-001" });
    const codes = errors(outcome.findings).map((f) => f.code);
    expect(codes).toContain("IAN");
    expect(codes).toContain("IAV"); // member_id is then missing
    const ian = outcome.findings.find((f) => f.code === "IAN");
    expect(ian?.argument).toBe("memberId");
    expect(ian?.suggestions).toEqual(["member_id"]);
  });

  it("IAT: a wrong type says what was expected and what came", async () => {
    const outcome = await rt.engine.call(session, "search_books", { genre: "science", limit: "5" });
    const [finding] = errors(outcome.findings);
    expect(finding).toMatchObject({ code: "IAT", argument: "limit" });
    expect(finding?.message).toContain("must be an integer");
    expect(finding?.message).toContain('string "5"');
  });

  it.each([
    ["missing required", "get_member", {}, "member_id", "Missing required argument"],
    ["enum", "search_books", { genre: "poetry" }, "genre", 'one of "fiction", "science", "history"'],
    ["range", "search_books", { genre: "science", limit: 50 }, "limit", "must be from 1 to 20"],
    [
      "format",
      "borrow_book",
      { member_id: "MEM-001", book_id: "BK-0001", due: "20 March" },
      "due",
      "YYYY-MM-DD",
    ],
    ["pattern", "get_member", { member_id: "member-1" }, "member_id", "^MEM-[0-9]{3}$"],
    [
      "length",
      "create_reading_list",
      { member_id: "MEM-001", title: "ab", book_ids: ["BK-0001"] },
      "title",
      "must have at least 3 characters;",
    ],
    [
      "items",
      "create_reading_list",
      { member_id: "MEM-001", title: "Later", book_ids: [] },
      "book_ids",
      "must have at least 1 item;",
    ],
  ])("IAV (%s)", async (_kind, tool, args, argument, fragment) => {
    const outcome = await rt.engine.call(session, tool, args);
    expect(outcome.status).toBe("rejected");
    const finding = errors(outcome.findings).find((f) => f.argument === argument);
    expect(finding?.code).toBe("IAV");
    expect(finding?.message).toContain(fragment);
  });

  it("IAV in nested objects points at the nested path", async () => {
    const outcome = await rt.engine.call(session, "create_reading_list", {
      member_id: "MEM-001",
      title: "Nested",
      book_ids: ["BK-0001"],
      notify: { email: "not-an-email", extra: 1 },
    });
    const found = errors(outcome.findings).map((f) => `${f.code} ${f.argument}`);
    expect(found).toEqual(expect.arrayContaining(["IAV notify.email", "IAN notify.extra"]));
  });

  it.each([
    ["an array", [1, 2]],
    ["a string", '{"member_id":"MEM-001"}'],
    ["a number", 7],
  ])("IFE: arguments that are %s are a malformed call", async (_kind, raw) => {
    const outcome = await rt.engine.call(session, "get_member", raw);
    const [finding] = errors(outcome.findings);
    expect(finding?.code).toBe("IFE");
    expect(finding?.message).toContain("must be a JSON object");
  });

  it("reports every problem of a call at once, not only the first", async () => {
    const outcome = await rt.engine.call(session, "borrow_book", {
      member: "MEM-001",
      book_id: 12,
      due: "soon",
    });
    const codes = errors(outcome.findings)
      .map((f) => f.code)
      .sort();
    expect(codes).toEqual(["IAN", "IAT", "IAV", "IAV"]); // member (unknown), book_id type, due format, member_id missing
  });

  it("a rejected call changes nothing and is logged with its findings", async () => {
    const before = rt.engine.state(session);
    const outcome = await rt.engine.call(session, "get_member", { member_id: 1 });
    expect(rt.engine.state(session)).toEqual(before);
    const [logged] = await rt.engine.calls(session);
    expect(logged).toMatchObject({ seq: outcome.seq, status: "rejected", engine: "validator" });
    expect(logged?.findings[0]?.code).toBe("IAT");
  });

  it("RAC: an identical call on an unchanged state is noted, not rejected; a changed state clears it", async () => {
    const first = await rt.engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(first.findings).toEqual([]);
    const second = await rt.engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(second.status).toBe("ok");
    expect(second.findings).toEqual([expect.objectContaining({ code: "RAC", severity: "note" })]);
    expect(second.findings[0]?.message).toContain(`#${first.seq}`);
    await rt.engine.call(session, "delete_member", { member_id: "MEM-002" });
    const third = await rt.engine.call(session, "get_member", { member_id: "MEM-001" });
    expect(third.findings).toEqual([]);
  });
});
