import { validatorFor } from "../catalog/index.js";
import { hashOf } from "../patch/index.js";

export type DecodeProblem = { kind: "invalid-json" | "schema" | "parse"; message: string };

/** Validators are cached by schema identity: one canonical object per distinct schema keeps that cache warm. */
const canonicalSchemas = new Map<string, Record<string, unknown>>();

function canonicalSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const key = hashOf(schema);
  let found = canonicalSchemas.get(key);
  if (!found) {
    found = schema;
    canonicalSchemas.set(key, schema);
  }
  return found;
}

/**
 * Turns a model's text into a checked value: JSON (tolerating a Markdown fence some local
 * models add), valid against the response schema, then through the caller's own parse.
 */
export function decodeAnswer<T>(
  text: string,
  schema: Record<string, unknown>,
  parse?: (value: unknown) => T,
): { ok: true; value: T } | { ok: false; problem: DecodeProblem } {
  let value: unknown;
  try {
    value = JSON.parse(unfence(text));
  } catch (error) {
    return {
      ok: false,
      problem: { kind: "invalid-json", message: `not valid JSON: ${(error as Error).message}` },
    };
  }
  const validate = validatorFor(canonicalSchema(schema));
  if (!validate(value)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`,
    );
    return {
      ok: false,
      problem: { kind: "schema", message: `does not match the response schema: ${problems.join("; ")}` },
    };
  }
  if (!parse) return { ok: true, value: value as T };
  try {
    return { ok: true, value: parse(value) };
  } catch (error) {
    return { ok: false, problem: { kind: "parse", message: (error as Error).message } };
  }
}

function unfence(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return fenced?.[1] ?? trimmed;
}
