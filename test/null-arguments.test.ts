import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Finding, parameterSummary, rejectionText } from "../src/engine/index.js";
import { FIXTURES, openRuntime } from "./support/index.js";

const DISPATCH = join(FIXTURES, "frameworks", "dispatch.json");
const errors = (findings: Finding[]) => findings.filter((f) => f.severity === "error");
const GOOD = { sender: "ana@example.com", service: "express", weight_kg: 2 };

describe("null for an optional argument, and one clear finding per argument", () => {
  let rt: Awaited<ReturnType<typeof openRuntime>>;
  let session: string;
  beforeAll(async () => {
    rt = await openRuntime([DISPATCH]);
    session = (await rt.engine.openSession()).id;
  });
  afterAll(() => rt.dispose());

  it("takes null for optional arguments as not given, at the top and inside objects", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", {
      ...GOOD,
      pickup_date: null,
      reference: null,
      address: { line1: "1 Main St", line2: null, postal_code: "94110" },
    });
    expect(errors(outcome.findings)).toEqual([]);
    expect(outcome.status).toBe("ok");
    const [logged] = (await rt.engine.calls(session)).slice(-1);
    expect(logged?.arguments).toEqual({ ...GOOD, address: { line1: "1 Main St", postal_code: "94110" } });
  });

  it("a null optional object counts as not given too", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", { ...GOOD, address: null });
    expect(outcome.status).toBe("ok");
  });

  it("keeps null where the schema takes it as a value of its own", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", { ...GOOD, note: null });
    expect(outcome.status).toBe("ok");
    const [logged] = (await rt.engine.calls(session)).slice(-1);
    expect(logged?.arguments).toHaveProperty("note", null);
  });

  it("null for a required argument is one finding that says null", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", { ...GOOD, service: null });
    const found = errors(outcome.findings);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ code: "IAT", argument: "service" });
    expect(found[0]?.message).toBe('"service" must be one of "standard", "express", "scheduled"; got null.');
  });

  it("a wrong type on an enum is one finding, not two", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", { ...GOOD, service: 3 });
    const found = errors(outcome.findings);
    expect(found.map((f) => `${f.code} ${f.argument}`)).toEqual(["IAT service"]);
    expect(found[0]?.message).toContain("got number 3");
  });

  it("says which rule between arguments was broken, in the words the portable profile serves", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", { ...GOOD, pickup_date: "2026-03-04" });
    const [finding] = errors(outcome.findings);
    expect(finding).toMatchObject({ code: "IAV", argument: "pickup_date" });
    expect(finding?.message).toBe(
      'Rule broken: "pickup_date" must not be given when "service" is "standard" or "express".',
    );
    const missing = await rt.engine.call(session, "book_pickup", { ...GOOD, service: "scheduled" });
    expect(errors(missing.findings)[0]?.message).toBe(
      'Rule broken: "pickup_date" is required when "service" is "scheduled".',
    );
  });

  it("says a choice of arguments in words", async () => {
    const outcome = await rt.engine.call(session, "find_parcels", {});
    expect(errors(outcome.findings)[0]?.message).toBe(
      'Rule broken: give at least one of "sender" or "parcel_id".',
    );
  });

  it("counts characters and items in the singular when there is one", async () => {
    const outcome = await rt.engine.call(session, "book_pickup", {
      ...GOOD,
      address: { line1: "", postal_code: "94110" },
    });
    expect(errors(outcome.findings)[0]?.message).toBe(
      '"address.line1" must have at least 1 character; got string "".',
    );
  });

  it("the rejection text lists constraints in the singular too", async () => {
    const rejected = await rt.engine.call(session, "book_pickup", { ...GOOD, weight_kg: 0 });
    const text = rejectionText("book_pickup", rejected.findings, rejected.definition);
    expect(text).toContain('"weight_kg" must be more than 0; got number 0.');
    expect(text).toContain("- reference (string, optional, pattern ^REF-[0-9]{4}$, at least 1 character)");
  });
});

describe("the text an agent reads when its call is rejected", () => {
  const error = (code: Finding["code"], message: string): Finding => ({ code, severity: "error", message });

  it("lists every error, not the notes, and says how many there are", () => {
    expect(rejectionText("get_x", [error("IAV", "one thing")])).toBe(
      "The call to get_x was rejected and nothing was executed. Fix this and call again:\n- [IAV] one thing",
    );
    const note: Finding = { code: "RAC", severity: "note", message: "a repeat" };
    expect(rejectionText("get_x", [error("IAN", "a"), note, error("IAT", "b")])).toBe(
      "The call to get_x was rejected and nothing was executed. Fix these 2 problems and call again:\n- [IAN] a\n- [IAT] b",
    );
  });

  it("ends with the tool's parameters: type, need, constraints and description", () => {
    const tool = {
      name: "book",
      inputSchema: {
        type: "object",
        properties: {
          when: { type: "string", format: "date", description: "Day of the visit." },
          size: { type: "integer", minimum: 1, maximum: 8, default: 2 },
          kind: { enum: ["a", "b"] },
          tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3 },
          code: { type: ["string", "null"], pattern: "^C", minLength: 2, maxLength: 4 },
          grid: { type: "array", items: { type: "array", items: { type: "number" } } },
          list: { type: "array" },
        },
        required: ["when"],
        additionalProperties: false,
      },
    };
    expect(rejectionText("book", [error("IAV", "bad day")], tool)).toBe(
      [
        "The call to book was rejected and nothing was executed. Fix this and call again:",
        "- [IAV] bad day",
        "",
        "Parameters of book:",
        "- when (string, required, format date) — Day of the visit.",
        "- size (integer, optional, >= 1, <= 8, default 2)",
        '- kind (any, optional, one of "a" / "b")',
        "- tags (array of string, optional, at least 1 item, at most 3 items)",
        "- code (string | null, optional, pattern ^C, at least 2 characters, at most 4 characters)",
        "- grid (array of array of number, optional)",
        "- list (array, optional)",
        "No other arguments are accepted.",
      ].join("\n"),
    );
    expect(parameterSummary({ name: "ping", inputSchema: { type: "object" } })).toBe(
      "ping takes no arguments.",
    );
  });
});
