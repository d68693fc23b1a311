import { type StateDocument, type Tool, validatorFor } from "../catalog/index.js";
import { type CallOutcome, clockOf, runEffects } from "../engine/index.js";
import { deepEqual, isPlainObject, readPointer } from "../patch/index.js";
import type { AuditCase } from "./audit-cases.js";

/** pass/fail were decided; "pending" still waits for the plausibility judge (new-input mode). */
export type CheckVerdict = "pass" | "fail" | "pending";

export interface CheckResult {
  verdict: CheckVerdict;
  reasons: string[];
}

/** What the call answered and what the state looked like around it. */
export interface ObservedCall {
  outcome: CallOutcome;
  before: StateDocument;
  after: StateDocument;
}

/** The automatic part of a case's check: everything that needs no judgement. */
export async function checkCase(
  tool: Tool,
  auditCase: AuditCase,
  observed: ObservedCall,
): Promise<CheckResult> {
  const { outcome } = observed;
  const expect = auditCase.expect;
  switch (expect.kind) {
    case "rejected": {
      if (outcome.status !== "rejected") {
        return fail(
          `the call was accepted (${outcome.status}) although ${auditCase.label}; expected a ${expect.code} rejection`,
        );
      }
      const codes = outcome.findings.filter((f) => f.severity === "error").map((f) => f.code);
      const matched = outcome.findings.some((f) => f.code === expect.code && f.argument === expect.argument);
      return matched
        ? pass()
        : fail(
            `rejected with ${codes.join(", ") || "no finding"} but not ${expect.code} on "${expect.argument}"`,
          );
    }
    case "documented-error": {
      if (outcome.status === "rejected") return fail(`rejected by validation: ${findingText(outcome)}`);
      if (outcome.status === "ok") {
        return fail(
          `answered with success; expected the documented error ${expect.code ?? "for a missing entity"}`,
        );
      }
      const code = outcome.failure?.code ?? "";
      if (expect.code)
        return code === expect.code ? pass() : fail(`answered ${code}; expected ${expect.code}`);
      return isDocumented(tool, code) ? pass() : fail(`answered ${code}, which the tool does not document`);
    }
    case "plausible": {
      if (outcome.status === "rejected")
        return fail(`schema-valid arguments were rejected: ${findingText(outcome)}`);
      const shape = answerShape(tool, outcome);
      return shape.length > 0 ? { verdict: "fail", reasons: shape } : { verdict: "pending", reasons: [] };
    }
    case "consistent":
      return checkAgainstState(tool, auditCase, observed);
  }
}

async function checkAgainstState(
  tool: Tool,
  auditCase: AuditCase,
  observed: ObservedCall,
): Promise<CheckResult> {
  const { outcome, before, after } = observed;
  if (outcome.status === "rejected")
    return fail(`arguments drawn from the state were rejected: ${findingText(outcome)}`);
  if (outcome.status === "error") {
    return fail(`answered ${outcome.failure?.code ?? "an error"} for ${auditCase.label}, which exists`);
  }
  const reasons = answerShape(tool, outcome);
  const expect = auditCase.expect;
  if (expect.kind !== "consistent") return { verdict: reasons.length ? "fail" : "pass", reasons };
  const result = isPlainObject(outcome.result) ? outcome.result : {};
  if (expect.collection && expect.key !== undefined && expect.show !== "none") {
    const entity =
      collection(after, expect.collection)[expect.key] ?? collection(before, expect.collection)[expect.key];
    if (isPlainObject(entity)) reasons.push(...entityInResult(entity, expect.key, result, expect.show));
  } else if (expect.collection && expect.show === "mention") {
    const keys = Object.keys(collection(before, expect.collection));
    const text = JSON.stringify(result);
    if (keys.length > 0 && !keys.some((k) => text.includes(JSON.stringify(k))))
      reasons.push(`the result shows none of the ${keys.length} ${expect.collection} in the state`);
  }
  reasons.push(...(await stateChange(tool, auditCase.args, before, after, outcome)));
  return { verdict: reasons.length ? "fail" : "pass", reasons };
}

/**
 * The result must name the entity's key; where it shows the entity itself (an object with
 * the entity's key field and no identifier the entity lacks), the scalar fields they share
 * must agree.
 */
