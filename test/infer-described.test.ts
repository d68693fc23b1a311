import { describe, expect, it } from "vitest";
import { conformTracked } from "../src/simulate/conform.js";
import { call, failure, inferred, integer, text, tool, world } from "./support/infer-world.js";

/**
 * What a description spells out that a catalog may not: the error codes it names with their
 * conditions, the fields of its answer, and a record's part named after the record in a tool's
 * name (`add_team_member(name, username)`), with the errors of a value not there or the last one.
 */

describe("error codes a description names", () => {
  const boards = () => ({
    boards: {
      B1: { board_id: "B1", title: "Roadmap", archived: false },
      B2: { board_id: "B2", title: "Old", archived: true },
    },
  });
  const archive = tool(
    "archive_board",
    "Archives a board. Fails with BOARD_NOT_FOUND if no board has that id, or BOARD_ARCHIVED if it is already archived.",
    { board_id: text },
  );

  it("become documented errors with the sentence's condition", () => {
    const { tool: inferredTool } = inferred(world(boards(), [archive]), "archive_board");
    const byCode = new Map(inferredTool.errors.map((e) => [e.code, e]));
    expect(byCode.get("BOARD_NOT_FOUND")).toMatchObject({ status: 404, when: "no board has that id" });
    expect(byCode.get("BOARD_ARCHIVED")?.when).toBe("it is already archived");
    expect(inferredTool.inferred?.added).toEqual(
      expect.arrayContaining(["BOARD_NOT_FOUND", "BOARD_ARCHIVED"]),
    );
  });

  it("answer the calls they describe", async () => {
    const unknown = await call(world(boards(), [archive]), "archive_board", { board_id: "B9" });
    expect(failure(unknown.outcome)).toBe("BOARD_NOT_FOUND");
  });

  it("are read where the sentence says the result is the code, or brackets it after a requirement", () => {
    const rename = tool(
      "rename_board",
      "Renames a board. The title must be at most 40 characters (TITLE_TOO_LONG otherwise). If no board has the id the result is BOARD_MISSING.",
      { board_id: text, title: text },
    );
    const { tool: inferredTool } = inferred(world(boards(), [rename]), "rename_board");
    expect(inferredTool.errors.map((e) => e.code)).toEqual(
      expect.arrayContaining(["TITLE_TOO_LONG", "BOARD_MISSING"]),
    );
  });

  it("are not read from sentences that do not speak of failing", () => {
    const plain = tool(
      "get_board",
      "Returns the board; its layout follows the ISO_8601 dates of its cards.",
      {
        board_id: text,
      },
    );
    const { tool: inferredTool } = inferred(world(boards(), [plain]), "get_board");
    expect(inferredTool.errors.map((e) => e.code)).not.toContain("ISO_8601");
  });
});

describe("a record's part named after it in the tool's name", () => {
  const teams = () => ({
    teams: {
      design: { lead: "ana", members: ["ana", "bo"] },
      ops: { lead: "cy", members: ["cy"] },
    },
  });
  const add = tool(
    "add_team_member",
    "Adds a user to a team's members. Errors: TEAM_NOT_FOUND; ALREADY_MEMBER if the user is already listed.",
    { name: text, username: text },
  );
  const remove = tool(
    "remove_team_member",
    "Removes a user from a team. Errors: NOT_A_MEMBER if the user is not listed; LAST_MEMBER if the user is the only member.",
    { name: text, username: text },
  );
  const get = tool("get_team", "Returns one team by name.", { name: text });

  it("takes the first argument as the record's key and adds to its list once", async () => {
    const added = await call(world(teams(), [add, get]), "add_team_member", {
      name: "design",
      username: "di",
    });
    expect((added.after.teams as Record<string, { members: string[] }>).design?.members).toEqual([
      "ana",
      "bo",
      "di",
    ]);
    const again = await call(world(teams(), [add, get]), "add_team_member", {
      name: "design",
      username: "bo",
    });
    expect(failure(again.outcome)).toBe("ALREADY_MEMBER");
  });

  it("refuses to remove a value not there, or the last one", async () => {
    const absent = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "design",
      username: "zed",
    });
    expect(failure(absent.outcome)).toBe("NOT_A_MEMBER");
    const last = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "ops",
      username: "cy",
    });
    expect(failure(last.outcome)).toBe("LAST_MEMBER");
    const removed = await call(world(teams(), [remove, get]), "remove_team_member", {
      name: "design",
      username: "bo",
    });
    expect((removed.after.teams as Record<string, { members: string[] }>).design?.members).toEqual(["ana"]);
  });
});

