import { describe, expect, it } from "vitest";
import { type Toolset, Toolset as ToolsetSchema } from "../src/catalog/index.js";
import { runEffects } from "../src/engine/index.js";
import { inferToolset, shapeOf, type ToolReport } from "../src/infer/index.js";
import { applyPatch } from "../src/patch/index.js";

/**
 * Inference on each shape of state, in small worlds of its own: what the shape analysis sees,
 * and what the inferred effects do when they run.
 */

const NOW = "2026-03-02T09:00:00Z";

function toolset(state: Record<string, unknown>, tools: unknown[]): Toolset {
  return ToolsetSchema.parse({
    id: "world",
    field: "Tests",
    subdomain: "Shapes",
    description: "A small world.",
    state,
    tools,
  });
}

function tool(
  name: string,
  description: string,
  properties: Record<string, unknown> = {},
  required: string[] = [],
  output?: Record<string, unknown>,
) {
  return {
    name,
    description,
    inputSchema: { type: "object", properties, required },
    ...(output ? { outputSchema: { type: "object", properties: output } } : {}),
  };
}

/** Infers the world, then runs one tool's effects; the state after is returned with the outcome. */
async function call(world: Toolset, name: string, args: Record<string, unknown>, state = world.state) {
  const inferred = inferToolset(world);
  const found = inferred.toolset.tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  const outcome = await runEffects(
    found,
    args,
    inferred.toolset.state === world.state ? state : { ...inferred.toolset.state, ...state },
    NOW,
  );
  const applied =
    outcome.status === "applied" ? applyPatch(structuredClone(state), outcome.patch) : undefined;
  return {
    outcome,
    after: (applied?.ok ? applied.document : state) as Record<string, unknown>,
    report: inferred.report.find((r) => r.tool === name) as ToolReport,
  };
}

describe("the shape analysis", () => {
  it("tells records, collections in maps and arrays, lists, maps of values, pairs and trees apart, at any depth", () => {
    const shape = shapeOf([
      {
        Studio: {
          profile_info: { display_name: "Ana", credits: 40, signed_in: true },
          songs: { "7": { id: 7, title: "Rain" }, "9": { id: 9, title: "Dust" } },
          song_counter: 10,
          play_list: ["7"],
          guest_index: { Ben: "G-01", Cleo: "G-02" },
          notes: [{ "G-01": "hello" }, { "G-02": "hi" }],
          jobs: [
            { job_id: 1, state: "queued" },
            { job_id: 2, state: "done" },
          ],
          disk: {
            home: {
              kind: "dir",
              children: { "a.txt": { kind: "file", text: "x" }, sub: { kind: "dir", children: {} } },
            },
          },
        },
      },
    ]);
    const kinds = Object.fromEntries(shape.parts.map((p) => [p.path.join("/"), p.kind]));
    expect(kinds).toMatchObject({
      Studio: "record",
      "Studio/profile_info": "record",
      "Studio/songs": "collection",
      "Studio/play_list": "list",
      "Studio/guest_index": "values",
      "Studio/notes": "collection",
      "Studio/jobs": "collection",
      "Studio/disk": "tree",
    });
    const songs = shape.collections.get("songs");
    expect(songs).toMatchObject({
      container: "map",
      keyField: "id",
      numericKeys: true,
      counter: { path: ["Studio", "song_counter"], holds: "next" },
    });
    expect(shape.collections.get("jobs")).toMatchObject({ container: "array", keyField: "job_id" });
    expect(shape.collections.get("notes")?.pairs).toEqual({});
    const tree = shape.parts.find((p) => p.kind === "tree");
    expect(tree).toMatchObject({
      nodes: { children: "children", kind: { field: "kind", folder: "dir", file: "file" }, content: "text" },
    });
  });

  it("does not take a record whose values are records for a tree, nor a stray field for a record", () => {
    const shape = shapeOf([
      { desk: { orders: { "301": { item: "pen", qty: 2 }, kind: "open" }, settings: { theme: "dark" } } },
    ]);
    const kinds = Object.fromEntries(shape.parts.map((p) => [p.path.join("/"), p.kind]));
    expect(kinds["desk/orders"]).toBe("collection");
    expect(Object.values(kinds)).not.toContain("tree");
  });
});

