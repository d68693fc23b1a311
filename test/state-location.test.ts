import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import {
  CLI_PATH,
  installationOf,
  launchCommand,
  PACKAGE_ROOT,
  stateDirectory,
  userDataDirectory,
} from "../src/commands/paths.js";
import { moveLegacyDb, resolveDbFile } from "../src/commands/state-location.js";
import { connectStdio, tempDir } from "./support/index.js";

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function scratch(): string {
  const dir = tempDir("toolsim-paths-");
  cleanups.push(dir.cleanup);
  return dir.path;
}

/** A package folder laid out the way a package manager leaves it, with optional files beside it. */
function layout(root: string, parts: string[], files: string[] = []): string {
  const pkg = join(root, ...parts);
  mkdirSync(pkg, { recursive: true });
  for (const file of files) {
    mkdirSync(join(root, file, ".."), { recursive: true });
    writeFileSync(join(root, file), "#!/usr/bin/env node\n");
  }
  return pkg;
}

describe("where an installed toolsim keeps its state", () => {
  const home = "/home/ana";

  it("uses the user's data directory on each platform, XDG_DATA_HOME when absolute", () => {
    expect(userDataDirectory({ env: {}, platform: "linux", home })).toBe("/home/ana/.local/share/toolsim");
    expect(userDataDirectory({ env: { XDG_DATA_HOME: "/data" }, platform: "linux", home })).toBe(
      "/data/toolsim",
    );
    expect(userDataDirectory({ env: { XDG_DATA_HOME: "relative" }, platform: "linux", home })).toBe(
      "/home/ana/.local/share/toolsim",
    );
    expect(userDataDirectory({ env: {}, platform: "darwin", home })).toBe(
      "/home/ana/Library/Application Support/toolsim",
    );
    expect(userDataDirectory({ env: { LOCALAPPDATA: "/appdata" }, platform: "win32", home })).toBe(
      join("/appdata", "toolsim"),
    );
  });

  it("never inside an installed package; a checkout keeps its own state/; TOOLSIM_HOME wins everywhere", () => {
    const where = { env: {}, platform: "linux" as const, home };
    expect(
      stateDirectory({ kind: "global", bin: "/usr/bin/toolsim" }, where, "/usr/lib/node_modules/toolsim"),
    ).toBe("/home/ana/.local/share/toolsim");
    expect(stateDirectory({ kind: "npx" }, where, "/home/ana/.npm/_npx/1/node_modules/toolsim")).toBe(
      "/home/ana/.local/share/toolsim",
    );
    expect(stateDirectory({ kind: "checkout" }, where, "/src/toolsim")).toBe("/src/toolsim/state");
    const pinned = { ...where, env: { TOOLSIM_HOME: "/var/toolsim" } };
    expect(stateDirectory({ kind: "checkout" }, pinned, "/src/toolsim")).toBe("/var/toolsim");
    expect(stateDirectory({ kind: "npx" }, pinned, "/x/node_modules/toolsim")).toBe("/var/toolsim");
  });

  it("tells a checkout, npx's cache, a global install and a dependency apart", () => {
    const root = scratch();
    const global = layout(root, ["prefix", "lib", "node_modules", "toolsim"], ["prefix/bin/toolsim"]);
    const npx = layout(root, [".npm", "_npx", "3f2a", "node_modules", "toolsim"]);
    const dependency = layout(root, ["project", "node_modules", "toolsim"]);
    expect(installationOf(join(root, "src", "toolsim"), "linux")).toEqual({ kind: "checkout" });
    expect(installationOf(npx, "linux")).toEqual({ kind: "npx" });
    expect(installationOf(global, "linux")).toEqual({
      kind: "global",
      bin: join(root, "prefix/bin/toolsim"),
    });
    expect(installationOf(dependency, "linux")).toEqual({ kind: "dependency" });
    const windows = layout(root, ["npm", "node_modules", "toolsim"], ["npm/toolsim.cmd"]);
    expect(installationOf(windows, "win32")).toEqual({ kind: "global", bin: join(root, "npm/toolsim.cmd") });
  });

  it("prints a launch command that survives npx's cache and a change of Node", () => {
    const root = scratch();
    const bin = join(layout(root, ["bin"]), "toolsim");
    writeFileSync(bin, "");
    expect(launchCommand({ kind: "npx" })).toEqual({ command: "npx", args: ["-y", "toolsim"] });
    expect(launchCommand({ kind: "global", bin }, "/usr/bin")).toEqual({ command: bin, args: [] });
    expect(launchCommand({ kind: "global", bin }, `/usr/bin:${join(root, "bin")}`)).toEqual({
      command: "toolsim",
      args: [],
    });
    for (const kind of ["checkout", "dependency"] as const) {
      const launch = launchCommand({ kind });
      expect(launch).toEqual({ command: "node", args: [CLI_PATH] });
      expect(launch.command).not.toBe(process.execPath);
    }
  });
});

