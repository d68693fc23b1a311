import { describe, expect, it } from "vitest";
import * as world from "../src/world/index.js";

const { sparse } = world;

/**
 * Sparse views of a file system: the view's own changes over a real file system known only
 * in part, asked about fact by fact. A plain tree stands for the real file system here, and
 * answers the questions an operation asks, the way hybrid mode asks a real server.
 */

type RealNode = string | { [name: string]: RealNode };
const REAL: { [name: string]: RealNode } = {
  srv: {
    "plan.txt": "step one\nstep two\n",
    notes: { "todo.md": "- milk\n", old: { "v1.md": "# v1\n" } },
    empty: {},
  },
};

function realNode(path: string): RealNode | undefined {
  let node: RealNode | undefined = REAL;
  for (const name of world.segmentsOf(path)) {
    if (typeof node !== "object") return undefined;
    node = node[name];
  }
  return node;
}

/** Answers an operation's questions from REAL until it decides; counts the questions. */
function settle<T>(
  operation: (tree: world.sparse.SparseTree) => T | world.sparse.Needs,
  changes: world.sparse.Changes = {},
): { outcome: T; asked: world.sparse.Question[] } {
  const folders: Record<string, Record<string, world.sparse.EntryKind> | null> = {};
  const texts: Record<string, string | null> = {};
  const asked: world.sparse.Question[] = [];
  for (let round = 0; round < 20; round++) {
    const outcome = operation({ changes, real: { folders, texts } });
    if (!(typeof outcome === "object" && outcome !== null && "needs" in outcome)) return { outcome, asked };
    for (const question of outcome.needs) {
      asked.push(question);
      const node = realNode(question.path);
      if (question.ask === "list")
        folders[question.path] =
          typeof node === "object"
            ? Object.fromEntries(
                Object.entries(node).map(([n, v]) => [n, typeof v === "object" ? "folder" : "file"]),
              )
            : null;
      else texts[question.path] = typeof node === "string" ? node : null;
    }
  }
  throw new Error("the operation kept asking");
}

const changesOf = (outcome: world.sparse.SparseOutcome<unknown>) => {
  if (!outcome.ok) throw new Error(`expected a change, got ${JSON.stringify(outcome)}`);
  return outcome.changes;
};

describe("path globs", () => {
  it("read ** as any number of folders (at least one at the end), braces and classes as shells do", () => {
    const test = (pattern: string, path: string) => world.pathGlobTest(pattern)(path);
    expect(test("**/*.md", "a.md")).toBe(true);
    expect(test("**/*.md", "x/y/a.md")).toBe(true);
    expect(test("*.txt", "a/b.txt")).toBe(false);
    expect(test("old/**", "old")).toBe(false);
    expect(test("old/**", "old/x/y")).toBe(true);
    expect(test("a/**/b", "a/b")).toBe(true);
    expect(test("**/old/**", "notes/old")).toBe(false);
    expect(test("{a,b}.md", "b.md")).toBe(true);
    expect(test("[ab].md", "c.md")).toBe(false);
    expect(test("[!ab].md", "c.md")).toBe(true);
    expect(test("*.md", ".hidden.md")).toBe(true);
    // a pattern that makes a backtracking matcher explode answers at once
    expect(test(`${"**/".repeat(40)}${"*a".repeat(20)}b`, `${"x/".repeat(200)}${"a".repeat(3000)}`)).toBe(
      false,
    );
  });
});