describe("records and scalars", () => {
  const device = toolset({ mode: "eco", volume: 3, powered: false }, [
    tool("get_volume", "Get the current volume.", {}, [], { volume: { type: "integer" } }),
    tool("set_mode", "Set the mode.", { mode: { type: "string", enum: ["eco", "boost"] } }, ["mode"], {
      mode: { type: "string" },
    }),
    tool("reboot_device", "Reboot the device.", {}, []),
  ]);

  it("reads a field the output names, and sets the field an argument names", async () => {
    expect((await call(device, "get_volume", {})).outcome).toMatchObject({
      status: "applied",
      output: { volume: 3 },
    });
    const set = await call(device, "set_mode", { mode: "boost" });
    expect(set.after).toMatchObject({ mode: "boost", volume: 3 });
    expect(set.outcome).toMatchObject({ output: { mode: "boost" } });
  });

  it("an unknown verb is not taken for a read", () => {
    const report = inferToolset(device).report.find((r) => r.tool === "reboot_device");
    expect(report?.verdict).toBe("not inferred");
    expect(report?.notes.join(" ")).toMatch(/never taken for a read/);
  });
});

describe("a record the state was given without", () => {
  const kiosk = toolset({ Kiosk: { display: { brightness: 40, language: "en" }, visitors: 0 } }, [
    tool(
      "set_display_language",
      "Set the language of the display.",
      { language: { type: "string" } },
      ["language"],
      { language: { type: "string" } },
    ),
  ]);

  it("is made by the write that sets one of its fields, not answered as kept while nothing is", async () => {
    const without = await call(kiosk, "set_display_language", { language: "fr" }, { Kiosk: { visitors: 2 } });
    expect(without.outcome).toMatchObject({ status: "applied", output: { language: "fr" } });
    expect(without.after).toEqual({ Kiosk: { visitors: 2, display: { language: "fr" } } });
    const nothing = await call(kiosk, "set_display_language", { language: "de" }, {});
    expect(nothing.after).toEqual({ Kiosk: { display: { language: "de" } } });
  });
});

describe("amounts in and out of a balance", () => {
  const wallet = toolset({ wallet: { owner: "ana", balance: 50 } }, [
    tool("deposit_money", "Deposit money into the wallet.", { amount: { type: "number" } }, ["amount"], {
      balance: { type: "number" },
    }),
    tool("withdraw_money", "Withdraw money from the wallet.", { amount: { type: "number" } }, ["amount"], {
      balance: { type: "number" },
    }),
  ]);

  it("adds and takes away, refusing more than there is", async () => {
    const deposit = await call(wallet, "deposit_money", { amount: 25 });
    expect(deposit.after).toMatchObject({ wallet: { balance: 75 } });
    expect(deposit.outcome).toMatchObject({ output: { balance: 75 } });
    expect((await call(wallet, "withdraw_money", { amount: 20 })).after).toMatchObject({
      wallet: { balance: 30 },
    });
    const refused = await call(wallet, "withdraw_money", { amount: 80 });
    expect(refused.outcome).toMatchObject({
      status: "failed",
      failure: { code: "INSUFFICIENT_BALANCE", status: 409 },
    });
  });
});

