import { execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { CLAIMS, type FenceQuery } from "./doc-coverage.js";
import { CLI, outputOf } from "./processes.js";

/**
 * The fenced blocks of the project's pages (README.md and docs/*.md), for the tests that run
 * them as written. A block is found by the heading it sits under, its language ("" for a
 * block without one) and its place among the blocks that match; its text is the page's,
 * byte for byte.
 */

export type { FenceQuery } from "./doc-coverage.js";

export const ROOT = resolve(import.meta.dirname, "..", "..");

export interface Fence {
  /** The page, relative to the project: "README.md", "docs/llm.md". */
  doc: string;
  /** The fence's language ("" for plain output, diagrams and the like). */
  lang: string;
  /** The text of the nearest heading above it, without its #s. */
  heading: string;
  /** The lines between the fences, each ending in "\n". */
  code: string;
  /** The line of the opening fence (1-based). */
  line: number;
}

/** Every page whose blocks must run: the README and docs/*.md. */
export function docPages(): string[] {
  const docs = readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

export function readDoc(doc: string): string {
  return readFileSync(join(ROOT, doc), "utf8");
}

const parsed = new Map<string, Fence[]>();

/** The fenced blocks of a page, in order. */
export function fencesOf(doc: string): Fence[] {
  const known = parsed.get(doc);
  if (known) return known;
  const found: Fence[] = [];
  let heading = "";
  let open: { lang: string; lines: string[]; line: number } | undefined;
  readDoc(doc)
    .split("\n")
    .forEach((text, index) => {
      if (open) {
        if (text === "```") {
          found.push({ doc, lang: open.lang, heading, code: open.lines.join(""), line: open.line });
          open = undefined;
        } else open.lines.push(`${text}\n`);
      } else if (text.startsWith("```")) open = { lang: text.slice(3).trim(), lines: [], line: index + 1 };
      else if (/^#+ /.test(text)) heading = text.replace(/^#+ /, "");
    });
  if (open) throw new Error(`${doc}:${open.line}: a fence that is never closed`);
  parsed.set(doc, found);
  return found;
}

/** The blocks of a page a query names (every block when the query is empty). */
export function fencesWhere(doc: string, query: FenceQuery = {}): Fence[] {
  const matching = fencesOf(doc).filter(
    (f) =>
      (query.heading === undefined || f.heading === query.heading) &&
      (query.lang === undefined || f.lang === query.lang) &&
      (query.startsWith === undefined || f.code.startsWith(query.startsWith)),
  );
  return query.nth === undefined ? matching : matching.slice(query.nth, query.nth + 1);
}

/** The one block a query names (the first of several unless `nth` says which); a query that names none fails. */
export function fence(doc: string, query: FenceQuery): Fence {
  const [found] = fencesWhere(doc, { nth: 0, ...query });
  if (!found) throw new Error(`${doc} has no block where ${JSON.stringify(query)}`);
  return found;
}

/** A block's lines that are not blank. */
export function linesOf(f: Fence): string[] {
  return f.code.split("\n").filter((line) => line.trim() !== "");
}

/** A command line without its trailing comment ("" for a line that is only a comment). */
export function commandOf(line: string): string {
  return line.startsWith("#") ? "" : line.replace(/\s+#\s.*$/, "").trim();
}

/** A block's command lines, without their comments. */
export function commandsOf(f: Fence): string[] {
  return linesOf(f)
    .map(commandOf)
    .filter((line) => line !== "");
}

/** Where a block is, for messages: `docs/llm.md:46 "toolsim serve …"`. */
export function where(f: Fence): string {
  return `${f.doc}:${f.line} ${JSON.stringify(linesOf(f)[0] ?? "")}`;
}

/**
 * A doc test's record of the blocks it ran. The blocks a test file claims are declared in
 * doc-coverage.ts (which the coverage test holds every page to); the test marks each block
 * (or each line it claims of a block) once it ran to completion, and its last test checks
 * that nothing it claims was left out.
 */
export class DocRun {
  private readonly done = new Set<string>();
  readonly test: string;

  /** `file` is the test file's own path (`import.meta.filename`). */
  constructor(file: string) {
    this.test = relative(ROOT, file);
  }

  /** Marks a block (or one of its command lines, without its comment) as run to completion. */
  ran(f: Fence, command?: string): void {
    this.done.add(key(f, command));
  }

  /** What this test file claims and has not marked as run, as `where` lines. */
  missing(): string[] {
    return CLAIMS.filter((claim) => claim.test === this.test).flatMap((claim) =>
      fencesWhere(claim.doc, claim.query).flatMap((f) => {
        if (this.done.has(key(f))) return [];
        // a whole block also counts as run when each of its command lines ran
        const lines = claim.lines ?? (commandsOf(f).length > 0 ? commandsOf(f) : [undefined]);
        return lines
          .filter((line) => !this.done.has(key(f, line)))
          .map((line) => (line ? `${where(f)} line ${JSON.stringify(line)}` : where(f)));
      }),
    );
  }
}

function key(f: Fence, line?: string): string {
  return `${f.doc}:${f.line}${line === undefined ? "" : `:${line}`}`;
}

/** The result of a script run to its end. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a block's text with bash (-e, pipefail) to its end. */
export function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Ran> {
  return outputOf(spawn("bash", ["-e", "-o", "pipefail", "-c", script], { cwd, env }));
}

/** A folder holding a `toolsim` that runs the built CLI, as an installed toolsim is on a reader's PATH. */
export function toolsimBin(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "toolsim"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, "toolsim"), 0o755);
  return dir;
}

/**
 * A reader's shell: `toolsim` on the PATH, the state in `home`, and no model, database or
 * token configured unless `extra` sets one (the machine's own settings never leak in).
 */
export function readerEnv(bin: string, home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith("TOOLSIM_") || name.startsWith("OPENAI_") || name === "PGPASSWORD") delete env[name];
  }
  return { ...env, PATH: `${bin}:${process.env.PATH ?? ""}`, TOOLSIM_HOME: home, ...extra };
}

