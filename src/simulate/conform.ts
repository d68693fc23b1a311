import { type JsonSchema, validatorFor } from "../catalog/index.js";
import { isPlainObject } from "../patch/index.js";
import { cohere } from "./coherence.js";

/** A synthesized value for the same schema, computed only when something is missing or unfit. */
export type Fallback = () => unknown;

/**
 * Fits a result onto an output schema. Known values (entities, echoed arguments) win where
 * they validate; the fallback fills the rest. At the top level every property the schema
 * declares is filled, so a result reads like a complete answer; inside known objects (the
 * entities of the state) only required fields are filled, so a stored record is not padded
 * with invented details. Fields the schema forbids are dropped. The filled fields are made
 * coherent with the known ones (coherence.ts).
 */
export function conform(schema: JsonSchema, known: unknown, fallback: Fallback): unknown {
  return fitValue(schema, known, fallback, true, { path: "", guessed: [], root: schema });
}

/** conform, and the paths of the result that came from the fallback (synthesized: guessed) rather than known values. */
export function conformTracked(
  schema: JsonSchema,
  known: unknown,
  fallback: Fallback,
  options: { fillOptional?: boolean } = {},
): { value: unknown; guessed: string[] } {
  const track: Track = { path: "", guessed: [], root: schema };
  const value = fitValue(schema, known, fallback, options.fillOptional ?? true, track);
  return { value, guessed: track.guessed };
}

/** Where in the result a value is being fitted, and where synthesis filled in. */
interface Track {
  path: string;
  guessed: string[];
  /** The whole output schema, whose `$defs` the `$ref`s inside it name. */
  root: JsonSchema;
}

function at(track: Track, key: string | number): Track {
  return {
    path: track.path === "" ? String(key) : `${track.path}.${key}`,
    guessed: track.guessed,
    root: track.root,
  };
}

/** Resolved sub-schemas, made once per schema and root: validators are compiled per schema object. */
const resolvedOnce = new WeakMap<JsonSchema, WeakMap<JsonSchema, JsonSchema>>();

/**
 * A sub-schema as it validates on its own: a local `$ref` ("#/$defs/Pet") read as the schema
 * it names, and the root's `$defs` kept beside it for the refs inside.
 */
function resolved(schema: JsonSchema, root: JsonSchema): JsonSchema {
  if (schema === root || !isPlainObject(root.$defs)) return schema;
  let byRoot = resolvedOnce.get(schema);
  const known = byRoot?.get(root);
  if (known) return known;
  const ref = schema.$ref;
  const target =
    typeof ref === "string" && ref.startsWith("#/$defs/")
      ? root.$defs[ref.slice("#/$defs/".length)]
      : undefined;
  const { $ref: _ref, ...rest } = schema;
  const out: JsonSchema = isPlainObject(target)
    ? { ...rest, ...(target as JsonSchema), $defs: root.$defs }
    : { ...schema, $defs: root.$defs };
  if (!byRoot) {
    byRoot = new WeakMap();
    resolvedOnce.set(schema, byRoot);
  }
  byRoot.set(root, out);
  return out;
}

function guess(track: Track, fallback: Fallback): unknown {
  const value = fallback();
  if (value !== undefined) track.guessed.push(track.path === "" ? "(answer)" : track.path);
  return value;
}

function fitValue(
  given: JsonSchema,
  known: unknown,
  fallback: Fallback,
  top: boolean,
  track: Track,
): unknown {
  const schema = resolved(given, track.root);
  if (known === undefined) return guess(track, fallback);
  // a map where a list of names is wanted answers its keys (a folder's subfolders, by name)
  if (schema.type === "array" && isPlainObject(known) && namesFit(schema.items))
    return fitValue(schema, Object.keys(known), fallback, top, track);
  if (isObjectSchema(schema) && isPlainObject(known)) return fitObject(schema, known, fallback, top, track);
  if (schema.type === "array" && Array.isArray(known) && isPlainObject(schema.items)) {
    const items = schema.items as JsonSchema;
    const max = typeof schema.maxItems === "number" ? schema.maxItems : known.length;
    return known.slice(0, max).map((item, i) =>
      fitValue(
        items,
        item,
        () => {
          const synthesized = fallback();
          return Array.isArray(synthesized) && synthesized.length > 0
            ? synthesized[i % synthesized.length]
            : undefined;
        },
        false,
        at(track, i),
      ),
    );
  }
  return fits(schema, known) ? known : guess(track, fallback);
}

function namesFit(items: unknown): boolean {
  return (
    items === undefined || (isPlainObject(items) && (items.type === undefined || items.type === "string"))
  );
}

function fitObject(
  schema: JsonSchema,
  known: Record<string, unknown>,
  fallback: Fallback,
  top: boolean,
  track: Track,
): unknown {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const field =
    (name: string): Fallback =>
    () => {
      const synthesized = fallback();
      return isPlainObject(synthesized) ? synthesized[name] : undefined;
    };
  const out: Record<string, unknown> = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (name in known) out[name] = fitValue(propertySchema, known[name], field(name), false, at(track, name));
    else if (top || required.has(name)) {
      const value = guess(at(track, name), field(name));
      if (value !== undefined) out[name] = value;
    }
  }
  const extra = schema.additionalProperties;
  if (
    extra !== false &&
    !schema.unevaluatedProperties &&
    !narrowView(track.path === "", extra, properties, known)
  ) {
    for (const [name, value] of Object.entries(known)) {
      if (name in properties) continue;
      if (isPlainObject(extra) && !fits(extra as JsonSchema, value)) continue;
      out[name] = value;
    }
  }
  // synthesized fields agree with the known ones (an end after a known start), known ones never change
  cohere(out, properties, new Set(Object.keys(known)));
  return out;
}

/**
 * An answer documented as a few fields of the record it comes from (`{card_id}` of a new card,
 * `{vehicle_mileage}` of a vehicle read whole) is that view, not the record: the record's other fields
 * stay out. An answer that documents most of the record's fields is the record, and may hold
 * the rest, as JSON Schema lets an object without `additionalProperties` do.
 */
function narrowView(
  top: boolean,
  extra: unknown,
  properties: Record<string, JsonSchema>,
  known: Record<string, unknown>,
): boolean {
  if (!top || extra !== undefined) return false;
  const listed = Object.keys(properties);
  const fields = Object.keys(known);
  if (listed.length === 0 || fields.length === 0) return false;
  return fields.filter((name) => name in properties).length * 2 < fields.length;
}

function fits(schema: JsonSchema, value: unknown): boolean {
  if (typeof schema.$ref === "string") return false; // a bare sub-schema cannot resolve it; trust synthesis
  try {
    return validatorFor(schema)(value) === true;
  } catch {
    return false;
  }
}

function isObjectSchema(schema: JsonSchema): boolean {
  return schema.type === "object" || (schema.type === undefined && isPlainObject(schema.properties));
}
