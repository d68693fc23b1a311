import { REMOVE_VERBS, wordsOf } from "../infer/index.js";
import { isPlainObject } from "../patch/index.js";
import type { ToolFailure } from "../simulate/index.js";
import { applyEdits, editSummary, textEdits } from "../world/index.js";
import {
  type ArgumentIdentifier,
  collectionFor,
  isIdentifierArgument,
  itemKey,
  listIdentifiers,
  normalizeKey,
  scalarIdentifiers,
} from "./identifiers.js";
import { dataOf, META_KEY, type Overlay, type OverlayMeta, type RecordPut, simulatedAt } from "./overlay.js";
import { nameOnlyReads } from "./routes.js";

/**
 * What a simulated upstream write leaves in the overlay. Generic rules work from the
 * arguments alone (identifiers, lists of objects, source/destination pairs); one
 * per-argument rule (`edits`) needs the current content of the target.
 */

export type ChangeKind = "none" | "write" | "delete" | "move" | "copy";

const DELETE_VERBS = new Set(REMOVE_VERBS);
const MOVE_VERBS = new Set(["move", "rename", "mv"]);
const COPY_VERBS = new Set(["copy", "cp", "duplicate", "clone"]);
/** Arguments that steer a call rather than describe the thing it changes. */
const CONTROL_ARGUMENTS = new Set(["dryRun", "dry_run", "force", "overwrite", "recursive", "edits"]);

export function changeKindOf(
  original: string,
  annotations: { readOnlyHint?: boolean } | undefined,
  args: Record<string, unknown>,
): ChangeKind {
  const words = wordsOf(original);
  const verb = words[0] ?? "";
  // the name wins over a read-only annotation: the route distrusted it for the same reason
  if (DELETE_VERBS.has(verb)) return "delete";
  if (annotations?.readOnlyHint === true) return "none";
  if (movePair(args)) {
    if (MOVE_VERBS.has(verb)) return "move";
    if (COPY_VERBS.has(verb)) return "copy";
  }
  if (annotations?.readOnlyHint === undefined && nameOnlyReads(original, Object.keys(args)).reads)
    return "none";
  return "write";
}

/** A source and a destination: `source`/`destination`, `src`/`dest`, `from_path`/`to_path`, `old_name`/`new_name`. */
export function movePair(
  args: Record<string, unknown>,
): { from: ArgumentIdentifier; to: ArgumentIdentifier } | undefined {
  const scalars = scalarIdentifiers(args);
  const from = scalars.find((s) => /^(source|src|from|old)/i.test(s.argument));
  const to = scalars.find((s) => /^(destination|dest|dst|target|to|new)/i.test(s.argument));
  return from && to ? { from, to } : undefined;
}

export interface PlannedChange {
  puts: RecordPut[];
  /** What the call did, in words, for tools whose result is one line of text. */
  message: string;
  failure?: ToolFailure;
}

/** The target whose current content an `edits` call needs, if the call has edits. */
export function editTarget(args: Record<string, unknown>): ArgumentIdentifier | undefined {
  return textEdits(args.edits) ? scalarIdentifiers(args)[0] : undefined;
}