describe("the answer a description spells out", () => {
  const shelves = () => ({
    shelves: { S1: { shelf_id: "S1", label: "Fiction", books: { b1: { title: "Emma" } }, open: true } },
  });
  const summary = tool(
    "get_shelf_summary",
    'Summarises a shelf. Returns {"shelf_id", "label", "book_count": <number of books on it>, "checked": true}.',
    { shelf_id: text },
  );

  it("becomes the output schema: fields typed by the argument, the state, the words or the value given", () => {
    const { tool: inferredTool, report } = inferred(world(shelves(), [summary]), "get_shelf_summary");
    expect(inferredTool.outputSchema).toEqual({
      type: "object",
      properties: {
        shelf_id: { type: "string" },
        label: { type: "string" },
        book_count: { type: "integer", description: "number of books on it" },
        checked: { type: "boolean", const: true },
      },
      required: ["shelf_id", "label", "book_count", "checked"],
    });
    // a count the state does not keep is synthesized, and said to be
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toContain("book_count");
  });

  it("is left alone where the catalog gives an output schema or the words are not an object", () => {
    const schemaGiven = { ...summary, outputSchema: { type: "object", properties: { label: text } } };
    expect(inferred(world(shelves(), [schemaGiven]), "get_shelf_summary").tool.outputSchema).toEqual({
      type: "object",
      properties: { label: text },
    });
    const words = tool("get_shelf", "Returns the shelf with its label.", { shelf_id: text });
    expect(inferred(world(shelves(), [words]), "get_shelf").tool.outputSchema).toBeUndefined();
  });

  it("answers a map as its keys where a list of names is wanted", () => {
    const fitted = conformTracked(
      { type: "object", properties: { books: { type: "array", items: { type: "string" } } } },
      { books: { b1: { title: "Emma" }, b2: { title: "Kim" } } },
      () => undefined,
    );
    expect(fitted).toEqual({ value: { books: ["b1", "b2"] }, guessed: [] });
  });
});

describe("a device's settings set by the field the tool names", () => {
  const radio = () => ({
    radio: { model: "R-2", power: "off", band_mode: "fm", volume_level: 4, night_mode: false },
  });
  const tools = [
    tool(
      "set_radio_band_mode",
      'Selects the band. Returns {"band_mode"}. Fails with INVALID_BAND if mode is not one of the listed bands.',
      { mode: { type: "string", enum: ["fm", "am", "dab"] } },
    ),
    tool("set_radio_power", "Switches the radio on or off.", {
      state: { type: "string", enum: ["on", "off"] },
    }),
    tool(
      "set_radio_volume_level",
      "Sets the volume, 0 to 10. Fails with BAD_VOLUME if level is outside that range.",
      { level: { type: "integer" } },
    ),
    tool("set_radio_night_mode", "Turns night mode on or off.", { enabled: { type: "boolean" } }),
  ];

  it("takes the field's whole name, never a word that starts another (mode is not model)", async () => {
    const band = await call(world(radio(), tools), "set_radio_band_mode", { mode: "dab" });
    expect(band.after.radio).toMatchObject({ band_mode: "dab", model: "R-2" });
    const night = await call(world(radio(), tools), "set_radio_night_mode", { enabled: true });
    expect(night.after.radio).toMatchObject({ night_mode: true, model: "R-2" });
    const power = await call(world(radio(), tools), "set_radio_power", { state: "on" });
    expect(power.after.radio).toMatchObject({ power: "on" });
  });

  it("checks the argument as its documented error says: a range stated anywhere in the description", async () => {
    const loud = await call(world(radio(), tools), "set_radio_volume_level", { level: 11 });
    expect(failure(loud.outcome)).toBe("BAD_VOLUME");
    const fine = await call(world(radio(), tools), "set_radio_volume_level", { level: 10 });
    expect(fine.after.radio).toMatchObject({ volume_level: 10 });
    expect(inferred(world(radio(), tools), "set_radio_band_mode").report.verdict).toBe("inferred");
  });
});