describe("the tree operations hybrid mode needs", () => {
  const plain = (top: Record<string, unknown>): world.Tree => ({ top, nodes: {}, cwd: "/" });

  it("edits a file's text in order, and an edit that does not match changes nothing", () => {
    const tree = plain({ "a.txt": "one two\nthree\n" });
    const edited = world.edit(tree, "/a.txt", [
      { oldText: "two", newText: "2" },
      { oldText: "one 2", newText: "1 2" },
    ]);
    expect(edited).toMatchObject({
      ok: true,
      top: { "a.txt": "1 2\nthree\n" },
      value: { text: "1 2\nthree\n" },
    });
    expect(world.edit(tree, "/a.txt", [{ oldText: "four", newText: "4" }])).toMatchObject({
      ok: false,
      failure: { error: "invalid", path: "/a.txt" },
    });
    expect(world.edit(plain({ d: {} }), "/d", [])).toMatchObject({
      ok: false,
      failure: { error: "is-folder" },
    });
  });

  it("a move that refuses any existing destination, next to mv's into-a-folder rule", () => {
    const tree = plain({ "a.txt": "a", "b.txt": "b", dir: {} });
    const strict = { into: false, replace: false };
    expect(world.move(tree, "/a.txt", "/dir")).toMatchObject({ ok: true, value: "/dir/a.txt" });
    expect(world.move(tree, "/a.txt", "/dir", strict)).toMatchObject({
      ok: false,
      failure: { error: "exists" },
    });
    expect(world.move(tree, "/a.txt", "/b.txt", strict)).toMatchObject({
      ok: false,
      failure: { error: "exists", path: "/b.txt" },
    });
    expect(world.move(tree, "/a.txt", "/c.txt", strict)).toMatchObject({ ok: true, value: "/c.txt" });
  });
});

