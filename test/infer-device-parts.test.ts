import { describe, expect, it } from "vitest";
import { call, failure, inferred, offlineAnswer, outputs, text, tool, world } from "./support/infer-world.js";

/** A device made of several parts, and a tree whose root is a record beside the current location. */
const station = () => ({
  station: { name: "Ridge top", altitude_m: 820 },
  anemometer: { mode: "sampling", interval_s: 10, last_reading: 4.2 },
  logger: { mode: "recording", files: 3 },
});

describe("a status read of the state's own parts", () => {
  const status = tool(
    "weather_get_status",
    "Overview of the station. Returns `station`, `anemometer` and `logger` exactly as stored.",
    {},
    [],
    [],
    outputs({ station: { type: "object" }, anemometer: { type: "object" }, logger: { type: "object" } }),
  );

  it("answers each part as the state keeps it, grounded", async () => {
    const read = await call(world(station(), [status]), "weather_get_status", {});
    expect(read.answer).toEqual(station());
    expect(read.report.verdict).toBe("inferred");
  });

  it("leaves a read whose outputs are not all parts of the state to the other rules", () => {
    const mixed = tool(
      "weather_get_status",
      "Overview of the station.",
      {},
      [],
      [],
      outputs({ station: { type: "object" }, uptime_s: { type: "integer" } }),
    );
    const { report } = inferred(world(station(), [mixed]), "weather_get_status");
    expect(report.notes.join(" ")).not.toMatch(/as the state keeps them/);
  });
});

describe("a command whose description sets fields named in code", () => {
  const stop = tool(
    "weather_halt_logger",
    "Halts the logger. `mode` becomes `stopped` and `files` is reset to 0. Returns the logger.",
    {},
    [],
    [],
    outputs({ mode: text, files: { type: "integer" } }),
  );

  it("makes every change the description states, quoted or not", async () => {
    const halted = await call(world(station(), [stop]), "weather_halt_logger", {});
    expect(halted.after.logger).toEqual({ mode: "stopped", files: 0 });
    expect(halted.answer).toEqual({ mode: "stopped", files: 0 });
  });
});

const vault = () => ({
  vault: "North seed bank",
  cwd: "/freezer-1",
  tree: {
    kind: "room",
    children: {
      "freezer-1": {
        kind: "shelf",
        children: {
          "rack-a": { kind: "shelf", children: {} },
          "lot-7": { kind: "packet", note: "runner beans" },
        },
      },
      "freezer-2": { kind: "shelf", children: { "lot-9": { kind: "packet", note: "kale" } } },
    },
  },
});

describe("a tree whose root node is a record, beside the current location", () => {
  const pwd = tool(
    "seeds_pwd",
    "Where you are: the current location as an absolute path, and the `kind` of node there.",
    {},
    [],
    [],
    outputs({ cwd: text, kind: text }),
  );
  const cd = tool(
    "seeds_cd",
    "Changes the current location; `..` is the parent. Fails with NOT_FOUND when a segment names no child.",
    { path: text },
  );
  const ls = tool(
    "seeds_ls",
    "Lists a location (`path` resolves as in seeds_cd, NOT_FOUND if it does not).",
    { path: text },
    [],
    [],
    outputs({ entries: { type: "array", items: { type: "object" } } }),
  );

  it("starts from the location the state keeps, and answers it under the output named for a place", async () => {
    const here = await call(world(vault(), [pwd, cd]), "seeds_pwd", {});
    expect((here.answer as { cwd: string }).cwd).toBe("/freezer-1");
    // the node's kind is not what the tree knows of it: said as guessed, not as inferred
    expect(here.report.verdict).toBe("partly");
    const moved = await call(world(vault(), [pwd, cd]), "seeds_cd", { path: "rack-a" });
    expect(moved.after.cwd).toBe("/freezer-1/rack-a");
  });

  it("keeps the error code a description gives while it points to another tool's way of reading paths", async () => {
    const missing = await call(world(vault(), [cd, ls]), "seeds_ls", { path: "/freezer-9" });
    expect(failure(missing.outcome)).toBe("NOT_FOUND");
  });
});

