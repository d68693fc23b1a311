import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { Client } from "@modelcontextprotocol/client";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { connectStdio, tempDir } from "./processes.js";

// ajv-formats ships CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/** The catalogs of test/fixtures/domains: one small API per domain, written without effects. */
export const DOMAINS = resolve(import.meta.dirname, "../fixtures/domains");

/** What one tools/call answered, as a client of the tool sees it. */
export interface Answer {
  /** The call as made, for messages: `name {args}`. */
  call: string;
  /** The call's arguments. */
  args: Record<string, unknown>;
  isError: boolean;
  /** structuredContent when there is one, else the text parsed as JSON (or the text itself). */
  value: unknown;
  /** The documented error's code, for an isError result. */
  code?: string;
  /** `_meta["toolsim/call"].guessed`: the result's paths that were synthesized. */
  guessed?: string[];
  /** What the SDK client threw instead of answering (a result outside the tool's output schema). */
  thrown?: string;
}

/** A result that broke the output schema the tool advertises. */
export interface SchemaBreach {
  call: string;
  problem: string;
}

/**
 * One catalog served by `toolsim serve --stdio` (offline engine, effects inferred in memory as
 * serve does by default), driven by the real MCP client. Every result is checked against the
 * tool's advertised output schema by an ajv of the test's own; breaches are collected for a
 * test to assert on, so that one bad result does not hide the behaviour a test is about.
 */
export interface DomainSession {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<Answer>;
  /** Back to the catalog's initial state (the sim_reset control tool). */
  reset(): Promise<void>;
  breaches: SchemaBreach[];
  stderr(): string;
  close(): Promise<void>;
}

export async function openDomain(file: string): Promise<DomainSession> {
  const dir = tempDir("toolsim-domain-");
  const { client, stderr } = await connectStdio([
    "--toolsets",
    join(DOMAINS, file),
    "--db",
    join(dir.path, "toolsim.db"),
    "--engine",
    "offline",
  ]);
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  const { tools } = await client.listTools();
  for (const tool of tools) {
    if (tool.outputSchema) validators.set(tool.name, ajv.compile(tool.outputSchema));
  }
  const breaches: SchemaBreach[] = [];

  const call = (name: string, args: Record<string, unknown> = {}) =>
    callTool({ client, validators, breaches, errorsText: (v) => ajv.errorsText(v.errors) }, name, args);

  return {
    client,
    call,
    async reset() {
      const result = await client.callTool({ name: "sim_reset", arguments: {} });
      if (result.isError) throw new Error(`sim_reset failed: ${JSON.stringify(result.content)}`);
    },
    breaches,
    stderr,
    async close() {
      await client.close();
      dir.cleanup();
    },
  };
}

/**
 * A test file's domain session, opened once before its tests, reset to the catalog's initial
 * state before each and closed after them, by whichever `open` the module serves (stdio here,
 * in process under mutation runs). The value is the session, reachable once it is open.
 */
export function domainHooks(open: (file: string) => Promise<DomainSession>): (file: string) => DomainSession {
  return (file) => {
    let session: DomainSession | undefined;
    beforeAll(async () => {
      session = await open(file);
    });
    afterAll(async () => {
      await session?.close();
    });
    beforeEach(async () => {
      await session?.reset();
    });
    return new Proxy({} as DomainSession, {
      get(_, key: keyof DomainSession) {
        if (!session) throw new Error(`the ${file} session is used before it is open (use it inside a test)`);
        const value = session[key];
        return typeof value === "function" ? value.bind(session) : value;
      },
    });
  };
}

export const useDomain = domainHooks(openDomain);

/** What a call needs to be made and read: the client, the output validators, where breaches go. */
export interface Caller {
  client: Client;
  validators: ReadonlyMap<string, ValidateFunction>;
  breaches: SchemaBreach[];
  errorsText: (validate: ValidateFunction) => string;
}

/** One tools/call, as a client of the tool sees it; a result outside its output schema is a breach. */
export async function callTool(caller: Caller, name: string, args: Record<string, unknown>): Promise<Answer> {
  const { client, validators, breaches } = caller;
  const label = `${name} ${JSON.stringify(args)}`;
  let result: Awaited<ReturnType<Client["callTool"]>>;
  try {
    result = await client.callTool({ name, arguments: args });
  } catch (error) {
    const thrown = error instanceof Error ? error.message : String(error);
    breaches.push({ call: label, problem: `the SDK client threw: ${thrown}` });
    return { call: label, args, isError: false, value: undefined, thrown };
  }
  const isError = result.isError === true;
  const text = (result.content as Array<{ type: string; text?: string }> | undefined)?.find(
    (c) => c.type === "text",
  )?.text;
  const parsed = parseText(text);
  const value = result.structuredContent ?? parsed;
  const validate = validators.get(name);
  if (!isError && validate && !validate(result.structuredContent)) {
    breaches.push({ call: label, problem: caller.errorsText(validate) });
  }
  const meta = result._meta?.["toolsim/call"] as { guessed?: unknown } | undefined;
  const guessed = Array.isArray(meta?.guessed) ? meta.guessed.map(String) : undefined;
  const code = isError ? errorCodeOf(parsed) : undefined;
  return { call: label, args, isError, value, ...(code ? { code } : {}), ...(guessed ? { guessed } : {}) };
}

