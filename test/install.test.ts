import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./support/index.js";

/**
 * The package as users get it: packed, installed globally into a prefix of its own, run
 * through the bin npm links, installed again over itself. Sessions must live outside the
 * package and survive the reinstall, and the package must ship what its README links to.
 */

const ROOT = join(import.meta.dirname, "..");
const MINUTES = 60_000;
// Native modules build for minutes from source; the worktree's are built for this very Node.
const NATIVE = ["better-sqlite3/build/Release/better_sqlite3.node", "re2/build/Release/re2.node"];

const scratch = tempDir("toolsim-install-");
// a user other than root must be able to reach the installed package, as on a real system
chmodSync(scratch.path, 0o755);
const prefix = join(scratch.path, "prefix");
const home = join(scratch.path, "home");
const bin = join(prefix, "bin", "toolsim");
const pkg = join(prefix, "lib", "node_modules", "toolsim");
const dataDir = join(home, ".local", "share", "toolsim");
let tarball = "";
let packed: string[] = [];

/** A clean environment: Node on the PATH (not the prefix's bin), a home of its own, no toolsim settings. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, HOME: home, ...extra };
}

function npm(args: string[]): string {
  const run = spawnSync("npm", args, { cwd: ROOT, encoding: "utf8", timeout: 8 * MINUTES });
  if (run.status !== 0) throw new Error(`npm ${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

function install(): void {
  npm([
    "install",
    "-g",
    "--prefix",
    prefix,
    tarball,
    "--ignore-scripts",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
  ]);
  for (const file of NATIVE) {
    const into = join(pkg, "node_modules", file);
    mkdirSync(dirname(into), { recursive: true });
    copyFileSync(join(ROOT, "node_modules", file), into);
  }
}

async function stdioSession(session: string, env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "install-test", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: bin,
      args: ["serve", "--stdio", "--session", session],
      env: userEnv(env),
      stderr: "ignore",
    }),
  );
  return client;
}

function callsOf(text: string): Array<{ tool: string }> {
  return (JSON.parse(text) as { calls: Array<{ tool: string }> }).calls;
}

/** Starts the installed bin over HTTP and returns what it printed once it is listening. */
async function banner(): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(bin, ["serve", "--http", "--port", "0"], { env: userEnv() });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner:\n${stdout}\n${stderr}`)), 30_000);
    child.stdout.on("data", () => {
      if (stdout.includes("Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${stdout}\n${stderr}`)));
  });
  await stop(child);
  return { stdout, stderr };
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill();
  });
}

beforeAll(() => {
  const [result] = JSON.parse(npm(["pack", "--json", "--pack-destination", scratch.path])) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = join(scratch.path, result?.filename ?? "");
  packed = (result?.files ?? []).map((f) => f.path);
  install();
}, 10 * MINUTES);

afterAll(() => scratch.cleanup());

describe("an installed toolsim", () => {
  it("ships what the README links to, and its license", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\((?!https?:|#)([^)#]+)\)/g)].map((m) => m[1] as string);
    expect(linked.length).toBeGreaterThan(5);
    for (const path of linked) expect(packed).toContain(path);
    expect(packed).toContain("LICENSE");
    expect(readFileSync(join(pkg, "LICENSE"), "utf8")).toMatch(/^MIT License/);
    expect(JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).license).toBe("MIT");
  });

  it(
    "keeps sessions in the user's data directory, moves an old state file out of the package once, and keeps both across a reinstall",
    async () => {
      // where versions before this one kept it: inside the package
      const legacy = join(pkg, "state", "toolsim.db");
      const old = await stdioSession("old", { TOOLSIM_DB: legacy });
      await old.callTool({ name: "get_order", arguments: { order_id: "ORD-1001" } });
      await old.close();
      expect(existsSync(legacy)).toBe(true);

      const first = await banner();
      const db = join(dataDir, "toolsim.db");
      expect(first.stderr).toContain(`moved the state file from ${legacy} to ${db}`);
      expect(first.stdout).toContain(`state     ${db}`);
      const entry = JSON.parse(
        first.stdout.slice(first.stdout.indexOf("{"), first.stdout.lastIndexOf("}") + 1),
      );
      // the prefix's bin is not on this PATH, so the entry names the bin npm linked, which finds Node itself
      expect(entry.mcpServers.toolsim).toEqual({ command: bin, args: ["serve", "--stdio"] });
      expect(first.stdout).not.toContain(process.execPath);
      expect(existsSync(legacy)).toBe(false);

      const keep = await stdioSession("keep");
      await keep.callTool({ name: "get_order", arguments: { order_id: "ORD-1002" } });
      await keep.close();

      install();
      expect(existsSync(join(pkg, "state"))).toBe(false);
      for (const [session, order] of [
        ["old", "ORD-1001"],
        ["keep", "ORD-1002"],
      ] as const) {
        const resumed = await stdioSession(session);
        const log = await resumed.readResource({ uri: "toolsim://session/calls" });
        const calls = callsOf((log.contents[0] as { text: string }).text) as Array<{
          tool: string;
          arguments: { order_id: string };
        }>;
        expect(calls.map((c) => [c.tool, c.arguments.order_id])).toEqual([["get_order", order]]);
        await resumed.close();
      }
    },
    5 * MINUTES,
  );

  it.skipIf(process.getuid?.() !== 0)(
    "answers initialize when a normal user runs a root-owned global install",
    async () => {
      const nobody = 65534;
      const ownHome = join(scratch.path, "nobody");
      mkdirSync(ownHome);
      chownSync(ownHome, nobody, nobody);
      const child = spawn(bin, ["serve", "--stdio"], {
        env: userEnv({ HOME: ownHome }),
        uid: nobody,
        gid: nobody,
      });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.stderr.on("data", (d: Buffer) => {
        err += d.toString();
      });
      const reply = (id: number) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no answer ${id}:\n${out}\n${err}`)), 20_000);
          const check = () => {
            for (const line of out.split("\n")) {
              if (!line.includes(`"id":${id}`)) continue;
              clearTimeout(timer);
              child.stdout.off("data", check);
              resolve(JSON.parse(line));
            }
          };
          child.stdout.on("data", check);
          child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${err}`)));
        });
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "nobody", version: "1" },
        },
      });
      const initialized = await reply(1);
      expect((initialized.result as { serverInfo: { name: string } }).serverInfo.name).toBe("toolsim");
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "get_order", arguments: { order_id: "ORD-1001" } },
      });
      const called = await reply(2);
      expect((called.result as { isError?: boolean }).isError).toBeFalsy();
      await stop(child);
      expect(existsSync(join(ownHome, ".local", "share", "toolsim", "toolsim.db"))).toBe(true);
    },
    MINUTES,
  );
});