describe("conditions on what an argument holds", () => {
  const desk = () => ({ desks: { D1: { desk_id: "D1", label: "Window", note: "" } } });
  const tools = [
    tool(
      "set_desk_note",
      'Sets a desk\'s note. Fails with DESK_NOT_FOUND, INVALID_NOTE if note is empty, or NO_AT if contact contains no "@".',
      { desk_id: text, note: text, contact: text },
    ),
    tool("book_desk_hours", "Books hours. Fails with TOO_FEW if hours is less than 1.", {
      desk_id: text,
      hours: { type: "integer" },
    }),
  ];

  it("are checked before anything changes, each with its code", async () => {
    const empty = await call(world(desk(), tools), "set_desk_note", {
      desk_id: "D1",
      note: " ",
      contact: "a@b",
    });
    expect(failure(empty.outcome)).toBe("INVALID_NOTE");
    const noAt = await call(world(desk(), tools), "set_desk_note", {
      desk_id: "D1",
      note: "x",
      contact: "ab",
    });
    expect(failure(noAt.outcome)).toBe("NO_AT");
    const ok = await call(world(desk(), tools), "set_desk_note", {
      desk_id: "D1",
      note: "x",
      contact: "a@b",
    });
    expect(ok.outcome.status).toBe("applied");
  });

  it("are never read as a state the record must be in", () => {
    const { report } = inferred(world(desk(), tools), "set_desk_note");
    expect(report.notes.some((n) => n.startsWith("refuses while"))).toBe(false);
  });
});

describe("a list named for who the verb was done to, on the record itself", () => {
  const boards = () => ({
    whiteboards: { W1: { whiteboard_id: "W1", owner: "ana", shared_with: ["bo"] } },
  });
  const tools = [
    tool("share_whiteboard", "Shares a whiteboard with a user.", { whiteboard_id: text, username: text }),
    tool("unshare_whiteboard", "Stops sharing. Fails with NOT_SHARED if the user is not in shared_with.", {
      whiteboard_id: text,
      username: text,
    }),
  ];

  it("adds to `shared_with` and takes out of it", async () => {
    const shared = await call(world(boards(), tools), "share_whiteboard", {
      whiteboard_id: "W1",
      username: "cy",
    });
    expect((shared.after.whiteboards as Record<string, { shared_with: string[] }>).W1?.shared_with).toEqual([
      "bo",
      "cy",
    ]);
    const gone = await call(world(boards(), tools), "unshare_whiteboard", {
      whiteboard_id: "W1",
      username: "bo",
    });
    expect((gone.after.whiteboards as Record<string, { shared_with: string[] }>).W1?.shared_with).toEqual([]);
    const absent = await call(world(boards(), tools), "unshare_whiteboard", {
      whiteboard_id: "W1",
      username: "zz",
    });
    expect(failure(absent.outcome)).toBe("NOT_SHARED");
  });
});

describe("what a description says that the effects do not do", () => {
  const kiosk = () => ({ kiosk: { theme: "light", idle_minutes: 5, restarts_count: 0 } });

  it("a field the description says changes, which no effect writes, makes the tool partly", () => {
    const theme = tool(
      "set_kiosk_theme",
      "Sets the theme. Changing the theme also increases idle_minutes by the theme's delay.",
      { theme: text },
    );
    const { report } = inferred(world(kiosk(), [theme]), "set_kiosk_theme");
    expect(report.verdict).toBe("partly");
    expect(report.gaps).toContain(
      "the description says the call changes idle_minutes, which no effect writes",
    );
  });

  it("a value the description gives a field beside the one set is written too", async () => {
    const theme = tool(
      "set_kiosk_theme",
      "Sets the theme. Changing the theme also resets idle_minutes to 10.",
      { theme: text },
    );
    const { report, after } = await call(world(kiosk(), [theme]), "set_kiosk_theme", { theme: "dark" });
    expect(report.verdict).toBe("inferred");
    expect(after.kiosk).toEqual({ theme: "dark", idle_minutes: 10, restarts_count: 0 });
  });

  it("a field the description says stays is no gap", () => {
    const theme = tool("set_kiosk_theme", "Sets the theme; idle_minutes is not changed.", { theme: text });
    expect(inferred(world(kiosk(), [theme]), "set_kiosk_theme").report.verdict).toBe("inferred");
  });

  it("values compared ignoring case make the tool partly", () => {
    const theme = tool(
      "set_kiosk_theme",
      "Sets the theme; the name is matched against the known themes case-insensitively.",
      { theme: text },
    );
    const { report } = inferred(world(kiosk(), [theme]), "set_kiosk_theme");
    expect(report.gaps.some((g) => g.includes("case-insensitive"))).toBe(true);
  });

  it("values normalised as the docs say leave no such gap", () => {
    const theme = tool("set_kiosk_theme", "Sets the theme; the name is trimmed and lower-cased.", {
      theme: text,
    });
    const { report } = inferred(world(kiosk(), [theme]), "set_kiosk_theme");
    expect(report.gaps.some((g) => g.includes("trimmed"))).toBe(false);
  });

  it("an error another tool answers, told in this one's description, is not this tool's", () => {
    const lock = tool(
      "set_kiosk_lock",
      "Locks the kiosk. While locked, restart_kiosk fails with KIOSK_LOCKED.",
      { enabled: { type: "boolean" } },
    );
    const restart = tool("restart_kiosk", "Restarts the kiosk.");
    const { tool: found } = inferred(world(kiosk(), [lock, restart]), "set_kiosk_lock");
    expect(found.errors.map((e) => e.code)).not.toContain("KIOSK_LOCKED");
  });
});

