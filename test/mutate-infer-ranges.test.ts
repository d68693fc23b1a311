import { describe, expect, it } from "vitest";
import { bool, call, error, failure, inferred, integer, text, tool, world } from "./support/infer-world.js";

/**
 * Ranges (docs/inference.md): a documented error that speaks of order and names a pair of
 * bounding arguments requires them in order, times compared as instants and numbers as
 * numbers; an end must come after its start, a maximum may equal its minimum.
 */

const instant = { type: "string", format: "date-time" };

const lodge = world(
  {
    rooms: { r1: { room_id: "r1", name: "Garden", beds: 2 } },
    bookings: {
      b1: {
        booking_id: "b1",
        room_id: "r1",
        guest: "Ana",
        check_in: "2026-04-01T15:00:00Z",
        check_out: "2026-04-03T10:00:00Z",
      },
    },
  },
  [
    tool(
      "create_booking",
      "Book a room.",
      { room_id: text, guest: text, check_in: instant, check_out: instant, opt_in: bool },
      ["room_id", "guest", "check_in", "check_out"],
      [
        // a not-found error that happens to say "before" is not the one about order
        error("ROOM_NOT_FOUND", "Room not found.", "Choose a room before booking; no room has this id.", 404),
        error("DATES_OUT_OF_ORDER", "Check-out must be after check-in."),
      ],
    ),
  ],
);

const book = (check_in: string, check_out: string) =>
  call(lodge, "create_booking", { room_id: "r1", guest: "Ben", check_in, check_out });

describe("a stay: check-out after check-in, times by their format", () => {
  it("books a stay whose check-out follows its check-in", async () => {
    const { outcome, after } = await book("2026-05-01T15:00:00Z", "2026-05-04T10:00:00Z");
    expect(outcome.status).toBe("applied");
    const bookings = after.bookings as Record<string, Record<string, unknown>>;
    expect(Object.values(bookings).map((b) => b.check_out)).toEqual([
      "2026-04-03T10:00:00Z",
      "2026-05-04T10:00:00Z",
    ]);
  });

  it("refuses a check-out before the check-in, or at the same time, with the documented error", async () => {
    expect(failure((await book("2026-05-04T15:00:00Z", "2026-05-01T10:00:00Z")).outcome)).toBe(
      "DATES_OUT_OF_ORDER",
    );
    expect(failure((await book("2026-05-04T15:00:00Z", "2026-05-04T15:00:00Z")).outcome)).toBe(
      "DATES_OUT_OF_ORDER",
    );
  });

  it("compares the times as instants, not as text", async () => {
    // 15:00 at +09:00 is 06:00Z, before 08:00Z, though "08:00" sorts before "15:00" as text
    expect((await book("2026-05-04T15:00:00+09:00", "2026-05-04T08:00:00Z")).outcome.status).toBe("applied");
  });

  it("says in the report which argument must follow which, and with which error", () => {
    const { report } = inferred(lodge, "create_booking");
    expect(report.notes).toContain("requires check_out after check_in (DATES_OUT_OF_ORDER)");
  });
});

