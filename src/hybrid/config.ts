import { readFileSync } from "node:fs";
import { isPlainObject } from "../patch/index.js";

/**
 * The upstream servers file: the `mcpServers` shape of claude_desktop_config.json, so an
 * existing config can be pointed at as it is. Each server may add `routes` (pass and
 * simulate lists of tool-name globs); other keys of the file are ignored.
 */

export interface RouteLists {
  pass: string[];
  simulate: string[];
}

interface UpstreamBase {
  /** The key in `mcpServers`; also the tool-name prefix (`fs.read_text_file`). */
  name: string;
  routes: RouteLists;
}

export interface StdioUpstream extends UpstreamBase {
  kind: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpUpstream extends UpstreamBase {
  kind: "http";
  url: string;
  headers: Record<string, string>;
}

export type UpstreamSpec = StdioUpstream | HttpUpstream;

export type ConfigResult = { ok: true; upstreams: UpstreamSpec[] } | { ok: false; problems: string[] };

const NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const SERVER_KEYS = new Set([
  "command",
  "args",
  "env",
  "cwd",
  "url",
  "headers",
  "type",
  "transport",
  "routes",
  "disabled",
]);

export function readUpstreamConfig(file: string): ConfigResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [`${file}: cannot read the upstream config: ${reason}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problems: [`${file}: not valid JSON: ${reason}`] };
  }
  return parseUpstreamConfig(json, file);
}

/** Checks the whole document and reports every problem at once, each naming the file and key. */
export function parseUpstreamConfig(json: unknown, file: string): ConfigResult {
  const problems: string[] = [];
  const at = (key: string, message: string) => problems.push(`${file}: ${key}: ${message}`);
  if (!isPlainObject(json) || !isPlainObject(json.mcpServers)) {
    return {
      ok: false,
      problems: [
        `${file}: mcpServers: expected an object mapping server names to {"command", "args"} or {"url"}, as in claude_desktop_config.json`,
      ],
    };
  }
  const upstreams: UpstreamSpec[] = [];
  for (const [name, raw] of Object.entries(json.mcpServers)) {
    const key = `mcpServers.${name}`;
    if (!NAME_PATTERN.test(name)) {
      at(key, "server names are 1-64 letters, digits, _ or - (the name prefixes its tools)");
      continue;
    }
    if (!isPlainObject(raw)) {
      at(key, 'expected an object with "command" (stdio) or "url" (Streamable HTTP)');
      continue;
    }
    if (raw.disabled === true) continue;
    for (const unknown of Object.keys(raw).filter((k) => !SERVER_KEYS.has(k))) {
      at(`${key}.${unknown}`, `unknown key; known: ${[...SERVER_KEYS].join(", ")}`);
    }
    const routes = routeLists(raw.routes, `${key}.routes`, at);
    const type = raw.type ?? raw.transport;
    if (
      type !== undefined &&
      !["stdio", "http", "streamable-http", "streamableHttp"].includes(String(type))
    ) {
      at(
        `${key}.type`,
        `"${String(type)}" is not supported; use "stdio" or "http" (Streamable HTTP; the old SSE transport is not supported)`,
      );
      continue;
    }
    if (raw.command === undefined && raw.url === undefined) {
      at(key, 'needs "command" (a program to start over stdio) or "url" (a Streamable HTTP endpoint)');
      continue;
    }
    if (raw.command !== undefined && raw.url !== undefined) at(key, 'has both "command" and "url"; keep one');
    if (raw.command !== undefined) {
      // every field of the entry is checked, so one run of serve shows every mistake
      const command = nonEmptyString(raw.command, `${key}.command`, "the program to start", at);
      const args = stringArray(raw.args, `${key}.args`, at);
      const env = stringMap(raw.env, `${key}.env`, at);
      const cwd = raw.cwd === undefined ? undefined : nonEmptyString(raw.cwd, `${key}.cwd`, "a folder", at);
      if (command === undefined) continue;
      upstreams.push({ kind: "stdio", name, command, args, env, ...(cwd ? { cwd } : {}), routes });
    } else {
      const url = nonEmptyString(raw.url, `${key}.url`, "an http(s) URL", at);
      const headers = stringMap(raw.headers, `${key}.headers`, at);
      if (url === undefined) continue;
      if (!/^https?:\/\//.test(url)) {
        at(`${key}.url`, `"${url}" is not an http(s) URL`);
        continue;
      }
      upstreams.push({ kind: "http", name, url, headers, routes });
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  if (upstreams.length === 0) return { ok: false, problems: [`${file}: mcpServers: no enabled server`] };
  return { ok: true, upstreams };
}

function routeLists(raw: unknown, key: string, at: (key: string, message: string) => void): RouteLists {
  if (raw === undefined) return { pass: [], simulate: [] };
  if (!isPlainObject(raw)) {
    at(key, 'expected {"pass": [globs], "simulate": [globs]}');
    return { pass: [], simulate: [] };
  }
  for (const unknown of Object.keys(raw).filter((k) => k !== "pass" && k !== "simulate")) {
    at(`${key}.${unknown}`, 'unknown key; known: "pass", "simulate"');
  }
  return {
    pass: stringArray(raw.pass, `${key}.pass`, at),
    simulate: stringArray(raw.simulate, `${key}.simulate`, at),
  };
}

function nonEmptyString(
  raw: unknown,
  key: string,
  what: string,
  at: (key: string, message: string) => void,
): string | undefined {
  if (typeof raw === "string" && raw.trim() !== "") return raw;
  at(key, `expected ${what} as a non-empty string; got ${shown(raw)}`);
  return undefined;
}

function stringArray(raw: unknown, key: string, at: (key: string, message: string) => void): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    at(key, `expected an array of strings; got ${shown(raw)}`);
    return [];
  }
  const bad = raw.findIndex((v) => typeof v !== "string");
  if (bad === -1) return raw;
  at(`${key}[${bad}]`, `expected an array of strings; got ${shown(raw[bad])} here`);
  return [];
}

function stringMap(
  raw: unknown,
  key: string,
  at: (key: string, message: string) => void,
): Record<string, string> {
  if (raw === undefined) return {};
  if (!isPlainObject(raw)) {
    at(key, `expected an object of string values; got ${shown(raw)}`);
    return {};
  }
  const bad = Object.entries(raw).find(([, v]) => typeof v !== "string");
  if (!bad) return raw as Record<string, string>;
  at(`${key}.${bad[0]}`, `expected an object of string values; got ${shown(bad[1])} here`);
  return {};
}

/** A value as a message shows it: its kind, and a short rendering. */
function shown(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array (${JSON.stringify(value).slice(0, 60)})`;
  if (typeof value === "string")
    return value === "" ? "an empty string" : `string ${JSON.stringify(value.slice(0, 60))}`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}
