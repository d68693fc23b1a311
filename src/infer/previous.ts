import type { Context } from "./context.js";
import type { Draft } from "./drafts.js";

/**
 * Answer fields that give a changed field's value from before the call: `previous_status`,
 * `old_volume`, `boxes_before`, beside the record as it is after. APIs that change a state
 * answer both so a caller sees the transition: EC2's StopInstances (`PreviousState` and
 * `CurrentState`), Stripe's events (`previous_attributes`), Kubernetes' scale answers with the
 * replicas asked for beside the status, Home Assistant's state changes (`old_state`, `new_state`).
 *
 * For each update whose change sets or moves such a field, the record is read (bound) before
 * the update and the answer field is that binding's value.
 */
export function previousValues(ctx: Context, drafts: readonly Draft[]): readonly Draft[] {
  const wanted = ctx.facts.outputs
    .map((output) => ({ output: output.name, field: fieldBefore(output.name) }))
    .filter((w): w is { output: string; field: string } => w.field !== undefined);
  if (wanted.length === 0) return drafts;
  const out: Draft[] = [];
  const answers: Draft[] = [];
  drafts.forEach((draft, index) => {
    const changed = draft.kind === "update" ? changedFields(draft) : new Set<string>();
    // `previous_gain` of a changed `master_gain`: the one changed field the name ends
    const fields = wanted
      .map((w) => {
        const ending = [...changed].filter((f) => f.endsWith(`_${w.field}`));
        return {
          ...w,
          field: changed.has(w.field) ? w.field : ending.length === 1 ? (ending[0] as string) : "",
        };
      })
      .filter((w) => w.field !== "" && !answers.some((a) => a.output === w.output));
    if (fields.length === 0 || typeof draft.target !== "string") {
      out.push(draft);
      return;
    }
    const before = `before_${index}`;
    out.push(
      {
        kind: "read",
        target: draft.target,
        as: before,
        ...(typeof draft.missing === "string" ? { missing: draft.missing } : {}),
      },
      draft,
    );
    for (const { output, field } of fields) {
      answers.push({ kind: "respond", output, value: { $expr: `$${before}.${quoted(field)}` } });
      ctx.notes.push(`answers ${output} as ${field} was before the change`);
    }
  });
  return [...out, ...answers];
}

/** `previous_status`, `old_status`, `from_location`, `status_before` → `status`. */
function fieldBefore(name: string): string | undefined {
  return (
    /^(?:previous|old|prev|former|from)_(.+)$/.exec(name)?.[1] ??
    /^(.+)_(?:before|was|previously)$/.exec(name)?.[1] ??
    /^(?:previous|old|prev|former)([A-Z].*)$/.exec(name)?.[1]?.replace(/^./, (c) => c.toLowerCase())
  );
}

function changedFields(draft: Draft): Set<string> {
  const keys = [draft.set, draft.inc, draft.append].flatMap((part) =>
    part && typeof part === "object" ? Object.keys(part) : [],
  );
  return new Set(keys);
}

/** A field as a JSONata path step: backquoted where it is not a plain name. */
function quoted(field: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(field) ? field : `\`${field}\``;
}