/** A ranking kept as a list of the records' keys, and matches that name a winner. */
const league = () => ({
  archers: {
    ida: { name: "Ida Holm", points: 40, active: true },
    jon: { name: "Jon Berg", points: 35, active: true },
    kai: { name: "Kai Lund", points: 20, active: false },
  },
  standings: ["ida", "jon", "kai"],
  bouts: { "1": { home: "jon", away: "kai", status: "scheduled", winner: null } },
});

describe("a ranking kept as a list of keys", () => {
  const table = tool(
    "archery_get_standings",
    "Current standings, best first; each row has `rank`, `handle`, `name` and `points`.",
    {},
    [],
    [],
    outputs({
      standings: {
        type: "array",
        items: {
          type: "object",
          properties: { rank: { type: "integer" }, handle: text, name: text, points: { type: "integer" } },
        },
      },
    }),
  );
  const one = tool(
    "archery_get_archer",
    "One archer by handle, with their present rank. Unknown handles produce UNKNOWN_ARCHER.",
    { handle: text },
    ["handle"],
    [],
    outputs({ name: text, points: { type: "integer" }, rank: { type: "integer" } }),
  );

  it("answers each key's record with its key and its place, as the schema spells the rows", async () => {
    const read = await call(world(league(), [table, one]), "archery_get_standings", {});
    expect(read.answer).toEqual({
      standings: [
        { rank: 1, handle: "ida", name: "Ida Holm", points: 40 },
        { rank: 2, handle: "jon", name: "Jon Berg", points: 35 },
        { rank: 3, handle: "kai", name: "Kai Lund", points: 20 },
      ],
    });
  });

  it("answers a record's rank as its place in the list, and an unknown key with the code the docs give", async () => {
    const jon = await call(world(league(), [table, one]), "archery_get_archer", { handle: "jon" });
    expect(jon.answer).toMatchObject({ name: "Jon Berg", rank: 2 });
    const nobody = await call(world(league(), [table, one]), "archery_get_archer", { handle: "zed" });
    expect(failure(nobody.outcome)).toBe("UNKNOWN_ARCHER");
  });

  it("reads a code given with the case it is for", async () => {
    const points = tool(
      "archery_get_archer_points",
      "One archer's points. UNKNOWN_ARCHER for a handle not on the books.",
      { handle: text },
      ["handle"],
      [],
      outputs({ points: { type: "integer" } }),
    );
    const nobody = await call(world(league(), [points]), "archery_get_archer_points", { handle: "zed" });
    expect(failure(nobody.outcome)).toBe("UNKNOWN_ARCHER");
  });
});

describe("a result recorded on a record", () => {
  const report = tool(
    "archery_report_bout",
    'Scores a scheduled bout: its status becomes "completed" and `winner` is stored. A bout that is not scheduled gives INVALID_STATUS. Returns the completed bout.',
    { bout_id: text, winner: text },
  );

  it("stores the argument the description says is stored, and needs only the status it names", async () => {
    const done = await call(world(league(), [report]), "archery_report_bout", {
      bout_id: "1",
      winner: "jon",
    });
    expect((done.after.bouts as Record<string, unknown>)["1"]).toMatchObject({
      status: "completed",
      winner: "jon",
    });
    const again = await call(
      world(league(), [report]),
      "archery_report_bout",
      { bout_id: "1", winner: "kai" },
      done.after,
    );
    expect(failure(again.outcome)).toBe("INVALID_STATUS");
  });
});

/** A print-shop-like world of uploads: arguments checked as the docs state, and a state no argument may overwrite. */
const bindery = () => ({
  presses: { "p-1": { status: "binding", current_order: 4 } },
  orders: [{ id: 4, file: "zine.pdf", pages: 24, status: "binding" }],
  next_order_id: 5,
});

