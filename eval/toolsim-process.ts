import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

/**
 * toolsim as a user runs it: the built CLI in a child process, driven over MCP by the real
 * SDK client. The evaluation measures what a user would get, not an in-process shortcut.
 */

/** The checkout: the first folder up from here with a package.json (eval/ in tests, dist-eval/eval/ when built). */
export const ROOT = rootOf(import.meta.dirname);
const CLI = join(ROOT, "dist/cli.js");

function rootOf(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, "package.json"))) return at;
    if (dirname(at) === at) return resolve(dir, "../..");
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[]): Promise<CliRun> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("exit", (code) => done({ code, stdout, stderr }));
  });
}

export interface Server {
  url: string;
  /** What the server printed on stderr so far (start-up notes). */
  log(): string;
  stop(): Promise<void>;
}

/** Starts `toolsim serve --http --port 0 ...args` and resolves once it prints its URL. */
export function startServer(args: readonly string[]): Promise<Server> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  return new Promise((ready, failed) => {
    const timer = setTimeout(() => failed(new Error(`toolsim serve did not start in 60 s:\n${err}`)), 60_000);
    const check = () => {
      const match = /MCP URL\s+(http:\/\/\S+)/.exec(out);
      if (!match?.[1]) return;
      clearTimeout(timer);
      ready({ url: match[1], log: () => err, stop: () => stop(child) });
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      failed(new Error(`toolsim serve exited with ${code}:\n${err}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
  });
}

/** One answer of toolsim to a tools/call, reduced to what the comparison needs. */
export interface Answer {
  isError: boolean;
  /** A documented error of the tool (not a rejected call). */
  documented: boolean;
  /** The result's text parsed as JSON when it is JSON, else the text. */
  value: unknown;
}

/** One MCP session (one simulation session with the catalog's starting state). */
export class Session {
  private constructor(private readonly client: Client) {}

  static async open(url: string): Promise<Session> {
    const client = new Client({ name: "toolsim-eval", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    return new Session(client);
  }

  async call(name: string, args: Record<string, unknown>): Promise<Answer> {
    const result = await this.client.callTool({ name, arguments: args });
    const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
    const text = content.find((c) => c.type === "text")?.text ?? "";
    const meta = (result._meta ?? {}) as Record<string, unknown>;
    return {
      isError: result.isError === true,
      documented: result.isError === true && meta["toolsim/error"] !== undefined,
      value: parseText(text),
    };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

function parseText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