describe("lists of values and maps of values", () => {
  const studio = toolset(
    { studio: { play_list: ["s1"], guest_index: { Ben: "G-01", Cleo: "G-02" }, guest_count: 2 } },
    [
      tool("add_song_to_playlist", "Add a song to the playlist.", { song: { type: "string" } }, ["song"]),
      tool("remove_song_from_playlist", "Remove a song from the playlist.", { song: { type: "string" } }, [
        "song",
      ]),
      tool("get_playlist", "Get the playlist.", {}, [], {
        playlist: { type: "array", items: { type: "string" } },
      }),
      tool("get_guest_id", "Get the id of a guest.", { guest: { type: "string" } }, ["guest"], {
        guest_id: { type: "string" },
      }),
      tool("register_guest", "Register a new guest.", { guest_name: { type: "string" } }, ["guest_name"], {
        guest_id: { type: "string" },
      }),
    ],
  );

  it("adds a value once, removes it, and reads the list", async () => {
    const added = await call(studio, "add_song_to_playlist", { song: "s2" });
    expect(added.after).toMatchObject({ studio: { play_list: ["s1", "s2"] } });
    const twice = await call(studio, "add_song_to_playlist", { song: "s1" });
    expect(twice.after).toMatchObject({ studio: { play_list: ["s1"] } });
    expect((await call(studio, "remove_song_from_playlist", { song: "s1" })).after).toMatchObject({
      studio: { play_list: [] },
    });
    expect((await call(studio, "get_playlist", {})).outcome).toMatchObject({ output: { playlist: ["s1"] } });
  });

  it("reads a map by key, answers not found for an unknown key, and mints the next id for a new key", async () => {
    expect((await call(studio, "get_guest_id", { guest: "Cleo" })).outcome).toMatchObject({
      output: { guest_id: "G-02" },
    });
    expect((await call(studio, "get_guest_id", { guest: "Zed" })).outcome).toMatchObject({
      status: "failed",
      failure: { status: 404 },
    });
    const registered = await call(studio, "register_guest", { guest_name: "Dora" });
    expect(registered.outcome).toMatchObject({ output: { guest_id: "G-03" } });
    expect(registered.after).toMatchObject({ studio: { guest_index: { Dora: "G-03" }, guest_count: 3 } });
    expect((await call(studio, "register_guest", { guest_name: "Ben" })).outcome).toMatchObject({
      status: "failed",
      failure: { status: 409 },
    });
  });

  it("mints in the map's own scheme from its counter, though a few ids came from elsewhere", async () => {
    const mixed = {
      ...studio,
      tasks: [
        {
          id: "imported",
          description: "Guests of which one came from another system.",
          difficulty: "simple",
          valid: true,
          state: {
            studio: {
              play_list: [],
              guest_index: { Ben: "G-01", Cleo: "G-02", Ada: "G-03", Omar: "8f1c2d9e" },
              guest_count: 4,
            },
          },
          solution: [],
          checklist: [],
        },
      ],
    } as unknown as Toolset;
    const registered = await call(mixed, "register_guest", { guest_name: "Dora" });
    expect(registered.outcome).toMatchObject({ output: { guest_id: "G-03" } });
    expect(registered.after).toMatchObject({ studio: { guest_index: { Dora: "G-03" }, guest_count: 3 } });
  });

  it("mints in the width most ids are written in, and the first id of a world without the map", async () => {
    const widths = {
      ...studio,
      tasks: [
        {
          id: "padded",
          description: "Guests numbered in two digits, one padded wider.",
          difficulty: "simple",
          valid: true,
          state: { studio: { play_list: [], guest_index: { Ben: "G-01", Cleo: "G-02", Ada: "G-000007" } } },
          solution: [],
          checklist: [],
        },
      ],
    } as unknown as Toolset;
    const padded = await call(widths, "register_guest", { guest_name: "Dora" }, widths.tasks[0]?.state);
    expect(padded.outcome).toMatchObject({ output: { guest_id: "G-08" } });
    const second = await call(
      widths,
      "register_guest",
      { guest_name: "Eli" },
      {
        studio: { play_list: [], guest_index: { Ben: "G-01", Cleo: "G-02", Ada: "G-03" } },
      },
    );
    expect(second.outcome).toMatchObject({ output: { guest_id: "G-04" } });
    const empty = await call(widths, "register_guest", { guest_name: "Dora" }, { studio: { play_list: [] } });
    expect(empty.outcome).toMatchObject({ output: { guest_id: "G-01" } });
    expect(empty.after).toMatchObject({ studio: { guest_index: { Dora: "G-01" } } });
  });
});

describe("collections with counters", () => {
  it("reads what a counter holds from each example state against that state's own ids", () => {
    // three tasks' starting states: the union of their ids (0 to 5) is above every counter,
    // yet each counter is one more than its own state's largest id: the next id to give
    const states = [
      { feed: { post_counter: 2, posts: { "0": { id: 0, text: "a" }, "1": { id: 1, text: "b" } } } },
      { feed: { post_counter: 0, posts: {} } },
      {
        feed: {
          post_counter: 6,
          posts: Object.fromEntries([0, 1, 2, 3, 4, 5].map((n) => [String(n), { id: n, text: `p${n}` }])),
        },
      },
      { feed: { post_counter: 1, posts: { "0": { id: 0, text: "a" } } } },
    ];
    expect(shapeOf(states).collections.get("posts")?.counter).toEqual({
      path: ["feed", "post_counter"],
      holds: "next",
    });
    // a counter equal to its state's largest id is the last one given
    const last = [
      { feed: { post_counter: 1, posts: { "0": { id: 0, text: "a" }, "1": { id: 1, text: "b" } } } },
      { feed: { post_counter: 7, posts: { "7": { id: 7, text: "c" } } } },
    ];
    expect(shapeOf(last).collections.get("posts")?.counter?.holds).toBe("last");
  });

  const feed = toolset(
    { feed: { post_counter: 2, posts: { "0": { id: 0, text: "a" }, "1": { id: 1, text: "b" } } } },
    [
      tool("create_post", "Create a post.", { text: { type: "string" } }, ["text"], {
        id: { type: "integer" },
        text: { type: "string" },
      }),
      tool("get_post", "Get a post by id.", { post_id: { type: "integer" } }, ["post_id"], {
        id: { type: "integer" },
        text: { type: "string" },
      }),
    ],
  );

  it("answers the id it stored the post under, taken from the counter, and the counter moves", async () => {
    const created = await call(feed, "create_post", { text: "c" });
    expect(created.outcome).toMatchObject({ output: { id: 2, text: "c" } });
    expect(created.after).toMatchObject({ feed: { post_counter: 3, posts: { "2": { id: 2, text: "c" } } } });
    expect((await call(feed, "get_post", { post_id: 2 }, created.after)).outcome).toMatchObject({
      output: { id: 2, text: "c" },
    });
  });
});

