import { describe, expect, it } from "vitest";
import { expectError, expectOk, useDomain } from "./support/domain-session.js";

/**
 * A drive addressed by absolute paths that comes with no data: its tools read and write files
 * and folders, so its world is a tree that starts empty, and nothing says which folders exist.
 * Served without effects.
 */

const drive = useDomain("drive.json");

describe("drive: a tree of files that starts empty", () => {
  it("a file uploaded anywhere reads back its text; the folders above it are made", async () => {
    expectOk(await drive.call("upload_file", { path: "/notes/2026/today.txt", content: "call the bank" }));
    expect.soft(expectOk(await drive.call("read_file", { path: "/notes/2026/today.txt" }))).toEqual({
      content: "call the bank",
    });
    expect.soft(expectOk(await drive.call("list_folder", { path: "/notes" }))).toEqual({ entries: ["2026"] });
  });

  it("what was never written answers the not-found error", async () => {
    expectError(await drive.call("read_file", { path: "/notes/missing.txt" }), /NOT_FOUND|NO_SUCH/);
    expectError(await drive.call("list_folder", { path: "/nowhere" }), /NOT_FOUND|NO_SUCH/);
  });

  it("a folder made with its parents is listed, and a deleted file is gone", async () => {
    expectOk(await drive.call("create_folder", { path: "/a/b/c" }));
    expect.soft(expectOk(await drive.call("list_folder", { path: "/a/b" }))).toEqual({ entries: ["c"] });
    expectOk(await drive.call("upload_file", { path: "/a/b/c/x.txt", content: "x" }));
    expectOk(await drive.call("delete_file", { path: "/a/b/c/x.txt" }));
    expectError(await drive.call("read_file", { path: "/a/b/c/x.txt" }), /NOT_FOUND|NO_SUCH/);
  });

  it("every result of the calls above fits the output schema its tool advertises", () => {
    expect(drive.breaches).toEqual([]);
  });
});
