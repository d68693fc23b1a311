import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * docs/architecture.md is the map of the code: its layer diagram says which room may import
 * which, its table has a row per room, and its text names files, folders and what rooms
 * import. These tests read src/ and hold the map to it, so neither drifts from the other.
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

/** The rooms each room imports through their doors. */
function importedBy(room: string): Set<string> {
  return new Set(imports.filter((i) => i.from === room && i.to !== room).map((i) => i.to));
}

/** Backticked names in a piece of the map: `engine.ts`, `store/`, `src/engine/engine.ts`. */
function quoted(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1] ?? "");
}

/** The map's table rows by room, and the text outside the table. */
function rowsByRoom(): Map<string, string> {
  return new Map(
    [...MAP.matchAll(/^\| `([a-z-]+)\/` \|(.*)$/gm)].map((match) => [match[1] ?? "", match[2] ?? ""]),
  );
}

/** Whether a pattern such as `test/eval-*.test.ts` names at least one file (`*` within one folder). */
function globMatches(pattern: string): boolean {
  const folder = join(ROOT, pattern.slice(0, pattern.lastIndexOf("/") + 1));
  const name = pattern.slice(pattern.lastIndexOf("/") + 1);
  const matcher = new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`);
  return existsSync(folder) && readdirSync(folder).some((file) => matcher.test(file));
}

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

describe("docs/architecture.md names only what exists", () => {
  const rows = rowsByRoom();

  it("every file it names exists: src/ paths, room/file paths, and the files a room's row names", () => {
    const missing: string[] = [];
    const isFile = (name: string) => /\.(ts|py|js|mjs|json)$/.test(name);
    for (const name of quoted(MAP).filter(isFile)) {
      const [first] = name.split("/");
      if (name.startsWith("src/")) {
        if (!existsSync(join(ROOT, name))) missing.push(name);
      } else if (first && rooms.includes(first) && name.includes("/")) {
        if (!existsSync(join(SRC, name))) missing.push(name);
      } else if (name.includes("*")) {
        if (!globMatches(name)) missing.push(name);
      } else if (name.includes("/") && !existsSync(join(ROOT, name))) missing.push(name);
    }
    for (const [room, row] of rows) {
      const here = allFiles(join(SRC, room)).map((file) => file.slice(join(SRC, room).length + 1));
      for (const name of quoted(row).filter((n) => isFile(n) && !n.includes("/"))) {
        if (!here.some((file) => file === name || file.endsWith(`/${name}`)))
          missing.push(`${room}/ ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("every folder it names is a room, a folder inside one, or a folder of the project", () => {
    const folders = quoted(MAP).filter((name) => /^[a-z0-9_.-]+(\/[a-z0-9_.-]+)*\/$/.test(name));
    const known = (name: string) => {
      const path = name.slice(0, -1);
      if (existsSync(join(SRC, path)) || existsSync(join(ROOT, path))) return true;
      // a folder inside a room, named on its own (`importers/`)
      return rooms.some((room) => existsSync(join(SRC, room, path)));
    };
    // folders only the build makes
    const built = new Set(["dist/", "dist-bench/", "dist-eval/"]);
    expect(folders.filter((name) => !built.has(name) && !known(name))).toEqual([]);
  });

  it("what it says a room imports is what the room imports", () => {
    const wrong: string[] = [];
    const claims = [
      ...[...rows].map(([room, row]) => ({ subject: room, text: row })),
      // outside the table a sentence names its subject room before the claim
      ...MAP.replace(/^\|.*$/gm, "")
        .split(/(?<=[.;])\s+/)
        .map((sentence) => ({ subject: undefined as string | undefined, text: sentence })),
    ];
    for (const { subject, text } of claims) {
      for (const match of text.matchAll(/imports (only )?((?:`[a-z-]+\/`(?:, | and | or |,? and )?)+)/g)) {
        const before = text.slice(0, match.index);
        const room =
          subject ??
          quoted(before)
            .filter((name) => name.endsWith("/") && rooms.includes(name.slice(0, -1)))
            .at(-1)
            ?.slice(0, -1);
        if (!room) continue;
        const said = quoted(match[2] ?? "").map((name) => name.slice(0, -1));
        const actual = importedBy(room);
        const claim = `${room}/ imports ${match[1] ?? ""}${said.join(", ")}`;
        if (said.some((to) => !actual.has(to)))
          wrong.push(`${claim}: it imports ${[...actual].sort().join(", ")}`);
        if (match[1] && actual.size !== said.length)
          wrong.push(`${claim}: it imports ${[...actual].sort().join(", ")}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