describe("events: an end after the start, as instants", () => {
  const calendar = world(
    {
      events: { e1: { event_id: "e1", title: "Standup" } },
      meetings: { m1: { meeting_id: "m1", title: "Plan" } },
      reminders: { n1: { reminder_id: "n1", title: "Call" } },
      deadlines: { d1: { deadline_id: "d1", title: "Taxes" } },
    },
    [
      tool(
        "create_event",
        "Create an event.",
        { title: text, start_time: text, end_time: text, end_time_zone: text },
        ["title"],
        [error("END_BEFORE_START", "The end time must be after the start time.")],
      ),
      tool(
        "schedule_meeting",
        "Schedule a meeting.",
        { title: text, from: text, to: text, invite_to: { type: "array", items: text } },
        ["title", "from", "to"],
        [error("BAD_WINDOW", "'to' must be later than 'from'.")],
      ),
      tool(
        "create_reminder",
        "Create a reminder at the end of an event.",
        { title: text, start_date: text, start_time: text, end_date: text },
        ["title"],
        [error("BAD_REMINDER", "The end date must be after the start.")],
      ),
      tool(
        "create_deadline",
        "Create a deadline.",
        { title: text, start_time: text, end_time: text },
        ["title"],
        // speaks of order and of the end, not of the start: not about the pair
        [error("END_IN_PAST", "The end time must be later than now.")],
      ),
    ],
  );

  it("compares times with offsets as instants", async () => {
    // 10:00 at +02:00 is 08:00Z, before 09:30Z, though "09:30" sorts before "10:00" as text
    const later = await call(calendar, "create_event", {
      title: "Review",
      start_time: "2026-05-01T10:00:00+02:00",
      end_time: "2026-05-01T09:30:00Z",
    });
    expect(later.outcome.status).toBe("applied");
    const earlier = await call(calendar, "create_event", {
      title: "Review",
      start_time: "2026-05-01T10:00:00Z",
      end_time: "2026-05-01T11:30:00+02:00",
    });
    expect(failure(earlier.outcome)).toBe("END_BEFORE_START");
  });

  it("refuses an end equal to the start", async () => {
    const same = await call(calendar, "create_event", {
      title: "Review",
      start_time: "2026-05-01T10:00:00Z",
      end_time: "2026-05-01T10:00:00Z",
    });
    expect(failure(same.outcome)).toBe("END_BEFORE_START");
  });

  it("checks nothing when either bound is left out", async () => {
    for (const args of [{ start_time: "2026-05-01T10:00:00Z" }, { end_time: "2026-05-01T10:00:00Z" }, {}])
      expect((await call(calendar, "create_event", { title: "Open", ...args })).outcome.status).toBe(
        "applied",
      );
  });

  it("reads `from` and `to` as times, and leaves a list of recipients out of the pair", async () => {
    const ok = await call(calendar, "schedule_meeting", {
      title: "Sync",
      from: "2026-05-01T10:00:00+02:00",
      to: "2026-05-01T08:30:00Z",
      invite_to: ["ana@example.com"],
    });
    expect(ok.outcome.status).toBe("applied");
    const inverted = await call(calendar, "schedule_meeting", {
      title: "Sync",
      from: "2026-05-01T10:00:00Z",
      to: "2026-05-01T11:30:00+02:00",
      invite_to: [],
    });
    expect(failure(inverted.outcome)).toBe("BAD_WINDOW");
    expect(ok.report.notes).toContain("requires to after from (BAD_WINDOW)");
  });

  it("makes no check when the bound word names two arguments of two words", async () => {
    const { report } = inferred(calendar, "create_reminder");
    expect(report.notes.filter((n) => n.startsWith("requires"))).toEqual([]);
    const odd = await call(calendar, "create_reminder", {
      title: "Later",
      start_date: "2026-05-09",
      end_date: "2026-05-01",
    });
    expect(odd.outcome.status).toBe("applied");
  });

  it("makes no check from an error that speaks of only one of the pair", async () => {
    const { outcome, report } = await call(calendar, "create_deadline", {
      title: "Filing",
      start_time: "2026-05-09T10:00:00Z",
      end_time: "2026-05-01T10:00:00Z",
    });
    expect(outcome.status).toBe("applied");
    expect(report.notes.filter((n) => n.startsWith("requires"))).toEqual([]);
    expect(report.drafts.map((d) => d.kind)).toEqual(["create"]);
  });

  it("keeps an argument of three words out of the pair (the time zone of the end)", async () => {
    const { report } = inferred(calendar, "create_event");
    expect(report.notes).toContain("requires end_time after start_time (END_BEFORE_START)");
  });
});

