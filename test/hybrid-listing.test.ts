import { describe, expect, it } from "vitest";
import { formatSize, parseListing, renderLines } from "../src/hybrid/index.js";

/** The listing shapes on their own, for shapes the filesystem server does not answer in. */

const entry = (name: string, kind: "file" | "folder", asListed: boolean, size?: number) => ({
  name,
  kind,
  asListed,
  ...(size !== undefined ? { size } : {}),
});

describe("reading listings", () => {
  it("reads tags, bare names and JSON trees, and stops at the blank line before a summary", () => {
    expect(parseListing("[DIR] notes\n[FILE] a.txt\n\nTotal: 1 files")).toEqual({
      notes: "folder",
      "a.txt": "file",
    });
    expect(parseListing("[folder] box\nplain.txt")).toEqual({ box: "folder", "plain.txt": "file" });
    expect(
      parseListing('[{"name":"d","type":"directory","children":[]},{"name":"f","type":"file"}]'),
    ).toEqual({
      d: "folder",
      f: "file",
    });
  });
});

describe("writing listings again", () => {
  it("bare names: keeps what is listed, drops what is gone, adds what is new, in order when sorted, and counts again", () => {
    const text = renderLines(
      "alpha.txt\ngone.txt\nzeta.txt\n\n3 files",
      [
        entry("alpha.txt", "file", true),
        entry("zeta.txt", "file", true),
        entry("box", "folder", false),
        entry("new.txt", "file", false),
      ],
      { description: "" },
    );
    expect(text).toBe("alpha.txt\nbox\nnew.txt\nzeta.txt\n\n3 files");
  });

  it("an unsorted listing (the file system's own order) gets the new entries after its own", () => {
    const text = renderLines(
      "zeta.txt\nalpha.txt",
      [entry("zeta.txt", "file", true), entry("alpha.txt", "file", true), entry("new.txt", "file", false)],
      {
        description: "",
      },
    );
    expect(text).toBe("zeta.txt\nalpha.txt\nnew.txt");
  });

  it("tags come from the listing's own lines, or from the tool's description when it has none", () => {
    const own = renderLines(
      "[DIR] old\n[FILE] gone.txt",
      [entry("old", "folder", true), entry("box", "folder", false), entry("new.txt", "file", false)],
      {
        description: "",
      },
    );
    expect(own).toBe("[DIR] old\n[DIR] box\n[FILE] new.txt");
    const described = renderLines("", [entry("box", "folder", false), entry("new.txt", "file", false)], {
      description: "Lines start with [FOLDER] or [FILE].",
    });
    expect(described).toBe("[FOLDER] box\n[FILE] new.txt");
  });

  it("a listing with sizes: new lines in its columns and units, its totals counted again", () => {
    const frame = [
      "[FILE] a.txt        6 B",
      "[FILE] big.bin  2.50 KB",
      "[DIR] docs      ",
      "",
      "Total: 2 files, 1 directories",
      "Combined size: 2.51 KB",
    ].join("\n");
    const text = renderLines(
      frame,
      [
        entry("a.txt", "file", true),
        entry("big.bin", "file", false, 2560),
        entry("c.txt", "file", false, 12),
        entry("docs", "folder", true),
        entry("drafts", "folder", false),
      ],
      { description: "" },
    );
    expect(text.split("\n")).toEqual([
      "[FILE] a.txt        6 B",
      "[FILE] big.bin  2.50 KB",
      "[FILE] c.txt       12 B",
      "[DIR] docs      ",
      "[DIR] drafts    ",
      "",
      "Total: 3 files, 2 directories",
      "Combined size: 2.52 KB",
    ]);
  });

  it("writes sizes the way the listing writes them", () => {
    expect(formatSize(12, "26 B")).toBe("12 B");
    expect(formatSize(1536, "26 B")).toBe("1.50 KB");
    expect(formatSize(1536, "1.5 KB")).toBe("1.5 KB");
    expect(formatSize(1536, "26 bytes")).toBe("1536 bytes");
    expect(formatSize(1536, "26")).toBe("1536");
  });
});