describe("worlds that start empty", () => {
  const shop = toolset({}, [
    {
      name: "createWidget",
      description: "Create a widget.",
      inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] },
      outputSchema: { type: "object", properties: { id: { type: "integer" }, label: { type: "string" } } },
    },
    {
      name: "getWidget",
      description: "Read a widget.",
      inputSchema: { type: "object", properties: { widgetId: { type: "integer" } }, required: ["widgetId"] },
      outputSchema: { type: "object", properties: { id: { type: "integer" }, label: { type: "string" } } },
      errors: [{ code: "NOT_FOUND", status: 404, message: "No widget has this id.", when: "unknown id" }],
    },
  ]);

  it("take their collections and key fields from the schemas", async () => {
    const inferred = inferToolset(shop);
    expect(inferred.toolset.state).toEqual({ widgets: {} });
    const created = await call(shop, "createWidget", { label: "gear" }, { widgets: {} });
    expect(created.outcome).toMatchObject({ output: { id: 1, label: "gear" } });
    const read = await call(shop, "getWidget", { widgetId: 1 }, created.after);
    expect(read.outcome).toMatchObject({ output: { id: 1, label: "gear" } });
    expect((await call(shop, "getWidget", { widgetId: 5 }, created.after)).outcome).toMatchObject({
      failure: { code: "NOT_FOUND" },
    });
  });
});

describe("names that put the resource first", () => {
  // a key-value store named resource first, verb last: two stores, each its own collection
  const keyValue = (store: string) => [
    tool(
      `${store}_note_add`,
      "Store a note under a key.",
      { key: { type: "string" }, value: { type: "string" } },
      ["key", "value"],
    ),
    tool(`${store}_note_retrieve`, "Read the note under a key.", { key: { type: "string" } }, ["key"], {
      value: { type: "string" },
    }),
    tool(`${store}_note_remove`, "Remove the note under a key.", { key: { type: "string" } }, ["key"]),
  ];
  const notes = toolset({}, [...keyValue("desk"), ...keyValue("shelf")]);

  it("read the verb at the end and the resource before it", async () => {
    expect(inferToolset(notes).toolset.state).toEqual({ desk_notes: {}, shelf_notes: {} });
    const added = await call(
      notes,
      "desk_note_add",
      { key: "k1", value: "milk" },
      { desk_notes: {}, shelf_notes: {} },
    );
    const read = await call(notes, "desk_note_retrieve", { key: "k1" }, added.after);
    expect(read.outcome).toMatchObject({ output: { value: "milk" } });
    const other = await call(notes, "shelf_note_retrieve", { key: "k1" }, added.after);
    expect(other.outcome).toMatchObject({ status: "failed" });
    const removed = await call(notes, "desk_note_remove", { key: "k1" }, added.after);
    expect(removed.after).toEqual({ desk_notes: {}, shelf_notes: {} });
  });
});

describe("honest verdicts", () => {
  it("a tool whose output the effects do not ground is only partly inferred, and says which fields are guessed", () => {
    const world = toolset({ desk: { tickets: [{ id: 1, status: "open" }] } }, [
      tool("close_ticket", "Close a ticket.", { ticket_id: { type: "integer" } }, ["ticket_id"], {
        status: { type: "string" },
        closed_by: { type: "string" },
      }),
    ]);
    const report = inferToolset(world).report[0] as ToolReport;
    expect(report.verdict).toBe("partly");
    expect(report.guessed).toEqual(["closed_by"]);
  });
});