describe("checks an upload's arguments as the description states them", () => {
  const submit = tool(
    "bindery_submit_order",
    'Queues a book for binding. `file` must end in ".pdf" (case-insensitive); other uploads are refused with INVALID_FILE. `pages` (4–400) and `copies` (1–50) outside their ranges give OUT_OF_RANGE. The new order takes id = next_order_id.',
    { file: text, pages: { type: "integer" }, copies: { type: "integer" } },
  );
  const run = (args: Record<string, unknown>) =>
    call(world(bindery(), [submit]), "bindery_submit_order", args);

  it("takes each argument's own range, written after its name", async () => {
    expect((await run({ file: "a.pdf", pages: 300, copies: 2 })).outcome.status).toBe("applied");
    expect(failure((await run({ file: "a.pdf", pages: 8, copies: 60 })).outcome)).toBe("OUT_OF_RANGE");
    expect(failure((await run({ file: "a.pdf", pages: 401, copies: 1 })).outcome)).toBe("OUT_OF_RANGE");
  });

  it("refuses a file without the ending the description requires, in any case", async () => {
    expect(failure((await run({ file: "zine.docx", pages: 8, copies: 1 })).outcome)).toBe("INVALID_FILE");
    expect((await run({ file: "ZINE.PDF", pages: 8, copies: 1 })).outcome.status).toBe("applied");
  });
});

describe("a command given a name that no field of the world holds", () => {
  const finish = tool(
    "bindery_complete_order",
    "Call when a press finishes. Its current order is marked done and the press returns to idle.",
    { press: text },
  );

  it("never writes a name over a list of records or a counter", async () => {
    const done = await call(world(bindery(), [finish]), "bindery_complete_order", { press: "p-1" });
    expect(Array.isArray(done.after.orders)).toBe(true);
    expect(done.after.next_order_id).toBe(5);
  });
});

describe("a status change written as an arrow, and what the docs say it also changes", () => {
  const desk = () => ({
    tables: { t1: { seats: 4, status: "free", booking: 7 } },
    bookings: [
      { id: 7, guests: 4, status: "booked" },
      { id: 8, guests: 2, status: "seated" },
    ],
    waitlist: [8],
  });
  const arrive = tool(
    "diner_seat_booking",
    "Marks the party as arrived: status booked → seated. Any other starting status gives INVALID_STATUS; NOT_FOUND for unknown ids.",
    { id: { type: "integer" } },
  );
  const drop = tool(
    "diner_cancel_booking",
    'Cancels a booking. A waiting booking is pulled from the waitlist; the status becomes "cancelled". Seated bookings give INVALID_STATUS.',
    { id: { type: "integer" } },
  );

  it("moves the status the arrow names, only from the status it leaves, with the API's status error", async () => {
    const seated = await call(world(desk(), [arrive]), "diner_seat_booking", { id: 7 });
    expect((seated.after.bookings as Array<{ status: string }>)[0]?.status).toBe("seated");
    const again = await call(world(desk(), [arrive]), "diner_seat_booking", { id: 8 });
    expect(failure(again.outcome)).toBe("INVALID_STATUS");
  });

  it("says a change is partly inferred when its docs change another part no effect touches", () => {
    const { report } = inferred(world(desk(), [drop]), "diner_cancel_booking");
    expect(report.verdict).toBe("partly");
    expect(report.gaps.join(" ")).toMatch(/also changes waitlist/);
  });
});

describe("a tool nothing was inferred for, answered by the offline engine's guess", () => {
  const garden = () => ({
    beds: { "B-1": { name: "Herbs", area_m2: 4, plantings: [{ variety: "basil", count: 3 }] } },
  });
  const args = { code: "B-1", variety: "basil", count: 2 };
  const guessed = async (name: string) => {
    const removal = tool(name, "Records seedlings given away or lost.", {
      code: text,
      variety: text,
      count: { type: "integer" },
    });
    const ran = await call(world(garden(), [removal]), name, args);
    const simulated = offlineAnswer(ran, args);
    return { verdict: ran.report.verdict, patch: simulated.kind === "success" ? simulated.patch : undefined };
  };

  it("never deletes the record an argument names where the tool's name names something else", async () => {
    expect(await guessed("remove_plantings")).toEqual({ verdict: "not inferred", patch: [] });
  });
});