function parseText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function errorCodeOf(parsed: unknown): string | undefined {
  if (parsed === null || typeof parsed !== "object") return undefined;
  const error = (parsed as { error?: { code?: unknown } }).error;
  return typeof error?.code === "string" ? error.code : undefined;
}

/** The answer's value as an object (an empty one when it is not). */
export function fieldsOf(answer: Answer): Record<string, unknown> {
  const { value } = answer;
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * The paths of `_meta["toolsim/call"].guessed` that fall on fields the state or the arguments
 * hold: a guessed path equal to one of them or inside one, or the whole answer guessed.
 */
export function guessedAmong(answer: Answer, grounded: string[]): string[] {
  const guessed = answer.guessed ?? [];
  return guessed.filter(
    (path) => path === "(answer)" || grounded.some((field) => path === field || path.startsWith(`${field}.`)),
  );
}

/** Asserts the call succeeded (no isError, nothing thrown) and gives its fields. */
export function expectOk(answer: Answer): Record<string, unknown> {
  expect.soft(answer.thrown, `${answer.call} made the client throw`).toBeUndefined();
  expect
    .soft(answer.isError, `${answer.call} answered an error: ${JSON.stringify(answer.value)}`)
    .toBe(false);
  return fieldsOf(answer);
}

/** Asserts the call answered an isError result with this error code (or one matching the pattern). */
export function expectError(answer: Answer, code: string | RegExp): void {
  const said = `${answer.call} should answer ${code}, answered ${JSON.stringify(answer.value)}`;
  expect.soft(answer.isError, said).toBe(true);
  if (!answer.isError) return;
  if (typeof code === "string") expect.soft(answer.code, said).toBe(code);
  else expect.soft(answer.code, said).toMatch(code);
}

/** Asserts `_meta["toolsim/call"].guessed` is there and names none of these fields the state or arguments hold. */
export function expectGrounded(answer: Answer, fields: string[]): void {
  // an error or a throw is reported by the call's own assertion; it has no fields to ground
  if (answer.isError || answer.thrown) return;
  expect.soft(answer.guessed, `${answer.call}: _meta["toolsim/call"].guessed`).toBeDefined();
  expect
    .soft(guessedAmong(answer, fields), `${answer.call}: grounded fields reported as guessed`)
    .toEqual([]);
}

/**
 * Asserts the call succeeded and answered these fields with these values. Any other field it
 * answers must have a ground: a field the state holds for the record (`alsoHeld`, with its
 * value after the call, or a matcher), or a value the call gave. A field with neither is made
 * up, and so is a plain value other than the one expected: each of those must at least be
 * listed in `_meta["toolsim/call"].guessed`, or the answer passes a guess off as the state.
 */
export function expectRecord(
  answer: Answer,
  expected: Record<string, unknown>,
  alsoHeld: Record<string, unknown> = {},
): void {
  const fields = expectOk(answer);
  if (answer.isError || answer.thrown) return;
  expect.soft(fields, `${answer.call} answered ${JSON.stringify(fields)}`).toMatchObject(expected);
  const given = Object.values(answer.args);
  const madeUp: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (key in expected) {
      const want = expected[key];
      if (isPlainValue(want) && !isDeepStrictEqual(value, want)) madeUp.push(key);
      continue;
    }
    const said = `${answer.call}: field ${key} = ${JSON.stringify(value)} is held by neither the state nor the call`;
    if (key in alsoHeld) {
      expect.soft(value, said).toEqual(alsoHeld[key]);
      const held = alsoHeld[key];
      if (isPlainValue(held) && !isDeepStrictEqual(value, held)) madeUp.push(key);
    } else if (!given.some((arg) => isDeepStrictEqual(arg, value))) {
      expect.soft(false, said).toBe(true);
      madeUp.push(key);
    }
  }
  const guessed = answer.guessed ?? [];
  const unflagged = madeUp.filter(
    (key) => !guessed.some((path) => path === "(answer)" || path === key || path.startsWith(`${key}.`)),
  );
  expect.soft(unflagged, `${answer.call}: values not from the state, yet not listed as guessed`).toEqual([]);
}

function isPlainValue(value: unknown): value is string | number | boolean | null {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}