describe("errors as docs write them without upper-case codes", () => {
  const feeds = () => ({
    feeds: [
      { id: 1, url: "https://a.test/rss", muted: false },
      { id: 2, url: "https://b.test/rss", muted: true },
    ],
  });

  it("reads codes listed in lower case after Errors:, with their condition in brackets", () => {
    const mute = tool(
      "mute_feed",
      "Mute a feed (muted = true). Errors: feed_not_found, already_muted (the feed is muted).",
      {
        feed_id: integer,
      },
    );
    const { tool: found } = inferred(world(feeds(), [mute]), "mute_feed");
    expect(found.errors.map((e) => [e.code, e.when])).toEqual(
      expect.arrayContaining([
        ["FEED_NOT_FOUND", "feed not found"],
        ["ALREADY_MUTED", "the feed is muted"],
      ]),
    );
  });

  it("reads a list under an Errors heading, the condition after a dash", () => {
    const drop = tool(
      "drop_feed",
      "Drop a feed.\n\nErrors:\n- `FEED_NOT_FOUND`\n- `FEED_PINNED` – the feed is pinned",
      {
        feed_id: integer,
      },
    );
    const codes = inferred(world(feeds(), [drop]), "drop_feed").tool.errors.map((e) => [e.code, e.when]);
    expect(codes).toEqual(expect.arrayContaining([["FEED_PINNED", "the feed is pinned"]]));
  });

  it("makes a code of each condition told in words", () => {
    const rename = tool(
      "rename_feed",
      "Renames a feed. Returns an error if the feed does not exist or the title is empty.",
      { feed_id: integer, title: text },
    );
    const codes = inferred(world(feeds(), [rename]), "rename_feed").tool.errors.map((e) => e.code);
    expect(codes).toEqual(expect.arrayContaining(["FEED_NOT_FOUND", "TITLE_EMPTY"]));
  });

  it("sets the flag the verb names and refuses one already set, as its error says", async () => {
    const mute = tool("mute_feed", "Mute a feed. Errors: feed_not_found, already_muted.", {
      feed_id: integer,
    });
    const unmute = tool("unmute_feed", "Unmute a feed. Errors: feed_not_found, not_muted.", {
      feed_id: integer,
    });
    const muted = await call(world(feeds(), [mute, unmute]), "mute_feed", { feed_id: 1 });
    expect((muted.after.feeds as Array<{ muted: boolean }>)[0]?.muted).toBe(true);
    expect(failure((await call(world(feeds(), [mute, unmute]), "mute_feed", { feed_id: 2 })).outcome)).toBe(
      "ALREADY_MUTED",
    );
    expect(failure((await call(world(feeds(), [mute, unmute]), "unmute_feed", { feed_id: 1 })).outcome)).toBe(
      "NOT_MUTED",
    );
  });
});

