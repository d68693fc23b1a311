import type { Draft } from "./drafts.js";
import type { ToolFacts } from "./facts.js";
import type { Part, StateShape } from "./shape.js";
import { actionOf, describesOutcome, namesChangeOutcome, namesFailureOnly, TEXT_ANSWER } from "./words.js";

const CHANGES = new Set(["create", "update", "delete", "tree"]);

/**
 * Which properties of a tool's answer its effects ground (read from the state, echoed from
 * the arguments, or computed), and which are left to synthesis: a guess. A tool whose
 * every output property is grounded is inferred; one with guesses is only partly inferred,
 * whatever else its effects do.
 */

export interface Grounding {
  grounded: string[];
  guessed: string[];
}

export function groundingOf(facts: ToolFacts, shape: StateShape, drafts: readonly Draft[]): Grounding {
  // the failure's fields an answer's schema lists beside the success's are no answer's to guess
  const outputs = facts.outputs.filter((o) => !namesFailureOnly(o.name)).map((o) => o.name);
  const covered = new Set<string>();
  let whole = false;
  for (const draft of drafts) {
    const output = typeof draft.output === "string" ? draft.output : undefined;
    if (draft.kind === "respond") {
      if (output && output !== "" && output !== ".") covered.add(output.split(".")[0] as string);
      else {
        // the last reading of a fridge answers a reading's fields, not whatever the tool documents
        const inner = innerFields(shape, drafts, draft.value);
        if (inner) for (const field of inner) covered.add(field);
        else whole = true;
      }
      continue;
    }
    if (output === undefined) continue;
    if (output !== "" && output !== ".") {
      covered.add(output.split(".")[0] as string);
      continue;
    }
    // a new record holds what the create gives it and its id, not every field its siblings have
    if (draft.kind === "create") {
      const id = (draft.id as { field?: unknown } | undefined)?.field;
      if (typeof id === "string") covered.add(id);
    } else for (const field of fieldsAt(shape, String(draft.target ?? ""))) covered.add(field);
    // a record written and answered whole answers the fields the write gives it, new ones too
    if (draft.kind === "create" || draft.kind === "update")
      for (const field of Object.keys((draft.set as Record<string, unknown> | undefined) ?? {}))
        covered.add(field);
    if (outputs.length === 0) whole = true;
  }
  // a change the effects make answers its outcome flags true (`created`, `success`)
  if (actionOf(facts.tool) !== "read" && drafts.some((d) => CHANGES.has(String(d.kind))))
    for (const o of facts.outputs)
      if (o.type === "boolean" && namesChangeOutcome(o.name, facts.tool.name)) covered.add(o.name);
  // an output that reports how the call went is not the argument its name repeats, nor is the
  // one text a change answers (`content` of `write_file(path, content)`: its words are a guess)
  const toldInText =
    actionOf(facts.tool) !== "read" &&
    facts.outputs.length === 1 &&
    facts.outputs[0]?.type === "string" &&
    TEXT_ANSWER.test(facts.outputs[0].name);
  const echoes = toldInText
    ? []
    : facts.outputs.filter((o) => !describesOutcome(o.description)).map((o) => o.name);
  for (const param of facts.params) if (echoes.includes(param.name)) covered.add(param.name);
  if (outputs.length === 0) {
    // without an output schema the answer is what the effects read or did
    const answers = whole || covered.size > 0 || drafts.some((d) => d.kind !== "check" && d.kind !== "let");
    return answers ? { grounded: ["(answer)"], guessed: [] } : { grounded: [], guessed: ["(answer)"] };
  }
  return {
    grounded: outputs.filter((o) => covered.has(o) || whole),
    guessed: outputs.filter((o) => !covered.has(o) && !whole),
  };
}

/**
 * `$fridge.readings[-1]`: an answer that is one record of a list a bound record keeps holds
 * that list's fields, known from the state's shape.
 */
function innerFields(shape: StateShape, drafts: readonly Draft[], value: unknown): string[] | undefined {
  const expr = (value as { $expr?: unknown } | undefined)?.$expr;
  const said = typeof expr === "string" ? /^\$([A-Za-z_]\w*)\.([A-Za-z_]\w*)\[-?\d+\]$/.exec(expr) : null;
  if (!said) return undefined;
  const bound = drafts.find((d) => d.as === said[1] && typeof d.target === "string");
  if (!bound) return undefined;
  const fields = fieldsAt(shape, `${String(bound.target)}/${said[2]}`);
  return fields.length > 0 ? fields : undefined;
}

/**
 * The documented fields of an object a read answers from a record (a receipt's `late_fee`)
 * that no record of its kind holds and no tool of the API is given: the answer leaves them
 * out, so the tool is only partly inferred. `written` are the names the API's tools take.
 */
export function unheldFields(
  facts: ToolFacts,
  shape: StateShape,
  drafts: readonly Draft[],
  written: ReadonlySet<string>,
): string[] {
  const properties = facts.tool.outputSchema?.properties;
  if (!properties || typeof properties !== "object") return [];
  const unheld: string[] = [];
  for (const draft of drafts) {
    const output = typeof draft.output === "string" ? draft.output : "";
    if (draft.kind !== "read" || output === "" || output.includes(".")) continue;
    const documented = (properties as Record<string, { properties?: unknown }>)[output]?.properties;
    if (!documented || typeof documented !== "object") continue;
    const held = new Set(fieldsAt(shape, String(draft.target ?? "")));
    // a shape that tells nothing of the record leaves nothing to compare
    if (held.size === 0) continue;
    for (const name of Object.keys(documented))
      if (!held.has(name) && !written.has(name)) unheld.push(`${output}.${name}`);
  }
  return unheld;
}

/** The fields a merged answer gets from the part a target reaches. */
function fieldsAt(shape: StateShape, target: string): string[] {
  const wildcard = (target === "." ? [] : target.split("/")).map((s) =>
    /^\{.*\}$|^\[.*\]$/.test(s) ? "*" : s,
  );
  const part = shape.parts.find(
    (p) => same(p.path, wildcard) || (p.kind === "collection" && same([...p.path, "*"], wildcard)),
  );
  if (part) return fieldNames(part);
  // a record nested in a collection's records (`customers/{id}/loyalty`): the fields under it
  for (const collection of shape.parts) {
    if (collection.kind !== "collection") continue;
    const base = [...collection.path, "*"];
    if (wildcard.length <= base.length || !same(base, wildcard.slice(0, base.length))) continue;
    const prefix = `${wildcard.slice(base.length).join(".")}.`;
    const nested = [...collection.fields.keys()]
      .filter((f) => f.startsWith(prefix))
      .map((f) => f.slice(prefix.length))
      .filter((f) => !f.includes("."));
    if (nested.length > 0) return nested;
  }
  return [];
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i] || s === "*" || b[i] === "*");
}

function fieldNames(part: Part): string[] {
  if (part.kind === "record" || part.kind === "collection")
    return [...part.fields.keys()].filter((f) => !f.includes("."));
  return [];
}
