import { describe, expect, it } from "vitest";
import { Tool } from "../src/catalog/index.js";
import { runEffects } from "../src/engine/index.js";
import { applyPatch } from "../src/patch/index.js";

/**
 * The effects language on every shape of state: the whole state as one record, records and
 * scalars at any depth, arrays of records addressed by a field, ids minted from counters,
 * and trees of folders and files with a current folder.
 */

const NOW = "2026-03-02T09:00:00Z";

function tool(effects: unknown[], properties: Record<string, unknown> = {}, errors: unknown[] = []): Tool {
  return Tool.parse({
    name: "act",
    description: "Acts on the state.",
    inputSchema: { type: "object", properties },
    errors,
    effects,
  });
}

async function run(effects: unknown[], args: Record<string, unknown>, state: Record<string, unknown>) {
  const props = Object.fromEntries(Object.keys(args).map((k) => [k, {}]));
  const errors = [
    { code: "NO_SUCH_THING", status: 404, message: "No such thing: {id}.", when: "absent" },
    { code: "TAKEN", status: 409, message: "Taken.", when: "taken" },
  ];
  const outcome = await runEffects(tool(effects, props, errors), args, state, NOW);
  const applied =
    outcome.status === "applied" ? applyPatch(structuredClone(state), outcome.patch) : undefined;
  if (applied && !applied.ok) throw new Error(`the patch does not apply: ${applied.error}`);
  // a call that failed leaves nothing to look at: an empty object
  const after = applied?.ok ? (applied.document as Record<string, unknown>) : {};
  return { outcome, after };
}

describe("the whole state and records at any depth", () => {
  const device = { power: "off", volume: 3, runtime: { now: NOW } };

  it('"." reads the whole state as one record, without runtime, and sets its scalars', async () => {
    const read = await run([{ kind: "read", target: ".", output: "" }], {}, device);
    expect(read.outcome).toMatchObject({ status: "applied", output: { power: "off", volume: 3 } });
    const set = await run(
      [{ kind: "update", target: ".", set: { power: "{power}" }, output: "" }],
      { power: "on" },
      device,
    );
    expect(set.outcome).toMatchObject({
      status: "applied",
      patch: [{ op: "replace", path: "/power", value: "on" }],
    });
    expect(set.after).toMatchObject({ power: "on", volume: 3 });
  });

  it("reads and changes a record one level down, and a scalar inside a namespace", async () => {
    const state = { car: { engine: "stopped", fuel: 10, doors: { front: "locked" } } };
    const read = await run([{ kind: "read", target: "car", output: "" }], {}, state);
    expect(read.outcome).toMatchObject({ output: { engine: "stopped", fuel: 10 } });
    const scalar = await run([{ kind: "read", target: "car/fuel", output: "fuel_level" }], {}, state);
    expect(scalar.outcome).toMatchObject({ output: { fuel_level: 10 } });
    const fill = await run(
      [{ kind: "update", target: "car", inc: { fuel: "{amount}" }, output: "" }],
      { amount: 5 },
      state,
    );
    expect(fill.after).toMatchObject({ car: { fuel: 15, engine: "stopped" } });
  });
});

