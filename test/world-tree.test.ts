import { describe, expect, it } from "vitest";
import * as world from "../src/world/index.js";

/** Paths and the file-system operations of world/, on plain JSON trees. */

const plain: world.NodeConventions = {};
const tree = (top: Record<string, unknown>, cwd = "/"): world.Tree => ({ top, nodes: plain, cwd });

describe("paths", () => {
  it("resolve from the root or the current folder, with . and ..; the root's parent is the root", () => {
    expect(world.resolvePath("/a/b", ["x"])).toEqual(["a", "b"]);
    expect(world.resolvePath("c/./d", ["x"])).toEqual(["x", "c", "d"]);
    expect(world.resolvePath("../..", ["x"])).toEqual([]);
    expect(world.resolvePath("  ", ["x"])).toBeUndefined();
    expect(world.pathText([])).toBe("/");
  });

  it("glob whole names with * and ?, in time bounded by name × pattern", () => {
    expect(world.globTest("*.txt")("notes.txt")).toBe(true);
    expect(world.globTest("*.txt")("notes.txt.bak")).toBe(false);
    expect(world.globTest("n?tes*")("notes.md")).toBe(true);
    expect(world.globTest("notes")("notes.md")).toBe(false);
    // a pattern that makes a backtracking matcher explode answers at once
    expect(world.globTest(`${"*a".repeat(30)}b`)("a".repeat(5000))).toBe(false);
  });
});

describe("the file-system operations", () => {
  it("starts in a lone top folder, otherwise at the root", () => {
    expect(world.homeOf({ home: {} }, plain)).toBe("/home");
    expect(world.homeOf({ home: {}, etc: {} }, plain)).toBe("/");
    expect(world.homeOf({ "a.txt": "x" }, plain)).toBe("/");
  });

  it("mkdir -p makes the folders above; a file in the way is not a folder", () => {
    const made = world.mkdir(tree({}), "/a/b/c", true);
    expect(made).toMatchObject({ ok: true, top: { a: { b: { c: {} } } } });
    expect(world.mkdir(tree({}), "/a/b", false)).toMatchObject({
      ok: false,
      failure: { error: "missing", path: "/a" },
    });
    expect(world.mkdir(tree({ a: "text" }), "/a/b", true)).toMatchObject({
      ok: false,
      failure: { error: "not-folder" },
    });
    expect(world.mkdir(tree({ a: {} }), "/a", true)).toMatchObject({ ok: true, value: "/a" });
  });

  it("touch leaves an existing file alone unless told to refuse it", () => {
    const t = tree({ "a.txt": "keep" });
    expect(world.touch(t, "/a.txt")).toMatchObject({ ok: true, top: { "a.txt": "keep" } });
    expect(world.touch(t, "/a.txt", true)).toMatchObject({ ok: false, failure: { error: "exists" } });
  });

  it("never moves a folder into itself, and a moved current folder keeps the session inside it", () => {
    const t = tree({ a: { b: {} } }, "/a/b");
    expect(world.move(t, "/a", "/a/b")).toMatchObject({ ok: false, failure: { error: "invalid" } });
    expect(world.move(t, "/a", "/z")).toMatchObject({ ok: true, cwd: "/z/b", top: { z: { b: {} } } });
    expect(world.remove(t, "/a")).toMatchObject({ ok: true, cwd: "/", top: {} });
  });

  it("moving a folder onto a file is refused; a file onto a file replaces it", () => {
    const t = tree({ dir: {}, "a.txt": "a", "b.txt": "b" });
    expect(world.move(t, "/dir", "/a.txt")).toMatchObject({ ok: false, failure: { error: "not-folder" } });
    expect(world.move(t, "/a.txt", "/b.txt")).toMatchObject({ ok: true, top: { dir: {}, "b.txt": "a" } });
  });

  it("appends, writes new files where allowed, and measures sizes in bytes", () => {
    const t = tree({ "a.txt": "é" });
    expect(world.write(t, "/a.txt", "!", { append: true })).toMatchObject({ top: { "a.txt": "é!" } });
    expect(world.write(t, "/new.txt", "x")).toMatchObject({ ok: false, failure: { error: "missing" } });
    expect(world.write(t, "/new.txt", "x", { create: true })).toMatchObject({
      ok: true,
      top: { "new.txt": "x" },
    });
    expect(world.size(t, "/")).toMatchObject({ value: 2 });
    expect(world.info(t, "/a.txt")).toMatchObject({ value: { name: "a.txt", type: "file", size: 2 } });
  });

  it("finds files only or folders only, by whole name", () => {
    const t = tree({ src: { "a.ts": "", lib: { "a.ts": "" } } });
    expect(world.find(t, "/", { name: "a.ts", type: "file" })).toMatchObject({
      value: ["/src/a.ts", "/src/lib/a.ts"],
    });
    expect(world.find(t, "src", { type: "folder" })).toMatchObject({ value: ["src/lib"] });
    expect(world.find(t, "/nowhere")).toMatchObject({ ok: false, failure: { error: "missing" } });
  });
});