describe("counts and prices: numbers as numbers, a maximum may equal its minimum", () => {
  const shop = world(
    {
      tours: { t1: { tour_id: "t1", name: "Harbour walk" } },
      shuttles: { s1: { shuttle_id: "s1", name: "Morning" } },
      walks: { w1: { walk_id: "w1", name: "Dunes" } },
    },
    [
      tool(
        "create_tour",
        "Create a tour.",
        { name: text, min_guests: integer, max_guests: integer },
        ["name"],
        [error("GUESTS_RANGE", "max_guests must be greater than or equal to min_guests.")],
      ),
      tool(
        "create_shuttle",
        "Create a shuttle run.",
        { name: text, from_to: text },
        ["name", "from_to"],
        [
          error(
            "BAD_ROUTE",
            "Give the route from pick-up to drop-off: the pick-up comes before the drop-off.",
          ),
        ],
      ),
      tool(
        "create_walk",
        "Create a walk.",
        { name: text, min_guests: integer, max_guests: integer },
        ["name"],
        [error("WALK_FULL", "The walk cannot be created: it is full.")],
      ),
    ],
  );

  it("allows a maximum equal to the minimum and refuses one below it", async () => {
    const tour = (min_guests: number, max_guests: number) =>
      call(shop, "create_tour", { name: "Dunes", min_guests, max_guests });
    expect((await tour(4, 4)).outcome.status).toBe("applied");
    // as text "10" sorts before "9"; as numbers it is above
    expect((await tour(9, 10)).outcome.status).toBe("applied");
    expect(failure((await tour(5, 3)).outcome)).toBe("GUESTS_RANGE");
    expect((await tour(5, 3)).report.notes).toContain(
      "requires max_guests at least min_guests (GUESTS_RANGE)",
    );
  });

  it("makes no range of one argument that names both bounds", async () => {
    const { outcome, report } = await call(shop, "create_shuttle", {
      name: "Airport",
      from_to: "Port-Airport",
    });
    expect(outcome.status).toBe("applied");
    expect(report.notes.filter((n) => n.startsWith("requires"))).toEqual([]);
  });

  it("makes no check from an error that does not speak of order", async () => {
    const { outcome, report } = await call(shop, "create_walk", {
      name: "Cliffs",
      min_guests: 8,
      max_guests: 2,
    });
    expect(outcome.status).toBe("applied");
    expect(report.notes.filter((n) => n.startsWith("requires"))).toEqual([]);
  });
});

describe("ranges of keys and numbers that are no times: compared as they are", () => {
  const store = world(
    {
      scans: { s1: { scan_id: "s1", table: "rows" } },
      exports: { x1: { export_id: "x1", table: "rows" } },
      copies: { c1: { copy_id: "c1", table: "rows" } },
      shifts: { h1: { shift_id: "h1", worker: "ana" } },
    },
    [
      tool(
        "create_scan",
        "Scan the rows between two keys.",
        { table: text, start_key: text, end_key: text },
        undefined,
        [error("KEYS_OUT_OF_ORDER", "end_key must be after start_key.")],
      ),
      tool(
        "create_export",
        "Export the rows of a key range.",
        { table: text, range_start: text, range_end: text },
        undefined,
        [error("RANGE_INVERTED", "range_end must come after range_start.")],
      ),
      tool(
        "create_copy",
        "Copy the files between two paths.",
        { table: text, from_path: text, to_path: text },
        undefined,
        [error("PATHS_OUT_OF_ORDER", "to_path must be after from_path.")],
      ),
      tool(
        "create_shift",
        "Create a shift between two hours of the day.",
        { worker: text, start: integer, end: integer },
        undefined,
        [error("SHIFT_ENDS_EARLY", "The end hour must be after the start hour.")],
      ),
    ],
  );

  it("compares text keys as text", async () => {
    for (const [name, low, high] of [
      ["create_scan", "start_key", "end_key"],
      ["create_export", "range_start", "range_end"],
      ["create_copy", "from_path", "to_path"],
    ] as const) {
      const run = (a: string, b: string) => call(store, name, { table: "rows", [low]: a, [high]: b });
      expect((await run("row-a", "row-m")).outcome.status, name).toBe("applied");
      expect((await run("row-m", "row-a")).outcome.status, name).toBe("failed");
    }
  });

  it("compares numbers named like times as numbers", async () => {
    const shift = (start: number, end: number) => call(store, "create_shift", { worker: "ben", start, end });
    expect((await shift(9, 17)).outcome.status).toBe("applied");
    expect(failure((await shift(17, 9)).outcome)).toBe("SHIFT_ENDS_EARLY");
  });
});