describe("an action named for what it makes", () => {
  const stay = { id: "R-7", guest: "ana", nights: 2 };
  const world = toolset({ reservation_list: { "R-7": stay }, rooms: { "101": { beds: 2 } } }, [
    tool(
      "reserve_room",
      "Reserve a room for some nights.",
      { room: { type: "string" }, guest: { type: "string" }, nights: { type: "integer" } },
      ["room", "guest", "nights"],
      { id: { type: "string" } },
    ),
  ]);

  it("files a reservation where the state keeps them, though its nouns name a room", async () => {
    const made = await call(
      world,
      "reserve_room",
      { room: "101", guest: "eli", nights: 3 },
      inferToolset(world).toolset.state,
    );
    expect(made.outcome).toMatchObject({ status: "applied", output: { id: "R-8" } });
    expect(made.after).toMatchObject({
      reservation_list: { "R-7": stay, "R-8": { guest: "eli", nights: 3 } },
    });
  });
});

describe("a client API whose state is one account's", () => {
  const world = toolset(
    {
      username: "kai",
      posts: {
        "0": { id: 0, username: "kai", content: "hi" },
        "1": { id: 1, username: "zoe", content: "yo" },
      },
      post_counter: 2,
    },
    [
      tool("create_post", "Publish a post.", { content: { type: "string" } }, ["content"], {
        id: { type: "integer" },
        username: { type: "string" },
      }),
    ],
  );

  it("files what it publishes under that account's name, as the posts already there are", async () => {
    const made = await call(world, "create_post", { content: "new" }, inferToolset(world).toolset.state);
    expect(made.outcome).toMatchObject({ status: "applied", output: { id: 2, username: "kai" } });
    expect(made.after).toMatchObject({
      posts: { "2": { username: "kai", content: "new" } },
      post_counter: 3,
    });
  });
});

describe("a verb made of re- and the noun of a number", () => {
  const world = toolset({ kiosk: { name: "K1", stock_units: 3, cash: 20 } }, [
    tool("restock", "Put more units on the shelf.", { units: { type: "integer" } }, ["units"], {
      stock_units: { type: "integer" },
    }),
  ]);

  it("adds the amount to that number", async () => {
    const made = await call(world, "restock", { units: 5 }, inferToolset(world).toolset.state);
    expect(made.outcome).toMatchObject({ status: "applied", output: { stock_units: 8 } });
    expect(made.after).toEqual({ kiosk: { name: "K1", stock_units: 8, cash: 20 } });
  });
});

describe("a record kept inside another's records, reached through a record an effect reads", () => {
  const shop = toolset(
    {
      accounts: {
        A1: { account_id: "A1", name: "Rui", cards: { C1: { card_id: "C1", balance: 100 } } },
        A2: { account_id: "A2", name: "Ana", cards: { C7: { card_id: "C7", balance: 50 } } },
      },
      orders: { O1: { order_id: "O1", account_id: "A2", card_id: "C7", amount: 30, status: "paid" } },
    },
    [
      tool(
        "refund_order",
        "Refund a paid order: its amount is returned to the balance of the card it was paid with, and the order's status becomes refunded.",
        { order_id: { type: "string" } },
        ["order_id"],
        { order_id: { type: "string" }, status: { type: "string" } },
      ),
    ],
  );

  it("finds the card the order names after reading the order, and refunds it there", async () => {
    const refunded = await call(shop, "refund_order", { order_id: "O1" });
    expect(refunded.outcome).toMatchObject({
      status: "applied",
      output: { order_id: "O1", status: "refunded" },
    });
    expect(refunded.after).toMatchObject({
      accounts: { A1: { cards: { C1: { balance: 100 } } }, A2: { cards: { C7: { balance: 80 } } } },
      orders: { O1: { status: "refunded" } },
    });
  });
});