/** A command that serves until stopped, started from a block's text. */
export interface Serving {
  /** The MCP URL it printed. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Stops it (SIGTERM to its process group) and waits for it to end. */
  stop(): Promise<void>;
}

/**
 * Runs a serving command line with bash and waits until it prints its MCP URL. The line runs
 * as written; a caller that must not take the default port (3333, which another program may
 * hold) appends `--port 0` itself, where the reader would see the difference.
 */
export function startServing(
  line: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  waitMs = 30_000,
): Promise<Serving> {
  const child = spawn("bash", ["-c", line], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const ended = new Promise<void>((resolveEnd) => child.once("exit", () => resolveEnd()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // the group is gone already
      }
    }
    await ended;
  };
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${line} printed no MCP URL within ${waitMs} ms:\n${out}\n${err}`));
    }, waitMs);
    child.stdout.on("data", () => {
      const url = /MCP URL\s+(http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolveStart({ url, stdout: () => out, stderr: () => err, stop });
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${line} exited with ${code} before serving:\n${out}\n${err}`));
    });
  });
}

/** The line of a block that runs a command (the command alone, or with arguments); a block without it fails. */
export function lineOf(f: Fence, command: string): string {
  const line = linesOf(f).find((l) => l === command || l.startsWith(`${command} `));
  if (!line) throw new Error(`${f.doc}:${f.line} shows no ${command}`);
  return line;
}

/** A reader's shell in a checkout: the environment without anything of toolsim's or a model's configured. */
export function checkoutEnv(): NodeJS.ProcessEnv {
  const own: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(own))
    if (name.startsWith("TOOLSIM_") || name.startsWith("OPENAI_")) delete own[name];
  return own;
}

/**
 * A source checkout of the project in `dest`, as a reader who cloned it has one: the files git
 * knows (committed or not, none that .gitignore leaves out) and the dependencies (a link to
 * this checkout's node_modules, which `npm install` would have made). Its own dist/ and state/
 * are its own, so its `npm start` and `npm run build` leave this checkout's alone.
 */
export function checkout(dest: string): string {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  for (const file of listed.split("\0")) {
    // a file deleted in the working tree is still in git's index
    if (file === "" || !existsSync(join(ROOT, file))) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(dest, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(dest, "node_modules"));
  return dest;
}

/**
 * Whether an example a page shows fits what toolsim wrote: objects with the same keys (`{}`,
 * an elided `{…}`, fits any object), arrays whose every element fits one written, values of
 * the same kind; `role` and `type` are compared as written, other values are the example's own.
 */
export function fits(shown: unknown, actual: unknown, key = ""): boolean {
  if (shown === null) return actual === null;
  if (Array.isArray(shown)) {
    return Array.isArray(actual) && shown.every((item) => actual.some((other) => fits(item, other, key)));
  }
  if (typeof shown === "object") {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
    const keys = Object.keys(shown);
    if (keys.length === 0) return true;
    const sameKeys = JSON.stringify([...keys].sort()) === JSON.stringify(Object.keys(actual).sort());
    const child = (o: object, k: string) => (o as Record<string, unknown>)[k];
    return sameKeys && keys.every((k) => fits(child(shown, k), child(actual, k), k));
  }
  if (key === "role" || key === "type") return shown === actual;
  return typeof shown === typeof actual;
}

/**
 * A line of sample output as a pattern for lines of the same shape: its words as written, any
 * number where it has a number (with a k or M after it, a duration in s or ms, or a count in
 * parentheses or none), any run of spaces where it has one.
 */
export function shapeOf(line: string): RegExp {
  const escaped = line.trim().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const numbers = escaped
    .replace(/\d+(\\\.\d+)? m?s(?![a-z])/g, "\\d+(\\.\\d+)? m?s")
    .replace(/ \\\(\d+\\\)/g, "( \\(\\d+\\))?")
    .replace(/\d+(\\\.\d+)?[kM]?/g, "\\d+(\\.\\d+)?[kM]?");
  return new RegExp(`^${numbers.replace(/\s+/g, "\\s+")}$`);
}

/** Whether some line of `text` has the shape of `line`. */
export function hasShape(text: string, line: string): boolean {
  const shape = shapeOf(line);
  return text.split("\n").some((printed) => shape.test(printed.trim()));
}
