import { describe, expect, it } from "vitest";
import {
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * A help desk kept under its own namespace: agents and tickets are arrays of records (tickets
 * with a numeric `id` field), and new tickets are numbered from a counter. Served without
 * effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const desk = useDomain("tickets.json");

const TICKET_502 = {
  id: 502,
  subject: "Cannot reset my password",
  requester: "pete@fjordmail.test",
  severity: "normal",
  status: "pending",
  assignee: "ravi",
  notes: ["Asked the customer for the account email."],
};
const TICKET_501 = {
  id: 501,
  subject: "Invoice shows the wrong VAT rate",
  requester: "olga@fjordmail.test",
  severity: "high",
  status: "open",
  assignee: null,
  notes: [],
};

const show = async (ticket_id: number) => expectOk(await desk.call("show_ticket", { ticket_id }));
const found = async (criteria: Record<string, unknown> = {}) => {
  const tickets = fieldsOf(await desk.call("search_tickets", criteria)).tickets;
  return Array.isArray(tickets) ? tickets.map((t: { id?: unknown }) => t.id) : tickets;
};

describe("tickets: an array of ticket records with an id field, numbered from a counter", () => {
  it("a ticket answers its stored record, none of it guessed", async () => {
    const answer = await desk.call("show_ticket", { ticket_id: 502 });
    expectRecord(answer, TICKET_502);
    expectGrounded(answer, Object.keys(TICKET_502));
  });

  it("an unknown ticket number answers the documented error", async () => {
    expectError(await desk.call("show_ticket", { ticket_id: 999 }), "TICKET_NOT_FOUND");
  });

  it("a search matches the stored tickets on the criteria given", async () => {
    const answer = await desk.call("search_tickets", { status: "open" });
    expect
      .soft(expectOk(answer).tickets)
      .toMatchObject([
        { id: 501, subject: "Invoice shows the wrong VAT rate", status: "open", assignee: null },
      ]);
    expectGrounded(answer, ["tickets"]);
    expect.soft(await found({ assignee: "ravi" })).toEqual([502, 503]);
    expect.soft(await found({ assignee: "ravi", status: "solved" })).toEqual([503]);
    expect.soft(await found()).toEqual([501, 502, 503]);
    expect.soft(await found({ assignee: "kit" })).toEqual([]);
  });

  it("a new ticket takes the counter's number, starts open and unassigned, and later reads find it", async () => {
    const answer = await desk.call("open_ticket", {
      subject: "Dark mode resets after login",
      requester: "ines@fjordmail.test",
    });
    expectRecord(
      answer,
      {
        id: 504,
        subject: "Dark mode resets after login",
        requester: "ines@fjordmail.test",
        severity: "normal",
        status: "open",
      },
      { assignee: null, notes: [] },
    );
    expectGrounded(answer, ["id", "subject", "requester", "status"]);
    expect.soft(await show(504)).toMatchObject({
      id: 504,
      subject: "Dark mode resets after login",
      status: "open",
      assignee: null,
    });
    expect.soft(await found()).toEqual([501, 502, 503, 504]);
    const second = await desk.call("open_ticket", {
      subject: "Typo on the pricing page",
      requester: "ines@fjordmail.test",
      severity: "low",
    });
    expect.soft(fieldsOf(second)).toMatchObject({ id: 505, severity: "low" });
    expect.soft(await show(505)).toMatchObject({ subject: "Typo on the pricing page", severity: "low" });
  });

  it("assigning a ticket to an agent is seen by later reads; unknown agents and tickets are refused", async () => {
    const answer = await desk.call("assign_ticket", { ticket_id: 501, assignee: "kit" });
    expectRecord(answer, { id: 501, assignee: "kit" }, TICKET_501);
    expect.soft(await show(501)).toMatchObject({ assignee: "kit", status: "open" });
    expect.soft(await found({ assignee: "kit" })).toEqual([501]);
    expectError(await desk.call("assign_ticket", { ticket_id: 502, assignee: "nobody" }), "AGENT_NOT_FOUND");
    expect.soft(await show(502)).toMatchObject({ assignee: "ravi" });
    expectError(await desk.call("assign_ticket", { ticket_id: 999, assignee: "kit" }), "TICKET_NOT_FOUND");
  });

  it("a note is added after the ticket's existing notes", async () => {
    const answer = await desk.call("add_ticket_note", {
      ticket_id: 502,
      note: "Customer replied with the email.",
    });
    expectRecord(
      answer,
      { id: 502, notes: ["Asked the customer for the account email.", "Customer replied with the email."] },
      TICKET_502,
    );
    expect.soft(await show(502)).toMatchObject({
      notes: ["Asked the customer for the account email.", "Customer replied with the email."],
    });
    expectError(await desk.call("add_ticket_note", { ticket_id: 999, note: "x" }), "TICKET_NOT_FOUND");
  });

  it("a severity change is seen by later reads", async () => {
    expectRecord(
      await desk.call("set_ticket_severity", { ticket_id: 501, severity: "urgent" }),
      { id: 501, severity: "urgent" },
      TICKET_501,
    );
    expect.soft(await show(501)).toMatchObject({ severity: "urgent" });
  });

  it("solving a ticket records the solution and makes it solved; solving it again is refused", async () => {
    const answer = await desk.call("solve_ticket", { ticket_id: 501, solution: "Corrected the VAT rate." });
    expectRecord(answer, { id: 501, status: "solved", solution: "Corrected the VAT rate." }, TICKET_501);
    expect.soft(await show(501)).toMatchObject({ status: "solved", solution: "Corrected the VAT rate." });
    expect.soft(await found({ status: "solved" })).toEqual([501, 503]);
    expectError(
      await desk.call("solve_ticket", { ticket_id: 503, solution: "again" }),
      "TICKET_ALREADY_SOLVED",
    );
    expect.soft(await show(503)).toMatchObject({ solution: "Fixed in release 4.2; export as UTF-8." });
  });

  it("reopening a solved ticket makes it open; an open one cannot be reopened", async () => {
    expectRecord(
      await desk.call("reopen_ticket", { ticket_id: 503 }),
      { id: 503, status: "open" },
      {
        subject: "Export to CSV drops accents",
        requester: "lise@fjordmail.test",
        severity: "low",
        assignee: "ravi",
        notes: [],
        solution: "Fixed in release 4.2; export as UTF-8.",
      },
    );
    expect.soft(await show(503)).toMatchObject({ status: "open" });
    expectError(await desk.call("reopen_ticket", { ticket_id: 501 }), "TICKET_NOT_SOLVED");
    expect.soft(await show(501)).toMatchObject({ status: "open" });
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(desk.breaches).toEqual([]);
  });
});
