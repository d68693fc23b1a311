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
 * A calendar behind get_/post_/patch_/put_/delete_ operations: events keyed by 'evt_xxxx' ids
 * inside a calendar record, each with an array of attendee records keyed by email, each
 * attendee with an RSVP. Served without effects.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const cal = useDomain("calendars.json");

const DESIGN_REVIEW = {
  event_id: "evt_3k9a",
  title: "Design review",
  start: "2026-03-03T10:00:00Z",
  end: "2026-03-03T11:00:00Z",
  location: "Room 4",
  organizer: "mei@orchard.test",
  attendees: [
    { email: "mei@orchard.test", rsvp: "accepted" },
    { email: "tom@orchard.test", rsvp: "needs_action" },
  ],
};

const PLANNING = {
  event_id: "evt_9x4m",
  title: "Quarterly planning",
  start: "2026-03-10T13:00:00Z",
  end: "2026-03-10T16:00:00Z",
  location: "Main hall",
  organizer: "ivo@orchard.test",
  attendees: [
    { email: "ivo@orchard.test", rsvp: "accepted" },
    { email: "mei@orchard.test", rsvp: "tentative" },
    { email: "sam@orchard.test", rsvp: "declined" },
  ],
};

const eventIds = async () => {
  const events = fieldsOf(await cal.call("get_events")).events;
  return Array.isArray(events) ? events.map((e: { event_id?: unknown }) => e.event_id).sort() : events;
};
const attendees = async (event_id: string) =>
  fieldsOf(await cal.call("get_attendees", { event_id })).attendees;

