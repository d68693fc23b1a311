import { describe, expect, it } from "vitest";
import { type Answer, expectError, expectGrounded, expectOk, useDomain } from "./support/domain-session.js";

/**
 * A workspace reached through shell-style calls (POSIX and Python os names): a tree of
 * directories and files with a current working directory. Served without effects; inference
 * must make the calls act on the tree as a shell would.
 *
 * A test marked `it.fails` states what a reader of the tools' docs expects and what the current
 * inference does not yet do: it keeps the suite green while it fails, and fails once the
 * behaviour is right, to have its `.fails` removed.
 */

const shell = useDomain("files.json");

const cwd = async () => (await shell.call("getcwd")).value;
const entries = async (args: Record<string, unknown> = {}) => sorted(await shell.call("listdir", args));
const content = async (path: string) => (await shell.call("read_text", { path })).value;

function sorted(answer: Answer): unknown {
  const names = (answer.value as { entries?: unknown } | undefined)?.entries;
  return Array.isArray(names) ? [...names].sort() : answer.value;
}

describe("files: a tree of directories and files with a current directory", () => {
  it("the working directory is the one the state holds", async () => {
    const answer = await shell.call("getcwd");
    expect.soft(expectOk(answer)).toEqual({ cwd: "/home/juno" });
    expectGrounded(answer, ["cwd"]);
  });

  it("listing the current directory answers its entries, hidden ones only when asked", async () => {
    const answer = await shell.call("listdir");
    expectOk(answer);
    expect.soft(sorted(answer)).toEqual(["drafts", "notes.txt", "photos", "todo.md"]);
    expectGrounded(answer, ["entries"]);
    expect.soft(await entries({ path: "drafts" })).toEqual(["essay.md"]);
    expect.soft(await entries({ path: "drafts", all: true })).toEqual([".scratch", "essay.md"]);
    expect.soft(await entries({ path: "/etc" })).toEqual(["motd"]);
    expect.soft(await entries({ path: "photos" })).toEqual([]);
  });

  it("listing a path that does not exist, or a file, answers the documented error", async () => {
    expectError(await shell.call("listdir", { path: "music" }), "ENOENT");
    expectError(await shell.call("listdir", { path: "notes.txt" }), "ENOTDIR");
  });

  it("changing directory moves the working directory, and relative paths then resolve from it", async () => {
    const answer = await shell.call("chdir", { path: "drafts" });
    expect.soft(expectOk(answer)).toEqual({ cwd: "/home/juno/drafts" });
    expect.soft(await cwd()).toEqual({ cwd: "/home/juno/drafts" });
    expect.soft(await entries()).toEqual(["essay.md"]);
    expect.soft(await content("essay.md")).toEqual({ content: "# On tides\nThe moon pulls the sea.\n" });
    expectOk(await shell.call("chdir", { path: ".." }));
    expect.soft(await cwd()).toEqual({ cwd: "/home/juno" });
    expectOk(await shell.call("chdir", { path: "/etc" }));
    expect.soft(await cwd()).toEqual({ cwd: "/etc" });
  });

  it("changing into a missing path or a file is refused and the working directory stays", async () => {
    expectError(await shell.call("chdir", { path: "/nowhere" }), "ENOENT");
    expectError(await shell.call("chdir", { path: "notes.txt" }), "ENOTDIR");
    expect.soft(await cwd()).toEqual({ cwd: "/home/juno" });
  });

  it("reading a file answers its stored text, by a relative or an absolute path", async () => {
    const answer = await shell.call("read_text", { path: "notes.txt" });
    expect.soft(expectOk(answer)).toEqual({ content: "buy oat milk\ncall the plumber\n" });
    expectGrounded(answer, ["content"]);
    expect.soft(await content("/etc/motd")).toEqual({ content: "Welcome to the workspace.\n" });
    expect.soft(await content("/home/juno/drafts/essay.md")).toEqual({
      content: "# On tides\nThe moon pulls the sea.\n",
    });
  });

  it("reading a missing file or a directory answers the documented error", async () => {
    expectError(await shell.call("read_text", { path: "missing.txt" }), "ENOENT");
    expectError(await shell.call("read_text", { path: "drafts" }), "EISDIR");
  });

  it("a written file is listed and reads back its text; writing again replaces it, append adds to it", async () => {
    const written = await shell.call("write_text", { path: "plan.txt", content: "step one\n" });
    expect.soft(expectOk(written)).toEqual({ path: "/home/juno/plan.txt" });
    expect.soft(await entries()).toEqual(["drafts", "notes.txt", "photos", "plan.txt", "todo.md"]);
    expect.soft(await content("plan.txt")).toEqual({ content: "step one\n" });
    expectOk(await shell.call("write_text", { path: "plan.txt", content: "step two\n" }));
    expect.soft(await content("plan.txt")).toEqual({ content: "step two\n" });
    expectOk(await shell.call("write_text", { path: "plan.txt", content: "step three\n", append: true }));
    expect.soft(await content("/home/juno/plan.txt")).toEqual({ content: "step two\nstep three\n" });
  });

  it("writing into a directory that does not exist is refused and creates nothing", async () => {
    expectError(await shell.call("write_text", { path: "nope/plan.txt", content: "x" }), "ENOENT");
    expect.soft(await entries()).toEqual(["drafts", "notes.txt", "photos", "todo.md"]);
  });

  it("makedirs creates the directory and its parents, which chdir and listdir then find", async () => {
    const made = await shell.call("makedirs", { path: "projects/2026" });
    expect.soft(expectOk(made)).toEqual({ path: "/home/juno/projects/2026" });
    expect.soft(await entries({ path: "projects" })).toEqual(["2026"]);
    expectOk(await shell.call("chdir", { path: "projects/2026" }));
    expect.soft(await cwd()).toEqual({ cwd: "/home/juno/projects/2026" });
    expect.soft(await entries()).toEqual([]);
  });

  it("makedirs on an existing path is refused unless exist_ok", async () => {
    expectError(await shell.call("makedirs", { path: "drafts" }), "EEXIST");
    expectOk(await shell.call("makedirs", { path: "drafts", exist_ok: true }));
    expect.soft(await entries({ path: "drafts" })).toEqual(["essay.md"]);
  });

  it("rename into an existing directory moves the file there, keeping its name", async () => {
    const moved = await shell.call("rename", { src: "notes.txt", dst: "drafts" });
    expect.soft(expectOk(moved)).toEqual({ path: "/home/juno/drafts/notes.txt" });
    expect.soft(await content("drafts/notes.txt")).toEqual({ content: "buy oat milk\ncall the plumber\n" });
    expectError(await shell.call("read_text", { path: "notes.txt" }), "ENOENT");
    expect.soft(await entries()).toEqual(["drafts", "photos", "todo.md"]);
  });

  it("rename to a new name renames a directory with what it holds", async () => {
    expectOk(await shell.call("rename", { src: "drafts", dst: "writing" }));
    expect.soft(await entries()).toEqual(["notes.txt", "photos", "todo.md", "writing"]);
    expect
      .soft(await content("writing/essay.md"))
      .toEqual({ content: "# On tides\nThe moon pulls the sea.\n" });
  });

  it("rename of a missing path answers the documented error and moves nothing", async () => {
    expectError(await shell.call("rename", { src: "ghost.txt", dst: "drafts" }), "ENOENT");
    expect.soft(await entries({ path: "drafts" })).toEqual(["essay.md"]);
  });

  it("copyfile leaves the source and makes a copy with the same text", async () => {
    const copied = await shell.call("copyfile", { src: "todo.md", dst: "photos" });
    expect.soft(expectOk(copied)).toEqual({ path: "/home/juno/photos/todo.md" });
    expect.soft(await content("photos/todo.md")).toEqual({ content: "- renew passport\n" });
    expect.soft(await content("todo.md")).toEqual({ content: "- renew passport\n" });
    expectOk(await shell.call("copyfile", { src: "/etc/motd", dst: "motd.bak" }));
    expect.soft(await content("motd.bak")).toEqual({ content: "Welcome to the workspace.\n" });
    expectError(await shell.call("copyfile", { src: "ghost.txt", dst: "photos" }), "ENOENT");
  });

  it("unlink deletes a file, refuses a directory, and answers a missing path with the documented error", async () => {
    expectOk(await shell.call("unlink", { path: "todo.md" }));
    expectError(await shell.call("read_text", { path: "todo.md" }), "ENOENT");
    expect.soft(await entries()).toEqual(["drafts", "notes.txt", "photos"]);
    expectError(await shell.call("unlink", { path: "todo.md" }), "ENOENT");
    expectError(await shell.call("unlink", { path: "drafts" }), "EISDIR");
    expect.soft(await entries({ path: "drafts" })).toEqual(["essay.md"]);
  });

  it("rmtree removes a directory with everything in it", async () => {
    expectOk(await shell.call("rmtree", { path: "drafts" }));
    expect.soft(await entries()).toEqual(["notes.txt", "photos", "todo.md"]);
    expectError(await shell.call("read_text", { path: "drafts/essay.md" }), "ENOENT");
    expectError(await shell.call("rmtree", { path: "drafts" }), "ENOENT");
    expectError(await shell.call("rmtree", { path: "notes.txt" }), "ENOTDIR");
  });

  it("stat tells a file from a directory and gives a file's size in bytes", async () => {
    const file = await shell.call("stat", { path: "notes.txt" });
    expect.soft(expectOk(file)).toEqual({ type: "file", size: 30 });
    expectGrounded(file, ["type", "size"]);
    expect.soft(expectOk(await shell.call("stat", { path: "/home/juno/drafts" }))).toMatchObject({
      type: "directory",
    });
    expectError(await shell.call("stat", { path: "nothing" }), "ENOENT");
  });

  it("glob finds matching names at any depth under the working directory", async () => {
    const answer = await shell.call("glob", { pattern: "*.md" });
    const matches = (expectOk(answer).matches as string[] | undefined) ?? [];
    expect.soft([...matches].sort()).toEqual(["/home/juno/drafts/essay.md", "/home/juno/todo.md"]);
    expectGrounded(answer, ["matches"]);
    expect.soft(expectOk(await shell.call("glob", { pattern: "*.pdf" }))).toEqual({ matches: [] });
  });

  it("wc counts a file's lines, words or characters and says which", async () => {
    const lines = await shell.call("wc", { path: "notes.txt" });
    expect.soft(expectOk(lines)).toEqual({ count: 2, unit: "lines" });
    expectGrounded(lines, ["count", "unit"]);
    expect.soft(expectOk(await shell.call("wc", { path: "notes.txt", mode: "w" }))).toEqual({
      count: 6,
      unit: "words",
    });
    expect.soft(expectOk(await shell.call("wc", { path: "/etc/motd", mode: "c" }))).toEqual({
      count: 26,
      unit: "characters",
    });
    expectError(await shell.call("wc", { path: "nothing.txt" }), "ENOENT");
  });

  it("diff answers the lines that differ, nothing for equal files, and sees a file written before", async () => {
    const same = await shell.call("diff", { path_a: "notes.txt", path_b: "/home/juno/notes.txt" });
    expect.soft(expectOk(same)).toEqual({ diff: "" });
    expectGrounded(same, ["diff"]);
    await shell.call("write_text", {
      path: "notes2.txt",
      content: "buy oat milk\ncall the roofer\nwater plants\n",
    });
    expect.soft(expectOk(await shell.call("diff", { path_a: "notes.txt", path_b: "notes2.txt" }))).toEqual({
      diff: "- call the plumber\n+ call the roofer\n+ water plants",
    });
    expectError(await shell.call("diff", { path_a: "notes.txt", path_b: "gone.txt" }), "ENOENT");
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(shell.breaches).toEqual([]);
  });
});