export function planChange(
  kind: ChangeKind,
  tool: string,
  args: Record<string, unknown>,
  overlay: Overlay,
  /** The current text of an edit's target (undefined: unknown). */
  base?: string,
): PlannedChange {
  const meta = (extra: Partial<OverlayMeta> = {}) => ({
    [META_KEY]: { origin: "simulated", tool, ...extra },
  });
  if (kind === "none") return { puts: [], message: `${tool}: nothing changed` };
  if (kind === "move" || kind === "copy") return planMove(kind, tool, args, overlay, meta);
  if (kind === "delete") return planDelete(tool, args, overlay, meta);

  const target = scalarIdentifiers(args)[0];
  if (target) {
    const existing = simulatedAt(overlay, target.key);
    const earlier =
      existing && !existing.meta.deleted && !existing.meta.aliasOf ? dataOf(existing.record) : {};
    if (existing?.meta.deleted && textEdits(args.edits)) {
      return failure(
        `${target.key} does not exist: this session deleted or moved it (simulated ${existing.meta.tool}).`,
      );
    }
    const payload = Object.fromEntries(
      Object.entries(args).filter(([name]) => !isIdentifierArgument(name) && !CONTROL_ARGUMENTS.has(name)),
    );
    const edits = textEdits(args.edits);
    let message = `${tool} applied to ${target.key} in simulation; the real system is unchanged.`;
    let opaque = false;
    if (edits) {
      const current = typeof earlier.content === "string" ? earlier.content : base;
      if (current === undefined) {
        opaque = true;
        message = `${tool} on ${target.key} simulated, but its current content is unknown, so the edited content is too.`;
      } else {
        const edited = applyEdits(current, edits);
        if (!edited.ok) return failure(edited.message);
        message = editSummary(target.key, edited.hunks);
        if (args.dryRun === true || args.dry_run === true) return { puts: [], message };
        payload.content = edited.text;
      }
    }
    const record = { ...earlier, ...payload, ...meta(opaque ? { opaque } : {}) };
    return {
      puts: [{ collection: existing?.collection ?? collectionFor(target), key: target.key, record }],
      message,
    };
  }
  const puts: RecordPut[] = [];
  for (const [argument, value] of Object.entries(args)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (!isPlainObject(item)) continue;
      const { key } = itemKey(item);
      const earlier = overlay[argument]?.[key];
      const kept = earlier && simulatedAt(overlay, key)?.meta.deleted !== true ? dataOf(earlier) : {};
      puts.push({ collection: argument, key, record: { ...kept, ...item, ...meta() } });
    }
  }
  for (const identifier of listIdentifiers(args)) {
    puts.push({ collection: collectionFor(identifier), key: identifier.key, record: meta({ opaque: true }) });
  }
  return { puts, message: `${tool} simulated (${puts.length} item(s)); the real system is unchanged.` };
}

function planDelete(
  tool: string,
  args: Record<string, unknown>,
  overlay: Overlay,
  meta: (extra?: Partial<OverlayMeta>) => Record<string, unknown>,
): PlannedChange {
  const puts: RecordPut[] = [];
  for (const identifier of [...scalarIdentifiers(args), ...listIdentifiers(args)]) {
    const at = simulatedAt(overlay, identifier.key)?.collection ?? collectionFor(identifier);
    puts.push({ collection: at, key: identifier.key, record: meta({ deleted: true }) });
  }
  const noun = wordsOf(tool).at(-1);
  for (const [argument, value] of Object.entries(args)) {
    if (!Array.isArray(value)) continue;
    for (const item of value) {
      if (!isPlainObject(item)) continue;
      const { key } = itemKey(item);
      // `delete_relations(relations)` removes the items; `delete_observations(deletions)` changes them
      const removes = argument.toLowerCase() === noun;
      puts.push({
        collection: argument,
        key,
        record: removes ? meta({ deleted: true }) : { ...item, ...meta({ opaque: true }) },
      });
    }
  }
  return { puts, message: `${tool} simulated (${puts.length} item(s)); the real system is unchanged.` };
}

function planMove(
  kind: "move" | "copy",
  tool: string,
  args: Record<string, unknown>,
  overlay: Overlay,
  meta: (extra?: Partial<OverlayMeta>) => Record<string, unknown>,
): PlannedChange {
  const pair = movePair(args);
  if (!pair) return { puts: [], message: `${tool}: nothing changed` };
  const source = simulatedAt(overlay, pair.from.key);
  if (source?.meta.deleted) {
    return failure(
      `${pair.from.key} does not exist: this session deleted or moved it (simulated ${source.meta.tool}).`,
    );
  }
  const destination = normalizeKey(pair.to.key);
  const moved = source
    ? { ...dataOf(source.record), ...meta(source.meta.aliasOf ? { aliasOf: source.meta.aliasOf } : {}) }
    : meta({ aliasOf: pair.from.key });
  const puts: RecordPut[] = [{ collection: collectionFor(pair.to), key: destination, record: moved }];
  if (kind === "move") {
    puts.push({
      collection: source?.collection ?? collectionFor(pair.from),
      key: pair.from.key,
      record: meta({ deleted: true, movedTo: destination }),
    });
  }
  const verb = kind === "move" ? "moved" : "copied";
  return {
    puts,
    message: `${pair.from.key} ${verb} to ${destination} in simulation; the real system is unchanged.`,
  };
}

function failure(message: string): PlannedChange {
  return { puts: [], message, failure: { code: "NOT_APPLICABLE", status: 400, message } };
}