describe("arrays of records addressed by a field", () => {
  const desk = {
    desk: {
      tickets: [
        { id: 1, title: "Printer", status: "open" },
        { id: 2, title: "VPN", status: "open" },
      ],
    },
  };

  it("reads, updates and deletes the element whose field equals the argument; an unknown one is missing", async () => {
    const read = await run(
      [{ kind: "read", target: "desk/tickets/[id={id}]", missing: "NO_SUCH_THING", output: "" }],
      { id: 2 },
      desk,
    );
    expect(read.outcome).toMatchObject({ output: { title: "VPN" } });
    const close = await run(
      [{ kind: "update", target: "desk/tickets/[id={id}]", set: { status: "closed" }, output: "" }],
      { id: "2" },
      desk,
    );
    expect(close.outcome).toMatchObject({ patch: [{ op: "replace", path: "/desk/tickets/1" }] });
    expect(close.after).toMatchObject({
      desk: { tickets: [{ status: "open" }, { id: 2, status: "closed" }] },
    });
    const removed = await run([{ kind: "delete", target: "desk/tickets/[id={id}]" }], { id: 1 }, desk);
    expect((removed.after.desk as { tickets: unknown[] }).tickets).toEqual([
      { id: 2, title: "VPN", status: "open" },
    ]);
    const missing = await run(
      [{ kind: "read", target: "desk/tickets/[id={id}]", missing: "NO_SUCH_THING" }],
      { id: 9 },
      desk,
    );
    expect(missing.outcome).toMatchObject({
      status: "failed",
      failure: { code: "NO_SUCH_THING", message: "No such thing: 9." },
    });
  });

  it("lists the records of an array inside a record, filtered by where", async () => {
    const listed = await run(
      [{ kind: "list", target: "desk/tickets", where: { status: "open" }, output: "tickets" }],
      {},
      desk,
    );
    expect(listed.outcome).toMatchObject({ output: { tickets: [{ id: 1 }, { id: 2 }] } });
  });
});

describe("trees of records walked by a slash path", () => {
  const menu = {
    menu: {
      label: "Home",
      children: {
        shop: { label: "Shop", children: { hats: { label: "Hats", children: {} } } },
        help: { label: "Help", children: {} },
      },
    },
  };
  const pages = {
    site: {
      title: "Start",
      pages: [
        { slug: "guides", title: "Guides", pages: [{ slug: "install", title: "Install", pages: [] }] },
        { slug: "faq", title: "FAQ", pages: [] },
      ],
    },
  };

  it("reads the node a path names through children kept by name; the root is the empty path or a slash", async () => {
    const walk = [{ kind: "read", target: "menu/*children={path}", missing: "NO_SUCH_THING", output: "" }];
    expect((await run(walk, { path: "shop/hats" }, menu)).outcome).toMatchObject({
      output: { label: "Hats" },
    });
    expect((await run(walk, { path: "/shop/hats/" }, menu)).outcome).toMatchObject({
      output: { label: "Hats" },
    });
    expect((await run(walk, { path: "/" }, menu)).outcome).toMatchObject({ output: { label: "Home" } });
    expect((await run(walk, { path: "" }, menu)).outcome).toMatchObject({ output: { label: "Home" } });
    expect((await run(walk, { path: "shop/caps" }, menu)).outcome).toMatchObject({
      status: "failed",
      failure: { code: "NO_SUCH_THING" },
    });
  });

  it("changes, adds and removes nodes kept in arrays, told apart by the field after the dot", async () => {
    const rename = await run(
      [{ kind: "update", target: "site/*pages.slug={path}", set: { title: "{title}" }, output: "" }],
      { path: "/guides/install", title: "Installing" },
      pages,
    );
    expect(rename.outcome).toMatchObject({
      patch: [{ op: "replace", path: "/site/pages/0/pages/0", value: { title: "Installing" } }],
    });
    const added = await run(
      [
        {
          kind: "create",
          target: "site/*pages.slug={parent}/pages",
          missing: "NO_SUCH_THING",
          set: { slug: "{slug}", title: "{title}", pages: [] },
        },
      ],
      { parent: "/faq", slug: "billing", title: "Billing" },
      pages,
    );
    expect(added.after).toMatchObject({
      site: { pages: [{ slug: "guides" }, { slug: "faq", pages: [{ slug: "billing", title: "Billing" }] }] },
    });
    const removed = await run(
      [{ kind: "delete", target: "site/*pages.slug={path}" }],
      { path: "/guides" },
      pages,
    );
    expect((removed.after.site as { pages: unknown[] }).pages).toEqual([
      { slug: "faq", title: "FAQ", pages: [] },
    ]);
    const nowhere = await run(
      [{ kind: "create", target: "site/*pages.slug={parent}/pages", missing: "NO_SUCH_THING", set: {} }],
      { parent: "/nowhere" },
      pages,
    );
    expect(nowhere.outcome).toMatchObject({ status: "failed", failure: { code: "NO_SUCH_THING" } });
  });

  it("finds the node whose field equals a value at any depth, the top node included", async () => {
    const tree = {
      org: {
        id: 1,
        name: "Company",
        units: [{ id: 2, name: "Ops", units: { x: { id: 5, name: "Night shift", units: [] } } }],
      },
    };
    const find = [{ kind: "read", target: "org/**units.id={id}", missing: "NO_SUCH_THING", output: "" }];
    expect((await run(find, { id: 5 }, tree)).outcome).toMatchObject({ output: { name: "Night shift" } });
    expect((await run(find, { id: "1" }, tree)).outcome).toMatchObject({ output: { name: "Company" } });
    expect((await run(find, { id: 9 }, tree)).outcome).toMatchObject({
      status: "failed",
      failure: { code: "NO_SUCH_THING" },
    });
    const renamed = await run(
      [{ kind: "update", target: "org/**units.id={id}", set: { name: "{name}" } }],
      { id: 5, name: "Late shift" },
      tree,
    );
    expect(renamed.outcome).toMatchObject({ patch: [{ op: "replace", path: "/org/units/0/units/x" }] });
  });

  it("is checked as a target when the catalog is read", () => {
    expect(() => tool([{ kind: "read", target: "menu/*children={path}" }])).not.toThrow();
    expect(() => tool([{ kind: "read", target: "menu/*children={path" }])).toThrow(/a target is/);
  });
});

