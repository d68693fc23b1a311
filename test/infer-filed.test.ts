import { describe, expect, it } from "vitest";
import { call, failure, integer, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Records filed under a number rather than an id (an issue's `number`, an `order_number`), and
 * a world that says who is signed in by a field named so (`signed_in_as`): the number addresses
 * the record in every tool, and a new record is written by whoever is signed in.
 */

/** A lending library's repair requests, filed by number; the clerk at the desk is signed in. */
const desk = (more: State = {}): State => ({
  desk: {
    signed_in_as: "ines",
    next_request_number: 13,
    requests: [
      { number: 11, title: "Torn spine", state: "open", filed_by: "ines", shelf: "B4" },
      { number: 12, title: "Water damage", state: "closed", filed_by: "otto", shelf: "A1" },
    ],
    ...more,
  },
});
const requests = (after: State) => (after.desk as { requests: State[] }).requests;

const file = tool(
  "fileRequest",
  "File a repair request as the signed-in clerk.",
  { title: text, shelf: text },
  ["title"],
);
const get = tool("getRequest", "Get a repair request by its number.", { number: integer });
const close = tool("closeRequest", "Close a repair request.", { number: integer });
const signOut = tool("signOut", "Sign out of the desk.");
const signIn = tool("signIn", "Sign in at the desk.", { clerk: text });
const all = [file, get, close, signOut, signIn];

describe("records filed under a number", () => {
  it("are read by it, and an unknown number answers the not-found error", async () => {
    const found = await call(world(desk(), all), "getRequest", { number: 12 });
    expect(found.answer).toMatchObject({ number: 12, title: "Water damage", state: "closed" });
    const missing = await call(world(desk(), all), "getRequest", { number: 99 });
    expect(failure(missing.outcome)).toBe("REQUEST_NOT_FOUND");
  });

  it("are changed by it", async () => {
    const { after } = await call(world(desk(), all), "closeRequest", { number: 11 });
    expect(requests(after).find((r) => r.number === 11)?.state).toBe("closed");
    expect(requests(after).find((r) => r.number === 12)).toEqual(requests(desk())[1]);
  });

  it("a new one takes the next number and is filed by whoever is signed in", async () => {
    const { after, answer, report } = await call(world(desk(), all), "fileRequest", {
      title: "Loose pages",
      shelf: "C2",
    });
    expect(requests(after).at(-1)).toMatchObject({ number: 13, title: "Loose pages", filed_by: "ines" });
    expect((after.desk as State).next_request_number).toBe(14);
    expect(answer).toMatchObject({ number: 13 });
    expect(report.verdict).toBe("inferred");
  });

  it("a number that repeats tells no records apart, and files nothing under it", async () => {
    const twice = desk({
      requests: [
        { number: 1, title: "a", state: "open", filed_by: "ines" },
        { number: 1, title: "b", state: "open", filed_by: "otto" },
      ],
    });
    const { outcome } = await call(world(twice, all), "getRequest", { number: 1 });
    expect(failure(outcome)).not.toBe("REQUEST_NOT_FOUND");
  });
});

describe("who is signed in, by a field named so", () => {
  it("signing out clears it, and signing in sets it", async () => {
    const out = await call(world(desk(), all), "signOut", {});
    expect((out.after.desk as State).signed_in_as).toBeNull();
    expect(out.report.notes.join(" ")).toMatch(/signs out: sets signed_in_as of desk/);
    const back = await call(world(desk(), all), "signIn", { clerk: "otto" }, out.after);
    expect((back.after.desk as State).signed_in_as).toBe("otto");
  });

  it("a time of signing in is not who signed in", async () => {
    const stamped = { desk: { logged_in_at: "2026-01-05T09:00:00Z", requests: [] } };
    const { after } = await call(world(stamped, all), "signOut", {});
    expect((after.desk as State).logged_in_at).toBe("2026-01-05T09:00:00Z");
  });
});