describe("calendars: events keyed by id in a calendar record, attendee arrays, RSVPs", () => {
  it("the event list answers the stored events", async () => {
    const answer = await cal.call("get_events");
    expect.soft(expectOk(answer).events).toMatchObject([
      {
        event_id: "evt_3k9a",
        title: "Design review",
        start: "2026-03-03T10:00:00Z",
        end: "2026-03-03T11:00:00Z",
      },
      { event_id: "evt_7p2c", title: "Dentist", start: "2026-03-05T08:30:00Z", end: "2026-03-05T09:00:00Z" },
      {
        event_id: "evt_9x4m",
        title: "Quarterly planning",
        start: "2026-03-10T13:00:00Z",
        end: "2026-03-10T16:00:00Z",
      },
    ]);
    expectGrounded(answer, ["events"]);
  });

  it("an event answers its stored fields and attendees; an unknown id answers the documented error", async () => {
    const answer = await cal.call("get_event", { event_id: "evt_3k9a" });
    expectRecord(answer, DESIGN_REVIEW);
    expectGrounded(answer, Object.keys(DESIGN_REVIEW));
    expectError(await cal.call("get_event", { event_id: "evt_zzzz" }), "EVENT_NOT_FOUND");
  });

  it("a created event gets an id in the calendar's id format, which get_event and get_events then find", async () => {
    const created = await cal.call("post_event", {
      title: "Lunch with Ivo",
      start: "2026-03-04T12:30:00Z",
      end: "2026-03-04T13:30:00Z",
      location: "Cantina",
    });
    const fields = expectOk(created);
    expect.soft(fields).toMatchObject({
      title: "Lunch with Ivo",
      start: "2026-03-04T12:30:00Z",
      end: "2026-03-04T13:30:00Z",
      location: "Cantina",
    });
    expect.soft(fields.event_id).toMatch(/^evt_[a-z0-9]{4}$/);
    expectGrounded(created, ["event_id", "title", "start", "end", "location"]);
    const id = String(fields.event_id);
    expect.soft(expectOk(await cal.call("get_event", { event_id: id }))).toMatchObject({
      event_id: id,
      title: "Lunch with Ivo",
      location: "Cantina",
      organizer: "mei@orchard.test",
      attendees: [{ email: "mei@orchard.test", rsvp: "accepted" }],
    });
    expect.soft(await eventIds()).toEqual(["evt_3k9a", "evt_7p2c", "evt_9x4m", id].sort());
  });

  it("an event that ends before it starts is refused with the documented error, and nothing is created", async () => {
    expectError(
      await cal.call("post_event", {
        title: "Backwards",
        start: "2026-03-04T12:00:00Z",
        end: "2026-03-04T11:00:00Z",
      }),
      "INVALID_TIME_RANGE",
    );
    expect.soft(await eventIds()).toEqual(["evt_3k9a", "evt_7p2c", "evt_9x4m"]);
  });

  it("a patch changes the given fields only, for later reads", async () => {
    const answer = await cal.call("patch_event", { event_id: "evt_7p2c", location: "Rua do Ouro 3" });
    expectRecord(
      answer,
      {
        event_id: "evt_7p2c",
        title: "Dentist",
        start: "2026-03-05T08:30:00Z",
        end: "2026-03-05T09:00:00Z",
        location: "Rua do Ouro 3",
      },
      { organizer: "mei@orchard.test", attendees: [{ email: "mei@orchard.test", rsvp: "accepted" }] },
    );
    expect.soft(expectOk(await cal.call("get_event", { event_id: "evt_7p2c" }))).toMatchObject({
      title: "Dentist",
      location: "Rua do Ouro 3",
      start: "2026-03-05T08:30:00Z",
    });
    expectError(await cal.call("patch_event", { event_id: "evt_zzzz", title: "x" }), "EVENT_NOT_FOUND");
  });

  it("a deleted event is gone for later reads, and deleting it again is not found", async () => {
    expectOk(await cal.call("delete_event", { event_id: "evt_7p2c" }));
    expectError(await cal.call("get_event", { event_id: "evt_7p2c" }), "EVENT_NOT_FOUND");
    expect.soft(await eventIds()).toEqual(["evt_3k9a", "evt_9x4m"]);
    expectError(await cal.call("delete_event", { event_id: "evt_7p2c" }), "EVENT_NOT_FOUND");
  });

  it("the attendees of an event answer their stored RSVPs", async () => {
    const answer = await cal.call("get_attendees", { event_id: "evt_9x4m" });
    const { attendees: stored, ...event } = PLANNING;
    expectRecord(answer, { attendees: stored }, event);
    expectGrounded(answer, ["attendees"]);
    expectError(await cal.call("get_attendees", { event_id: "evt_zzzz" }), "EVENT_NOT_FOUND");
  });

  it("an invited person joins the attendees with RSVP needs_action; a second invitation is refused", async () => {
    const answer = await cal.call("post_attendee", { event_id: "evt_7p2c", email: "ana@orchard.test" });
    expectRecord(answer, { email: "ana@orchard.test", rsvp: "needs_action" }, { event_id: "evt_7p2c" });
    expect.soft(await attendees("evt_7p2c")).toEqual([
      { email: "mei@orchard.test", rsvp: "accepted" },
      { email: "ana@orchard.test", rsvp: "needs_action" },
    ]);
    expectError(
      await cal.call("post_attendee", { event_id: "evt_3k9a", email: "tom@orchard.test" }),
      "ALREADY_INVITED",
    );
    expect.soft(await attendees("evt_3k9a")).toEqual(DESIGN_REVIEW.attendees);
    expectError(
      await cal.call("post_attendee", { event_id: "evt_zzzz", email: "ana@orchard.test" }),
      "EVENT_NOT_FOUND",
    );
  });

  it("a removed attendee is gone from the event; one never invited answers the documented error", async () => {
    expectOk(await cal.call("delete_attendee", { event_id: "evt_3k9a", email: "tom@orchard.test" }));
    expect.soft(await attendees("evt_3k9a")).toEqual([{ email: "mei@orchard.test", rsvp: "accepted" }]);
    expectError(
      await cal.call("delete_attendee", { event_id: "evt_3k9a", email: "zed@orchard.test" }),
      "ATTENDEE_NOT_FOUND",
    );
  });

  it("an RSVP is recorded on that attendee only", async () => {
    const answer = await cal.call("put_rsvp", {
      event_id: "evt_3k9a",
      email: "tom@orchard.test",
      rsvp: "declined",
    });
    expectRecord(answer, { email: "tom@orchard.test", rsvp: "declined" }, { event_id: "evt_3k9a" });
    expect.soft(await attendees("evt_3k9a")).toEqual([
      { email: "mei@orchard.test", rsvp: "accepted" },
      { email: "tom@orchard.test", rsvp: "declined" },
    ]);
    expect.soft(await attendees("evt_9x4m")).toEqual(PLANNING.attendees);
    expectError(
      await cal.call("put_rsvp", { event_id: "evt_3k9a", email: "zed@orchard.test", rsvp: "accepted" }),
      "ATTENDEE_NOT_FOUND",
    );
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(cal.breaches).toEqual([]);
  });
});