function entityInResult(
  entity: Record<string, unknown>,
  key: string,
  result: unknown,
  show: "entity" | "mention",
): string[] {
  if (!JSON.stringify(result).includes(JSON.stringify(key))) return [`the result does not name ${key}`];
  const keyField = Object.keys(entity).find((f) => entity[f] === key);
  const itself = objectsIn(result).find(
    (o) =>
      (keyField ? o[keyField] === key : Object.values(o).includes(key)) &&
      Object.keys(o).every((f) => !isIdField(f) || f in entity),
  );
  if (!itself) return show === "entity" ? [`the result names ${key} but does not show its fields`] : [];
  return Object.entries(entity)
    .filter(([field, value]) => isScalar(value) && field in itself && !deepEqual(itself[field], value))
    .map(
      ([field, value]) =>
        `"${field}" is ${JSON.stringify(itself[field])} in the result but ${JSON.stringify(value)} in the state`,
    );
}

/** Writes must change the state as the declared effects say; read-only tools must change nothing. */
async function stateChange(
  tool: Tool,
  args: Record<string, unknown>,
  before: StateDocument,
  after: StateDocument,
  outcome: CallOutcome,
): Promise<string[]> {
  const effects = await runEffects(tool, args, before, clockOf(before));
  if (effects.status === "applied") {
    const reasons: string[] = [];
    for (const op of effects.patch) {
      if (op.op === "remove") {
        if (readPointer(after, op.path) !== undefined)
          reasons.push(`${op.path} should be gone after the call`);
      } else if (op.op === "add" || op.op === "replace") {
        const actual = readPointer(after, op.path);
        // minted ids and timestamps may differ in a simulated answer; that the value is there is what counts
        if (actual === undefined) reasons.push(`${op.path} should be set by the call`);
        else if (!isGenerated(op.value) && !deepEqual(actual, op.value))
          reasons.push(
            `${op.path} is ${JSON.stringify(actual)} after the call; the effects say ${JSON.stringify(op.value)}`,
          );
      }
    }
    return reasons;
  }
  const readOnly =
    tool.annotations?.readOnlyHint === true ||
    (tool.effects.length > 0 && tool.effects.every((e) => e.kind === "read" || e.kind === "list"));
  if (readOnly && outcome.versionAfter !== outcome.versionBefore && !sameCollections(before, after)) {
    return ["a read-only tool changed the state"];
  }
  return [];
}

function answerShape(tool: Tool, outcome: CallOutcome): string[] {
  if (outcome.status === "error") {
    const code = outcome.failure?.code ?? "";
    return isDocumented(tool, code) ? [] : [`answered the undocumented error ${code}`];
  }
  if (!tool.outputSchema) return [];
  const validate = validatorFor(tool.outputSchema);
  if (validate(outcome.result ?? {})) return [];
  const first = validate.errors?.[0];
  return [
    `the result does not fit the output schema (${first?.instancePath || "/"} ${first?.message ?? ""})`,
  ];
}

function isDocumented(tool: Tool, code: string): boolean {
  return tool.errors.some((e) => e.code === code);
}

function findingText(outcome: CallOutcome): string {
  return outcome.findings
    .filter((f) => f.severity === "error")
    .map((f) => `[${f.code}] ${f.message}`)
    .join(" ");
}

function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) for (const item of value) objectsIn(item, out);
  else if (isPlainObject(value)) {
    out.push(value);
    for (const item of Object.values(value)) objectsIn(item, out);
  }
  return out;
}

function collection(state: StateDocument, name: string): Record<string, unknown> {
  const value = state[name];
  return isPlainObject(value) ? value : {};
}

/** The simulated clock moves on every call; only the collections tell whether data changed. */
function sameCollections(before: StateDocument, after: StateDocument): boolean {
  const { runtime: _b, ...restBefore } = before;
  const { runtime: _a, ...restAfter } = after;
  return deepEqual(restBefore, restAfter);
}

function isIdField(field: string): boolean {
  return /(^|_)id$|Id$/.test(field);
}

function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}

function isGenerated(value: unknown): boolean {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T/.test(value);
}

function pass(): CheckResult {
  return { verdict: "pass", reasons: [] };
}

function fail(reason: string): CheckResult {
  return { verdict: "fail", reasons: [reason] };
}
