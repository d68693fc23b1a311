import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

/** Compiled layout: dist-bench/bench/*.js next to dist/cli.js of the package. */
export const PACKAGE_ROOT = resolve(import.meta.dirname, "../..");
export const CLI = resolve(PACKAGE_ROOT, "dist/cli.js");
export const NOOP_SERVER = resolve(import.meta.dirname, "noop-server.js");
export const CATALOG_LOAD = resolve(import.meta.dirname, "catalog-load.js");

const CLIENT_INFO = { name: "toolsim-bench", version: "1.0.0" };

export interface StdioConnection {
  client: Client;
  pid: number;
  stderr(): string;
  close(): Promise<void>;
}

/** Spawns `node ...args` and connects the SDK client over stdio (initialize included). */
export async function connectStdio(args: string[], nodeOptions: string[] = []): Promise<StdioConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeOptions, ...args],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`could not connect to node ${args.join(" ")}: ${String(error)}\n${err}`);
  }
  const pid = transport.pid;
  if (pid === null || pid === undefined) throw new Error(`no process id for node ${args.join(" ")}`);
  return { client, pid, stderr: () => err, close: () => client.close() };
}

export interface HttpProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** Spawns a server that prints "MCP URL <url>" on stdout and waits for that line. */
export async function startHttpProcess(args: string[]): Promise<HttpProcess> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no URL within 30 s from ${args.join(" ")}\n${out}\n${err}`)),
      30_000,
    );
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /MCP URL\s+(http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(" ")} exited with ${code}\n${out}\n${err}`));
    });
  });
  return { url, pid: child.pid ?? -1, stop: () => stopProcess(child) };
}

function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolveStop) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
    const killer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(killer);
      resolveStop();
    });
    child.kill("SIGTERM");
  });
}

export async function connectHttp(url: string): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** Peak resident set size of a live process in MiB (Linux VmHWM), or null elsewhere. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return match?.[1] ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/** Runs `node ...args` to completion and parses the JSON it prints. */
export function runNodeJson<T>(args: string[]): Promise<T> {
  return new Promise((resolveRun, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 2 ** 20 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`node ${args.join(" ")} failed: ${error.message}\n${stderr}`));
      else resolveRun(JSON.parse(stdout) as T);
    });
  });
}