describe("one account's client API whose collection starts empty, numbered by a counter", () => {
  const note = { id: { type: "integer" }, username: { type: "string" }, title: { type: "string" } };
  const jot = toolset(
    { authenticated: true, username: "kim", password: "pw-1", note_counter: 0, notes: {} },
    [
      tool(
        "write_note",
        "Write a new note for the signed-in user.",
        { title: { type: "string" } },
        ["title"],
        note,
      ),
      tool("read_note", "Read a note by its id.", { note_id: { type: "integer" } }, ["note_id"], note),
      tool("erase_note", "Erase a note by its id.", { note_id: { type: "integer" } }, ["note_id"], {
        deleted: { type: "boolean" },
      }),
    ],
  );

  it("files the note under the counter's number, by the account, and the counter moves", async () => {
    const written = await call(jot, "write_note", { title: "Groceries" });
    expect(written.report.verdict).toBe("inferred");
    expect(written.outcome).toMatchObject({
      status: "applied",
      output: { id: 0, username: "kim", title: "Groceries" },
    });
    expect(written.after).toMatchObject({
      note_counter: 1,
      notes: { "0": { id: 0, username: "kim", title: "Groceries" } },
    });
    const read = await call(jot, "read_note", { note_id: 0 }, written.after);
    expect(read.outcome).toMatchObject({ status: "applied", output: { id: 0, title: "Groceries" } });
  });

  it("answers deleted for an erase, and the note is gone", async () => {
    const written = await call(jot, "write_note", { title: "Groceries" });
    const erased = await call(jot, "erase_note", { note_id: 0 }, written.after);
    expect(erased.report.verdict).toBe("inferred");
    expect(erased.outcome).toMatchObject({ status: "applied", output: { deleted: true } });
    const gone = await call(jot, "read_note", { note_id: 0 }, erased.after);
    expect(gone.outcome).toMatchObject({ status: "failed", failure: { status: 404 } });
  });
});

describe("lists kept beside a collection under its records' keys, and a set named by the verb's noun", () => {
  const blog = toolset(
    {
      username: "ravi",
      post_counter: 3,
      posts: {
        "1": { id: 1, username: "ravi", text: "Hello" },
        "2": { id: 2, username: "mei", text: "Tea notes" },
      },
      responses: { "1": [{ username: "mei", text: "Welcome!" }] },
      subscriptions: ["mei"],
    },
    [
      tool(
        "respond_to_post",
        "Write a response under a post.",
        { post_id: { type: "integer" }, text: { type: "string" } },
        ["post_id", "text"],
      ),
      tool("subscribe_to_author", "Subscribe to an author's posts.", { author: { type: "string" } }, [
        "author",
      ]),
      tool("unsubscribe_from_author", "Stop following an author.", { author: { type: "string" } }, [
        "author",
      ]),
      tool("share_post", "Share a post with the user's own followers.", { post_id: { type: "integer" } }, [
        "post_id",
      ]),
    ],
  );

  it("appends a response under the post's key, by the account, making the list where there is none", async () => {
    const first = await call(blog, "respond_to_post", { post_id: 1, text: "Thanks!" });
    expect(first.after.responses).toEqual({
      "1": [
        { username: "mei", text: "Welcome!" },
        { username: "ravi", text: "Thanks!" },
      ],
    });
    const second = await call(blog, "respond_to_post", { post_id: 2, text: "Which tea?" }, first.after);
    expect((second.after.responses as Record<string, unknown>)["2"]).toEqual([
      { username: "ravi", text: "Which tea?" },
    ]);
    expect(second.after.posts).toEqual(blog.state.posts);
    const unknown = await call(blog, "respond_to_post", { post_id: 9, text: "?" });
    expect(unknown.outcome).toMatchObject({ status: "failed", failure: { status: 404 } });
  });

  it("keeps subscriptions in the list named by the verb's noun", async () => {
    const joined = await call(blog, "subscribe_to_author", { author: "ana" });
    expect(joined.after.subscriptions).toEqual(["mei", "ana"]);
    const left = await call(blog, "unsubscribe_from_author", { author: "mei" }, joined.after);
    expect(left.after.subscriptions).toEqual(["ana"]);
  });

  it("shares a post as a new one of the account's, carrying its text", async () => {
    const shared = await call(blog, "share_post", { post_id: 2 });
    expect(shared.after).toMatchObject({
      post_counter: 4,
      posts: { "3": { id: 3, username: "ravi", text: "Tea notes" } },
    });
  });
});

describe("a documented 401 or 403", () => {
  const desk = toolset({ reports: { R1: { report_id: "R1", title: "Q1", owner: "ana" } } }, [
    {
      ...tool(
        "find_reports",
        "Find the reports of an owner.",
        { owner: { type: "string" }, access_token: { type: "string" } },
        ["owner", "access_token"],
        { reports: { type: "array", items: { type: "object" } } },
      ),
      errors: [
        {
          code: "UNAUTHORIZED",
          status: 401,
          message: "The access token is missing or invalid.",
          when: "The token is missing.",
        },
      ],
    },
  ]);

  it("is never the answer of a list that matches nothing", async () => {
    const none = await call(desk, "find_reports", { owner: "bo", access_token: "t" });
    expect(none.outcome).toMatchObject({ status: "applied", output: { reports: [] } });
    expect(none.report.verdict).toBe("partly");
  });
});