describe("ids minted from counters", () => {
  it('"next": the counter holds the next id; the entity keeps it as a number, the key as text', async () => {
    const state = { feed: { post_counter: 2, posts: { "0": { id: 0 }, "1": { id: 1 } } } };
    const made = await run(
      [
        {
          kind: "create",
          target: "feed/posts",
          id: { counter: "feed/post_counter", numeric: true, field: "id" },
          set: { text: "{text}" },
          output: "",
        },
      ],
      { text: "hi" },
      state,
    );
    expect(made.outcome).toMatchObject({ status: "applied", output: { id: 2, text: "hi" } });
    expect(made.after).toMatchObject({ feed: { post_counter: 3, posts: { "2": { id: 2, text: "hi" } } } });
  });

  it('"last": the counter holds the last id given, so it is raised first; ids already taken are skipped', async () => {
    const state = { people: { count: 2, ids: { "P-001": {}, "P-002": {}, "P-003": {} } } };
    const made = await run(
      [
        {
          kind: "create",
          target: "people/ids",
          id: { counter: "people/count", counterHolds: "last", prefix: "P-", width: 3 },
          set: {},
        },
      ],
      {},
      state,
    );
    expect(made.after).toMatchObject({ people: { count: 4, ids: { "P-004": {} } } });
  });

  it("appends to an array of records with the next id after the largest, or from a counter", async () => {
    const state = { desk: { counter: 10, tickets: [{ id: 3 }] } };
    const plain = await run(
      [{ kind: "create", target: "desk/tickets", id: { field: "id", width: 1 }, set: {} }],
      {},
      state,
    );
    expect(plain.after).toMatchObject({ desk: { tickets: [{ id: 3 }, { id: 4 }] } });
    const counted = await run(
      [
        {
          kind: "create",
          target: "desk/tickets",
          id: { field: "id", counter: "desk/counter", numeric: true },
          set: {},
          output: "",
        },
      ],
      {},
      state,
    );
    expect(counted.after).toMatchObject({ desk: { counter: 11, tickets: [{ id: 3 }, { id: 10 }] } });
  });
});