describe("a state file left inside an installed package", () => {
  /** A WAL-mode SQLite file whose last write is still only in its -wal file, as a killed server leaves it. */
  function legacyFile(dir: string): string {
    const file = join(dir, "pkg", "state", "toolsim.db");
    mkdirSync(join(file, ".."), { recursive: true });
    const script = `
      const Database = require("better-sqlite3");
      const db = new Database(${JSON.stringify(file)});
      db.pragma("journal_mode = WAL");
      db.pragma("wal_autocheckpoint = 0");
      db.exec("CREATE TABLE sessions (name TEXT)");
      db.prepare("INSERT INTO sessions VALUES (?)").run("kept");
      process.kill(process.pid, "SIGKILL");`;
    spawnSync(process.execPath, ["-e", script], { cwd: PACKAGE_ROOT });
    return file;
  }

  it("moves once, with its WAL, and says so; a checkout's state/ stays where it is", () => {
    const dir = scratch();
    const legacy = legacyFile(dir);
    expect(existsSync(`${legacy}-wal`)).toBe(true);
    const target = join(dir, "data", "toolsim", "toolsim.db");
    const lines: string[] = [];
    expect(moveLegacyDb({ kind: "checkout" }, legacy, target, (l) => lines.push(l))).toBe("none");
    expect(existsSync(legacy)).toBe(true);

    expect(moveLegacyDb({ kind: "npx" }, legacy, target, (l) => lines.push(l))).toBe("moved");
    expect([legacy, `${legacy}-wal`].filter((f) => existsSync(f))).toEqual([]);
    expect(lines.join("\n")).toContain(`moved the state file from ${legacy} to ${target}`);
    const moved = new Database(target, { readonly: true });
    expect(moved.prepare("SELECT name FROM sessions").all()).toEqual([{ name: "kept" }]);
    moved.close();
    expect(moveLegacyDb({ kind: "npx" }, legacy, target, (l) => lines.push(l))).toBe("none");
  });

  it("leaves an old file alone when the new place already has one, and says where it is", () => {
    const dir = scratch();
    const legacy = legacyFile(dir);
    const target = join(dir, "data", "toolsim.db");
    mkdirSync(join(dir, "data"));
    writeFileSync(target, "");
    const lines: string[] = [];
    expect(moveLegacyDb({ kind: "dependency" }, legacy, target, (l) => lines.push(l))).toBe("kept");
    expect(existsSync(legacy)).toBe(true);
    expect(readFileSync(target, "utf8")).toBe("");
    expect(lines[0]).toContain(`pass --db ${legacy}`);
  });
});

describe("the state file a command opens", () => {
  it("is --db, then TOOLSIM_DB, made absolute; :memory: stays a database in memory, not a file", () => {
    const log = () => {};
    expect(resolveDbFile("state.db", log, {})).toBe(join(process.cwd(), "state.db"));
    expect(resolveDbFile(undefined, log, { TOOLSIM_DB: " other.db " })).toBe(join(process.cwd(), "other.db"));
    expect(resolveDbFile(":memory:", log, {})).toBe(":memory:");
    expect(resolveDbFile(undefined, log, { TOOLSIM_DB: ":memory:" })).toBe(":memory:");
  });

  it("serve --db :memory: answers calls and leaves no file behind", async () => {
    const { client } = await connectStdio(["--db", ":memory:"]);
    try {
      const state = await client.callTool({ name: "sim_get_state", arguments: {} });
      expect(state.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(existsSync(join(process.cwd(), ":memory:"))).toBe(false);
  });
});