describe("answers docs list in words", () => {
  const crews = () => ({
    crews: {
      C1: { crew_id: "C1", name: "Night", volunteers: ["ana", "bo"] },
      C2: { crew_id: "C2", name: "Day", volunteers: [] },
    },
  });

  it("reads a Response list with types and bare keys in braces", () => {
    const get = tool(
      "get_crew",
      "Fetch a crew.\n\nResponse fields:\n- `crew_id` (string)\n- `size` (integer) – volunteers",
      {
        crew_id: text,
      },
    );
    expect(inferred(world(crews(), [get]), "get_crew").tool.outputSchema).toMatchObject({
      properties: { crew_id: { type: "string" }, size: { type: "integer" } },
    });
    const join = tool("join_crew", "Adds a volunteer. Returns {crew_id, volunteer_count}.", {
      crew_id: text,
      volunteer: text,
    });
    expect(
      Object.keys(inferred(world(crews(), [join]), "join_crew").tool.outputSchema?.properties ?? {}),
    ).toEqual(["crew_id", "volunteer_count"]);
  });

  it("answers a count of a list the record keeps as its length, and whether it holds a value", async () => {
    const join = tool(
      "join_crew",
      "Adds a volunteer to the crew's volunteers. Returns {crew_id, volunteer_count}.",
      {
        crew_id: text,
        volunteer: text,
      },
    );
    const joined = await call(world(crews(), [join]), "join_crew", { crew_id: "C1", volunteer: "cy" });
    expect(joined.answer).toMatchObject({ volunteer_count: 3 });
    const check = tool(
      "check_crew_volunteer",
      "Checks whether a volunteer is in a crew. Returns {crew_id, volunteer, listed}.",
      {
        crew_id: text,
        volunteer: text,
      },
    );
    const held = await call(world(crews(), [check]), "check_crew_volunteer", {
      crew_id: "C1",
      volunteer: "bo",
    });
    expect(held.answer).toMatchObject({ listed: true });
  });
});

describe("what a new record starts with, as a description says", () => {
  const jobs = () => ({
    render_jobs: [{ id: 7, scene: "a", priority: 3, retries: 0, finished_at: null }],
    render_next_job_id: 8,
  });
  const submit = tool(
    "submit_render_job",
    "Queue a render. Its id is the current render_next_job_id, which is then incremented. priority defaults to 5, finished_at null.",
    { scene: text, priority: integer },
    ["scene"],
  );

  it("takes the counter named with a prefix, the stated default for an argument left out, and the stated null", async () => {
    const made = await call(world(jobs(), [submit]), "submit_render_job", { scene: "b" });
    expect(made.after.render_next_job_id).toBe(9);
    expect((made.after.render_jobs as unknown[])[1]).toMatchObject({
      id: 8,
      scene: "b",
      priority: 5,
      finished_at: null,
    });
    const given = await call(world(jobs(), [submit]), "submit_render_job", { scene: "b", priority: 1 });
    expect((given.after.render_jobs as unknown[])[1]).toMatchObject({ priority: 1 });
  });

  it("sets a time the description gives the clock's", async () => {
    const finish = tool("finish_render_job", "Marks a job done: finished_at is set to now.", {
      job_id: integer,
    });
    const done = await call(world(jobs(), [finish]), "finish_render_job", { job_id: 7 });
    expect((done.after.render_jobs as Array<{ finished_at: unknown }>)[0]?.finished_at).toBe(
      "2026-03-02T09:00:00Z",
    );
  });
});

describe("the record a change links to", () => {
  const alarms = () => ({
    sensors: {
      S1: { sensor_id: "S1", state: "ok", muted: false },
      S2: { sensor_id: "S2", state: "ok", muted: true },
    },
    alarms: { A1: { alarm_id: "A1", sensor_id: "S1", cleared: false } },
  });
  const raise = tool(
    "create_alarm",
    "Creates an alarm on a sensor and sets the sensor's state to tripped. Errors: sensor_not_found, sensor_muted.",
    { sensor_id: text },
  );
  const clear = tool("clear_alarm", 'Clears an alarm (cleared = true); the sensor\'s state becomes "ok".', {
    alarm_id: text,
  });

  it("takes the change the description states, by the link's value", async () => {
    const raised = await call(world(alarms(), [raise, clear]), "create_alarm", { sensor_id: "S1" });
    expect((raised.after.sensors as Record<string, { state: string }>).S1?.state).toBe("tripped");
    const state = alarms();
    (state.sensors.S1 as { state: string }).state = "tripped";
    const cleared = await call(world(state, [raise, clear]), "clear_alarm", { alarm_id: "A1" });
    expect((cleared.after.sensors as Record<string, { state: string }>).S1?.state).toBe("ok");
    expect((cleared.after.alarms as Record<string, { cleared: boolean }>).A1?.cleared).toBe(true);
  });

  it("is refused while the linked record's flag its error names is set", async () => {
    const muted = await call(world(alarms(), [raise, clear]), "create_alarm", { sensor_id: "S2" });
    expect(failure(muted.outcome)).toBe("SENSOR_MUTED");
  });
});
