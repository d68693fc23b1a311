import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { listingOfSimulatedFolder, type Overlay, reconcileListing } from "../src/hybrid/index.js";

/** The listing rules on their own, for shapes the filesystem server does not answer in. */
const simulated = (tool: string, extra: Record<string, unknown> = {}) => ({
  _toolsim: { origin: "simulated", tool, ...extra },
});
const overlay: Overlay = {
  paths: {
    "/srv/new.txt": { content: "new\n", ...simulated("write_file") },
    "/srv/gone.txt": simulated("delete_file", { deleted: true }),
    "/srv/box": simulated("make_folder"),
    "/srv/box/inner.txt": { content: "x\n", ...simulated("write_file") },
  },
};
const textResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }] });
const listed = (text: string, tool = "ls", description?: string) =>
  reconcileListing({ original: tool, description }, { path: "/srv" }, overlay, textResult(text));
const textOf = (result: CallToolResult) => (result.content[0]?.type === "text" ? result.content[0].text : "");

describe("listing reconciliation", () => {
  it("bare names: drops the deleted, adds the created, in order when the listing is sorted, before a summary", () => {
    const { result, applied } = listed("alpha.txt\ngone.txt\nzeta.txt\n\n3 entries");
    expect(textOf(result)).toBe("alpha.txt\nbox\nnew.txt\nzeta.txt\n\n3 entries");
    expect([...applied].sort()).toEqual(["/srv/box", "/srv/box/inner.txt", "/srv/gone.txt", "/srv/new.txt"]);
  });

  it("an unsorted listing gets the new entries at the end of its entries", () => {
    expect(textOf(listed("zeta.txt\nalpha.txt").result)).toBe("zeta.txt\nalpha.txt\nbox\nnew.txt");
  });

  it("tags come from the listing's own lines, or from the tool's description when it has none", () => {
    expect(textOf(listed("<d> old\n<f> gone.txt").result)).toBe("<d> old\n<f> gone.txt\nbox\nnew.txt");
    expect(textOf(listed("[DIR] old\n[FILE] gone.txt").result)).toBe("[DIR] old\n[DIR] box\n[FILE] new.txt");
    const empty = listed("", "list_folder", "Lines start with [FOLDER] or [FILE].");
    expect(textOf(empty.result)).toBe("[FOLDER] box\n[FILE] new.txt");
  });

  it("a JSON tree keeps its own type words and indentation, at every depth", () => {
    const tree = JSON.stringify(
      [
        { name: "gone.txt", kind: "f", type: "f" },
        { name: "old", type: "d", children: [] },
      ],
      null,
      4,
    );
    const text = textOf(listed(tree, "tree").result);
    expect(JSON.parse(text)).toEqual([
      { name: "old", type: "d", children: [] },
      { name: "new.txt", type: "f" },
      { name: "box", type: "d", children: [{ name: "inner.txt", type: "f" }] },
    ]);
    expect(text).toMatch(/^\[\n {4}\{/);
  });

  it("tools that do not list, and folders the session did not touch, are left alone", () => {
    expect(textOf(listed("gone.txt", "get_info").result)).toBe("gone.txt");
    const other = reconcileListing(
      { original: "ls" },
      { path: "/elsewhere" },
      overlay,
      textResult("gone.txt"),
    );
    expect(textOf(other.result)).toBe("gone.txt");
    expect(other.applied.size).toBe(0);
  });

  it("a folder made only in simulation lists from the overlay, when the output is one text field", () => {
    const tool = {
      description: "One entry per line: [FILE] name or [DIR] name.",
      outputSchema: { type: "object", properties: { content: { type: "string" } } },
    };
    expect(listingOfSimulatedFolder(tool, "list_directory", { path: "/srv/box" }, overlay)).toEqual({
      content: "[FILE] inner.txt",
    });
    expect(
      listingOfSimulatedFolder(tool, "list_directory", { path: "/srv/new.txt" }, overlay),
    ).toBeUndefined();
    expect(
      listingOfSimulatedFolder(
        { ...tool, outputSchema: undefined },
        "list_directory",
        { path: "/srv/box" },
        overlay,
      ),
    ).toBeUndefined();
  });
});
