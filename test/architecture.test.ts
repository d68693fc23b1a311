import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md is the map of the code: its layer diagram says which room may import
 * which, its table has a row per room. These tests read the imports of src/ and hold the
 * map to them, so neither drifts from the other.
 */

const ROOT = resolve(import.meta.dirname, "..");
const SRC = join(ROOT, "src");
const MAP = readFileSync(join(ROOT, "docs", "architecture.md"), "utf8");

const rooms = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isDirectory());

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : name.endsWith(".ts") ? [path] : [];
  });
}

/** Every import of one room into another: [from, to, the module named]. */
const imports: Array<{ from: string; to: string; module: string; file: string }> = rooms.flatMap((room) =>
  filesOf(join(SRC, room)).flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/from "((?:\.\.\/)+)([a-z-]+)\/([^"]*)"/g)].flatMap((match) => {
      const depth = (match[1] ?? "").length / 3;
      const below = file.slice(SRC.length + 1).split("/").length - 1;
      // "../x" from a room's own subfolder is still inside the room
      if (depth !== below) return [];
      return [{ from: room, to: match[2] ?? "", module: match[3] ?? "", file: file.slice(ROOT.length + 1) }];
    }),
  ),
);

/** The diagram: for each room, its line and its place on the line. */
function diagram(): Map<string, { line: number; place: number }> {
  const block = /```\n((?:\d+ [^\n]*\n)+)```/.exec(MAP)?.[1] ?? "";
  const places = new Map<string, { line: number; place: number }>();
  for (const row of block.trim().split("\n")) {
    const [number, ...rest] = row.trim().split(/\s+/);
    const names = rest.filter((token) => token.endsWith("/")).map((token) => token.slice(0, -1));
    names.forEach((name, place) => {
      places.set(name, { line: Number(number), place });
    });
  }
  return places;
}

describe("docs/architecture.md matches the imports", () => {
  const places = diagram();

  it("places every room in the diagram, and only rooms that exist", () => {
    expect([...places.keys()].sort()).toEqual([...rooms].sort());
  });

  it("has one row per room in the room table", () => {
    const rows = [...MAP.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((match) => match[1]);
    expect([...rows].sort()).toEqual([...rooms].sort());
  });

  it("every import goes through the other room's door", () => {
    const past = imports.filter((i) => i.module !== "index.js").map((i) => `${i.file} → ${i.to}/${i.module}`);
    expect(past).toEqual([]);
  });

  it("every import points the way the diagram allows: right on its line, or to a lower line", () => {
    const against = imports
      .filter(({ from, to }) => {
        const a = places.get(from);
        const b = places.get(to);
        if (!a || !b) return true;
        return !(b.line < a.line || (b.line === a.line && b.place > a.place));
      })
      .map(({ from, to, file }) => `${from} → ${to} (${file})`);
    expect([...new Set(against)]).toEqual([]);
  });
});