describe("trees of folders and files", () => {
  const nodes = {
    children: "contents",
    kind: { field: "type", folder: "directory", file: "file" },
    content: "content",
  };
  const fs = {
    disk: {
      root: {
        home: {
          type: "directory",
          contents: {
            "notes.txt": { type: "file", content: "alpha\nbeta" },
            ".secret": { type: "file", content: "x" },
            docs: { type: "directory", contents: { "a.md": { type: "file", content: "# A" } } },
            empty: { type: "directory", contents: {} },
          },
        },
      },
    },
    runtime: { now: NOW },
  };
  const tree = (op: string, extra: Record<string, unknown> = {}) => ({
    kind: "tree",
    op,
    target: "disk/root",
    cwd: "runtime/cwd",
    nodes,
    output: "value",
    ...extra,
  });

  it("starts in the only top folder, lists without hidden names unless asked, and keeps the current folder", async () => {
    expect((await run([tree("pwd")], {}, fs)).outcome).toMatchObject({ output: { value: "/home" } });
    expect((await run([tree("list")], {}, fs)).outcome).toMatchObject({
      output: { value: ["notes.txt", "docs", "empty"] },
    });
    expect((await run([tree("list", { all: "{all}" })], { all: true }, fs)).outcome).toMatchObject({
      output: { value: ["notes.txt", ".secret", "docs", "empty"] },
    });
    const cd = await run([tree("cd", { path: "{folder}" })], { folder: "docs" }, fs);
    expect(cd.outcome).toMatchObject({ output: { value: "/home/docs" } });
    expect(cd.after).toMatchObject({ runtime: { cwd: "/home/docs" } });
    const after = cd.after as Record<string, unknown>;
    expect((await run([tree("list")], {}, after)).outcome).toMatchObject({ output: { value: ["a.md"] } });
    expect((await run([tree("cd", { path: "{folder}" })], { folder: ".." }, after)).outcome).toMatchObject({
      output: { value: "/home" },
    });
  });

  it("moves into a folder keeping the name, renames otherwise, and refuses a name taken inside", async () => {
    const into = await run(
      [tree("move", { path: "{source}", to: "{destination}" })],
      { source: "notes.txt", destination: "docs" },
      fs,
    );
    expect(into.outcome).toMatchObject({ output: { value: "/home/docs/notes.txt" } });
    const home = (into.after.disk as { root: { home: { contents: Record<string, unknown> } } }).root.home
      .contents;
    expect(Object.keys(home)).not.toContain("notes.txt");
    expect(Object.keys((home.docs as { contents: object }).contents)).toEqual(["a.md", "notes.txt"]);
    const renamed = await run(
      [tree("move", { path: "{source}", to: "{destination}" })],
      { source: "notes.txt", destination: "todo.txt" },
      fs,
    );
    expect(renamed.outcome).toMatchObject({ output: { value: "/home/todo.txt" } });
    const copied = await run(
      [tree("copy", { path: "{source}", to: "{destination}" })],
      { source: "docs/a.md", destination: "empty" },
      fs,
    );
    expect(copied.outcome).toMatchObject({ output: { value: "/home/empty/a.md" } });
    const taken = await run(
      [tree("copy", { path: "{source}", to: "{destination}", errors: { exists: "TAKEN" } })],
      { source: "docs/a.md", destination: "docs" },
      fs,
    );
    expect(taken.outcome).toMatchObject({ status: "failed", failure: { code: "TAKEN" } });
  });

  it("makes folders and files, writes and reads text, and answers each failure as a shell does", async () => {
    const made = await run(
      [tree("mkdir", { path: "{name}" }), tree("touch", { path: "{name}/new.txt" })],
      { name: "src" },
      fs,
    );
    expect(made.after).toMatchObject({
      disk: {
        root: {
          home: {
            contents: { src: { type: "directory", contents: { "new.txt": { type: "file", content: "" } } } },
          },
        },
      },
    });
    const written = await run(
      [tree("write", { path: "{file}", content: "{text}" })],
      { file: "notes.txt", text: "gamma" },
      fs,
    );
    expect(written.after).toMatchObject({
      disk: { root: { home: { contents: { "notes.txt": { content: "gamma" } } } } },
    });
    const read = await run([tree("read", { path: "{file}" })], { file: "docs/a.md" }, fs);
    expect(read.outcome).toMatchObject({ output: { value: "# A" } });
    const failures = [
      [tree("read", { path: "{file}" }), { file: "nope.txt" }, "NOT_FOUND", 404],
      [tree("read", { path: "{file}" }), { file: "docs" }, "IS_A_DIRECTORY", 400],
      [tree("mkdir", { path: "{file}" }), { file: "docs" }, "ALREADY_EXISTS", 409],
      [tree("cd", { path: "{file}" }), { file: "notes.txt" }, "NOT_A_DIRECTORY", 400],
      [
        tree("remove", { path: "{file}", kinds: "folder", emptyOnly: true }),
        { file: "docs" },
        "DIRECTORY_NOT_EMPTY",
        409,
      ],
      [tree("write", { path: "{file}", content: "x" }), { file: "ghost.txt" }, "NOT_FOUND", 404],
    ] as const;
    for (const [effect, args, code, status] of failures) {
      const { outcome } = await run([effect], args, fs);
      expect(outcome, JSON.stringify(args)).toMatchObject({ status: "failed", failure: { code, status } });
      if (outcome.status === "failed") expect(outcome.failure.message).toContain("/home/");
    }
    const documented = await run(
      [tree("read", { path: "{id}", errors: { missing: "NO_SUCH_THING" } })],
      { id: "ghost" },
      fs,
    );
    expect(documented.outcome).toMatchObject({
      failure: { code: "NO_SUCH_THING", message: expect.stringContaining("No such thing: ghost.") },
    });
  });

  it("removes files and folders, and finds names under a path as POSIX find prints them", async () => {
    const gone = await run([tree("remove", { path: "{name}" })], { name: "empty" }, fs);
    expect(
      Object.keys((gone.after.disk as { root: { home: { contents: object } } }).root.home.contents),
    ).toEqual(["notes.txt", ".secret", "docs"]);
    const found = await run(
      [tree("find", { path: "{path}", name: "{name}", match: "contains" })],
      { path: ".", name: "a" },
      fs,
    );
    expect(found.outcome).toMatchObject({ output: { value: ["./docs/a.md"] } });
    const all = await run([tree("find")], {}, fs);
    expect(all.outcome).toMatchObject({
      output: { value: ["./notes.txt", "./.secret", "./docs", "./docs/a.md", "./empty"] },
    });
  });

  it("edits a file by exact replacements, refusing edits of another shape and texts not in the file", async () => {
    const edits = [{ oldText: "beta", newText: "gamma" }];
    const done = await run([tree("edit", { path: "notes.txt", edits: "{edits}" })], { edits }, fs);
    const home = (after: Record<string, unknown>) =>
      (after.disk as { root: { home: { contents: Record<string, { content?: string }> } } }).root.home
        .contents;
    expect(home(done.after)["notes.txt"]?.content).toBe("alpha\ngamma");
    expect(done.outcome).toMatchObject({
      output: { value: "--- notes.txt\n+++ notes.txt\n@@ edit 1 @@\n-beta\n+gamma" },
    });
    const dry = await run(
      [tree("edit", { path: "notes.txt", edits: "{edits}", dryRun: true })],
      { edits },
      fs,
    );
    expect(dry.outcome).toMatchObject({ status: "applied", patch: [] });
    const shape = await run(
      [tree("edit", { path: "notes.txt", edits: "{edits}" })],
      { edits: [{ from: "a" }] },
      fs,
    );
    expect(shape.outcome).toMatchObject({
      status: "failed",
      failure: { code: "INVALID_EDITS", status: 400 },
    });
    const absent = await run(
      [tree("edit", { path: "notes.txt", edits: "{edits}" })],
      { edits: [{ oldText: "delta", newText: "x" }] },
      fs,
    );
    expect(absent.outcome).toMatchObject({ status: "failed", failure: { code: "EDIT_NOT_APPLIED" } });
  });

  it("works on trees written as nested objects whose files are their text", async () => {
    const plain = { files: { src: { "main.ts": "export {}", lib: {} } } };
    const simple = { kind: "tree", target: "files", output: "value" };
    expect((await run([{ ...simple, op: "list", path: "/src" }], {}, plain)).outcome).toMatchObject({
      output: { value: ["main.ts", "lib"] },
    });
    const moved = await run([{ ...simple, op: "move", path: "/src/main.ts", to: "/src/lib" }], {}, plain);
    expect(moved.after).toEqual({ files: { src: { lib: { "main.ts": "export {}" } } } });
    expect((await run([{ ...simple, op: "size", path: "/" }], {}, plain)).outcome).toMatchObject({
      output: { value: 9 },
    });
  });
});