describe("a sparse view over a real file system", () => {
  it("looks a path up by listing its real folder, once", () => {
    const { outcome, asked } = settle((tree) => sparse.look(tree, "/srv/notes/todo.md"));
    expect(outcome).toEqual({ type: "file", path: "/srv/notes/todo.md", real: "/srv/notes/todo.md" });
    expect(asked).toEqual([{ ask: "list", path: "/srv/notes" }]);
    expect(settle((tree) => sparse.look(tree, "/srv/nothing/x")).outcome).toMatchObject({ type: "absent" });
    expect(settle((tree) => sparse.look(tree, "/srv/plan.txt/x")).outcome).toMatchObject({ type: "absent" });
  });

  it("writes a new file where the real folder is, and refuses one whose folder is missing", () => {
    const made = settle((tree) => sparse.write(tree, "/srv/notes/new.md", "# new\n", { create: true }));
    expect(changesOf(made.outcome)).toEqual({ "/srv/notes/new.md": { type: "file", content: "# new\n" } });
    const missing = settle((tree) => sparse.write(tree, "/srv/nowhere/x.txt", "x", { create: true }));
    expect(missing.outcome).toMatchObject({ ok: false, failure: { error: "missing", path: "/srv/nowhere" } });
    const blocked = settle((tree) => sparse.write(tree, "/srv/plan.txt/x", "x", { create: true }));
    expect(blocked.outcome).toMatchObject({
      ok: false,
      failure: { error: "not-folder", path: "/srv/plan.txt" },
    });
  });

  it("appends to and edits a real file by reading its real text first", () => {
    const appended = settle((tree) => sparse.write(tree, "/srv/plan.txt", "step three\n", { append: true }));
    expect(appended.asked).toContainEqual({ ask: "read", path: "/srv/plan.txt" });
    expect(changesOf(appended.outcome)["/srv/plan.txt"]).toEqual({
      type: "file",
      content: "step one\nstep two\nstep three\n",
    });
    const edited = settle((tree) =>
      sparse.edit(tree, "/srv/notes/todo.md", [{ oldText: "milk", newText: "oat milk" }]),
    );
    expect(edited.outcome).toMatchObject({ ok: true, value: { text: "- oat milk\n" } });
  });

  it("mkdir -p finds the nearest real folder from below and makes the rest, which hold nothing real", () => {
    const { outcome, asked } = settle((tree) => sparse.mkdir(tree, "/srv/archive/2024", true));
    const changes = changesOf(outcome);
    expect(changes).toEqual({ "/srv/archive": { type: "folder" }, "/srv/archive/2024": { type: "folder" } });
    expect(asked.map((q) => q.path)).not.toContain("/");
    expect(settle((tree) => sparse.entries(tree, "/srv/archive"), changes).outcome).toMatchObject({
      entries: { "2024": { type: "folder" } },
    });
    expect(settle((tree) => sparse.mkdir(tree, "/srv/notes", true)).outcome).toMatchObject({ ok: true });
    expect(settle((tree) => sparse.mkdir(tree, "/srv/notes")).outcome).toMatchObject({
      ok: false,
      failure: { error: "exists" },
    });
  });

  it("moves a real folder: below the new name the real folder's entries show, with the view's own changes", () => {
    let changes = changesOf(
      settle((tree) => sparse.write(tree, "/srv/notes/new.md", "n", { create: true })).outcome,
    );
    changes = changesOf(settle((tree) => sparse.remove(tree, "/srv/notes/todo.md"), changes).outcome);
    changes = changesOf(settle((tree) => sparse.move(tree, "/srv/notes", "/srv/kept"), changes).outcome);
    expect(changes).toEqual({
      "/srv/notes": { type: "absent" },
      "/srv/kept": { type: "folder", real: "/srv/notes" },
      "/srv/kept/new.md": { type: "file", content: "n" },
      "/srv/kept/todo.md": { type: "absent" },
    });
    const listed = settle((tree) => sparse.entries(tree, "/srv/kept"), changes).outcome;
    expect(listed).toMatchObject({ ok: true });
    expect(Object.keys(listed?.ok ? listed.entries : {})).toEqual(["new.md", "old"]);
    expect(settle((tree) => sparse.look(tree, "/srv/kept/old/v1.md"), changes).outcome).toEqual({
      type: "file",
      path: "/srv/kept/old/v1.md",
      real: "/srv/notes/old/v1.md",
    });
    expect(settle((tree) => sparse.look(tree, "/srv/notes/new.md"), changes).outcome).toMatchObject({
      type: "absent",
    });
  });

  it("moves into a folder, or refuses an existing destination when the tool says so", () => {
    const into = settle((tree) => sparse.move(tree, "/srv/plan.txt", "/srv/empty"));
    expect(into.outcome).toMatchObject({ ok: true, value: "/srv/empty/plan.txt" });
    const strict = settle((tree) =>
      sparse.move(tree, "/srv/plan.txt", "/srv/empty", { into: false, replace: false }),
    );
    expect(strict.outcome).toMatchObject({ ok: false, failure: { error: "exists", path: "/srv/empty" } });
  });

  it("a folder made again where a real one was removed holds none of the real entries", () => {
    let changes = changesOf(settle((tree) => sparse.remove(tree, "/srv/notes")).outcome);
    changes = changesOf(settle((tree) => sparse.mkdir(tree, "/srv/notes"), changes).outcome);
    expect(settle((tree) => sparse.entries(tree, "/srv/notes"), changes).outcome).toEqual({
      ok: true,
      entries: {},
    });
  });

  it("rmdir lists the folder first and refuses one that is not empty", () => {
    expect(settle((tree) => sparse.remove(tree, "/srv/notes", { emptyOnly: true })).outcome).toMatchObject({
      ok: false,
      failure: { error: "not-empty" },
    });
    expect(settle((tree) => sparse.remove(tree, "/srv/empty", { emptyOnly: true })).outcome).toMatchObject({
      ok: true,
    });
  });

  it("without anyone to ask, assumes what the operation needs", () => {
    const tree: world.sparse.SparseTree = { changes: {}, real: {}, unknown: "assume" };
    expect(sparse.write(tree, "/x/y.txt", "y", { create: true })).toMatchObject({
      ok: true,
      changes: { "/x/y.txt": { type: "file", content: "y" } },
    });
    expect(sparse.move(tree, "/x/a", "/x/b")).toMatchObject({
      ok: true,
      changes: { "/x/a": { type: "absent" }, "/x/b": { type: "file", real: "/x/a" } },
    });
  });
});
