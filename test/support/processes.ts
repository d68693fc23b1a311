import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** The built CLI (npm test builds it first). */
export const CLI = resolve(import.meta.dirname, "../../dist/cli.js");
export const SHIPPED_TOOLSETS = resolve(import.meta.dirname, "../../toolsets");

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = "toolsim-test-"): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // a process just stopped (a browser's helpers) may still be writing into the folder: retry
  return {
    path,
    cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }),
  };
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `toolsim serve --http --port 0 ...args` and waits for the URL it prints. */
export async function startHttpServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const child = spawn(process.execPath, [CLI, "serve", "--http", "--port", "0", ...args], {
    env: { ...process.env, ...env },
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
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}\n${err}`)), 20_000);
    const check = () => {
      const match = /MCP URL\s+(http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}\n${err}`));
    });
  });
  return {
    url,
    process: child,
    stdout: () => out,
    stderr: () => err,
    stop: (signal = "SIGTERM") =>
      new Promise((resolveExit) => {
        // a process that already ended (by itself or by a signal) ends no more
        if (child.exitCode !== null || child.signalCode !== null) return resolveExit(child.exitCode);
        child.once("exit", (code) => resolveExit(code));
        child.kill(signal);
      }),
  };
}

/** An MCP client over Streamable HTTP, with optional extra headers (X-Toolsim-Session, Authorization). */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "toolsim-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** An MCP client that spawns `toolsim serve --stdio ...args`. */
export async function connectStdio(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, "serve", "--stdio", ...args],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const client = new Client({ name: "toolsim-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => err };
}

/** Runs the CLI to completion. */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd ? { cwd } : {}),
  });
  return outputOf(child);
}

/** What a child process printed, and how it ended, once it has. */
export function outputOf(
  child: ChildProcess,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("exit", (code) => done({ code, stdout, stderr }));
  });
}

/** The JSON of a tool result's first text block. */
export function textJson(result: { content?: unknown }): unknown {
  const content = result.content as Array<{ type: string; text?: string }> | undefined;
  const text = content?.find((c) => c.type === "text")?.text;
  if (text === undefined) throw new Error("result has no text content");
  return JSON.parse(text);
}

export interface CallMeta {
  session: string;
  seq: number;
  engine: string;
  stateVersion: number;
  fallback?: string;
}

/** The `toolsim/call` block of a tool result's _meta (fails the test when absent). */
export function callMeta(result: { _meta?: Record<string, unknown> }): CallMeta {
  const meta = result._meta?.["toolsim/call"];
  if (!meta || typeof meta !== "object") throw new Error("result has no toolsim/call metadata");
  return meta as CallMeta;
}