describe("requirements whose codes are given in brackets", () => {
  const signUp = tool(
    "club_register_member",
    "Signs up a member. The handle must match ^[a-z][a-z0-9_]{2,15}$ (INVALID_HANDLE) and be unused (HANDLE_TAKEN). `rating` must be an integer from 100 to 3000 (INVALID_RATING). Stored under members[handle].",
    { handle: text, rating: { type: "integer" } },
  );
  const club = () => ({ members: { ida: { rating: 1500 }, jon: { rating: 1200 } } });
  const run = (args: Record<string, unknown>) => call(world(club(), [signUp]), "club_register_member", args);

  it("refuses a taken key, a value outside the range and a name outside the pattern with their codes", async () => {
    expect(failure((await run({ handle: "ida", rating: 1400 })).outcome)).toBe("HANDLE_TAKEN");
    expect(failure((await run({ handle: "kim", rating: 50 })).outcome)).toBe("INVALID_RATING");
    expect(failure((await run({ handle: "Kim!", rating: 1400 })).outcome)).toBe("INVALID_HANDLE");
    const fine = await run({ handle: "kim", rating: 1400 });
    expect((fine.after.members as Record<string, unknown>).kim).toMatchObject({ rating: 1400 });
  });
});

describe("a new record placed at the end of the list that orders its kind", () => {
  const join = tool(
    "archery_register_archer",
    "Signs up an archer. Stored under archers[handle]; newcomers start active with 0 points and are placed at the bottom of the standings.",
    { handle: text, name: text },
  );

  it("appends the new key to the list, which a later read of the ranking shows", async () => {
    const joined = await call(world(league(), [join]), "archery_register_archer", {
      handle: "lou",
      name: "Lou Ek",
    });
    expect(joined.after.standings).toEqual(["ida", "jon", "kai", "lou"]);
    expect((joined.after.archers as Record<string, unknown>).lou).toMatchObject({
      name: "Lou Ek",
      points: 0,
      active: true,
    });
  });
});

describe("a reading appended to a record that keeps limits of another kind", () => {
  const fridge = () => ({
    fridges: [
      {
        id: "F-1",
        min_c: 2,
        max_c: 3,
        status: "ok",
        readings: [
          { seq: 1, temp_c: 2.5 },
          { seq: 2, temp_c: 2.7 },
          { seq: 3, temp_c: 2.9 },
        ],
      },
    ],
  });
  const log = tool(
    "fridge_log_reading",
    "Ingest a reading. The reading `{temp_c}` is appended to the fridge's `readings`. The reply states `in_range` and the fridge's `status`. Errors: `NOT_FOUND`.",
    { fridge_id: text, temp_c: { type: "number" } },
    ["fridge_id", "temp_c"],
    [],
    outputs({ temp_c: { type: "number" }, in_range: { type: "boolean" }, status: text }),
  );

  it("takes a temperature limit for no capacity of the list", async () => {
    const logged = await call(world(fridge(), [log]), "fridge_log_reading", {
      fridge_id: "F-1",
      temp_c: 2.8,
    });
    expect(logged.outcome.status).toBe("applied");
    expect((logged.after.fridges as Array<{ readings: unknown[] }>)[0]?.readings).toHaveLength(4);
  });

  it("says the outputs the appended reading does not hold are guessed", () => {
    const { report } = inferred(world(fridge(), [log]), "fridge_log_reading");
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toEqual(expect.arrayContaining(["in_range", "status"]));
  });
});

describe("a setting whose docs say which field keeps the value given", () => {
  const studio = () => ({
    settings: { light_limit_lux: 800, current_light_lux: 300, shutters_open: true },
  });
  const log = tool(
    "studio_log_light",
    "Records a new meter reading in `settings.current_light_lux`. Returns the settings.",
    { lux: { type: "number" } },
  );

  it("writes that field, not another whose name ends the same", async () => {
    const logged = await call(world(studio(), [log]), "studio_log_light", { lux: 520 });
    expect(logged.after.settings).toEqual({
      light_limit_lux: 800,
      current_light_lux: 520,
      shutters_open: true,
    });
  });
});
