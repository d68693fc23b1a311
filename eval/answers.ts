import { isObject, singular } from "./schema-values.js";
import { stemOfIdentifier, wordsOf } from "./tool-roles.js";

/**
 * Reading answers the way a client reads them: where an answer names an id, which object in
 * it is the entity, whether a value written earlier shows there. Pure functions over JSON,
 * with no knowledge of who answered.
 */

export type Id = string | number;

/** Field names an id may go by, for an identifier argument (`pet_id`, `names`) and the subjects of the thing. */
export function idFieldNames(idArg: string | undefined, subjects: readonly string[]): string[] {
  const names: string[] = [];
  if (idArg) {
    names.push(idArg);
    const one = singular(idArg);
    names.push(one);
    // entityName → name, petId → id: the field inside the entity drops the entity's own noun
    const words = wordsOf(one);
    if (words.length > 1) names.push(words.at(-1) as string);
  }
  names.push("id");
  for (const subject of subjects.slice(0, 3))
    for (const suffix of ["_id", "_name"]) names.push(`${subject}${suffix}`, camel(`${subject}${suffix}`));
  return [...new Set(names)];
}

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The objects of an answer a reader looks at for an entity: the root, its children, the first items of lists. */
export function objectsOf(value: unknown): Array<Record<string, unknown>> {
  return placedObjects(value).map(({ object }) => object);
}

/** The id an answer (or the arguments of a call) gives under one of `fields`, nearest the root first. */
export function idIn(value: unknown, fields: readonly string[]): Id | undefined {
  for (const field of fields)
    for (const object of objectsOf(value)) {
      const found = object[field];
      if (typeof found === "string" && found !== "") return found;
      if (typeof found === "number") return found;
    }
  return undefined;
}

export type Path = ReadonlyArray<string | number>;

/** The objects of an answer with where they are: the root, its children, the first items of lists. */
export function placedObjects(value: unknown): Array<{ object: Record<string, unknown>; path: Path }> {
  const out: Array<{ object: Record<string, unknown>; path: Path }> = [];
  const visit = (node: unknown, path: Path) => {
    if (path.length > 3) return;
    if (Array.isArray(node)) {
      node.slice(0, 3).forEach((item, i) => {
        visit(item, [...path, i]);
      });
      return;
    }
    if (!isObject(node)) return;
    out.push({ object: node, path });
    for (const [key, child] of Object.entries(node))
      if (isObject(child) || Array.isArray(child)) visit(child, [...path, key]);
  };
  visit(value, []);
  return out;
}

/**
 * The object of an answer that is the entity with this id, and where it is; else, for an
 * answer about one thing, its root (or its only child object: `{"pet": {...}}`).
 */
export function entityIn(
  value: unknown,
  id: Id,
  fields: readonly string[],
): { entity: Record<string, unknown>; path: Path } | undefined {
  const placed = placedObjects(value);
  const holder = placed.find(({ object }) => fields.some((f) => f in object && sameScalar(object[f], id)));
  if (holder) return { entity: holder.object, path: holder.path };
  if (!isObject(value)) return undefined;
  const children = Object.entries(value).filter(([, v]) => isObject(v));
  const lists = Object.values(value).filter(Array.isArray);
  if (children.length === 1 && lists.length === 0) {
    const [key, child] = children[0] as [string, Record<string, unknown>];
    return { entity: child, path: [key] };
  }
  return { entity: value, path: [] };
}

/** The properties a schema declares for the value at `path` (list items by `items`, `$ref`s into its `$defs`). */
export function declaredAt(schema: unknown, path: Path): Map<string, Record<string, unknown>> {
  const root = schema;
  const resolve = (node: unknown, depth = 0): Record<string, unknown> | undefined => {
    if (!isObject(node) || depth > 10) return undefined;
    if (typeof node.$ref === "string") {
      const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(node.$ref);
      const defs = match && isObject(root) ? root[match[1] as string] : undefined;
      return resolve(
        match && isObject(defs) ? defs[decodeURIComponent(match[2] as string)] : undefined,
        depth + 1,
      );
    }
    const branches = [node.anyOf, node.oneOf, node.allOf].find(Array.isArray) as unknown[] | undefined;
    if (!isObject(node.properties) && !isObject(node.items) && branches)
      for (const branch of branches) {
        const found = resolve(branch, depth + 1);
        if (found && (isObject(found.properties) || isObject(found.items))) return found;
      }
    return node;
  };
  let node = resolve(schema);
  for (const step of path) {
    if (!node) return new Map();
    node =
      typeof step === "number"
        ? resolve(node.items)
        : resolve(isObject(node.properties) ? node.properties[step] : undefined);
  }
  const properties = node && isObject(node.properties) ? node.properties : {};
  return new Map(Object.entries(properties).map(([key, value]) => [key, resolve(value) ?? {}]));
}

/** Does the answer mention this id anywhere (a key or a value), or, for a path, its last part? */
export function mentions(value: unknown, id: Id): boolean {
  const wanted = [String(id)];
  if (typeof id === "string" && id.includes("/")) wanted.push(id.split("/").filter(Boolean).at(-1) ?? id);
  const visit = (node: unknown): boolean => {
    if (typeof node === "string") return wanted.some((w) => textHas(node, w));
    if (typeof node === "number") return wanted.includes(String(node));
    if (Array.isArray(node)) return node.some(visit);
    if (isObject(node)) return Object.entries(node).some(([k, v]) => wanted.includes(k) || visit(v));
    return false;
  };
  return visit(value);
}

/** A whole word (or path part) of a text equals `word`: "[FILE] notes.txt" mentions notes.txt. */
function textHas(text: string, word: string): boolean {
  if (text === word) return true;
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s/"'\\[\\]:,])${escaped}($|[\\s/"'\\[\\]:,])`).test(text);
}

/** A written value shows in what was read: scalars loosely equal, objects by the fields written, lists by their items. */
export function shows(written: unknown, read: unknown): boolean {
  if (Array.isArray(written)) {
    if (!Array.isArray(read)) return false;
    return written.every((item) => read.some((other) => shows(item, other)));
  }
  if (isObject(written)) {
    if (!isObject(read)) return false;
    return Object.entries(written).every(([key, value]) => key in read && shows(value, read[key]));
  }
  if (typeof written === "string" && typeof read === "string" && written.length >= 8)
    return read.includes(written);
  return sameScalar(written, read);
}

/** Could a field declared with this schema hold this value at all (a text is not a list)? */
export function couldHold(schema: Record<string, unknown>, value: unknown): boolean {
  const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (types.length === 0) return true;
  const kind = Array.isArray(value)
    ? "array"
    : value === null
      ? "null"
      : typeof value === "number"
        ? Number.isInteger(value)
          ? "integer"
          : "number"
        : typeof value;
  return types.some(
    (t) => t === kind || (t === "number" && kind === "integer") || (t === "string" && kind === "number"),
  );
}

/** Equal scalars, a number and its decimal text alike, numbers within rounding noise. */
export function sameScalar(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number")
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (typeof a === "number" && typeof b === "string") return b.trim() !== "" && Number(b) === a;
  if (typeof a === "string" && typeof b === "number") return a.trim() !== "" && Number(a) === b;
  return false;
}

/** Every scalar value of a document (ids the world already had, before any call). */
export function scalarsOf(document: unknown, into: Set<string> = new Set()): Set<string> {
  const visit = (node: unknown) => {
    if (typeof node === "string" || typeof node === "number") into.add(String(node));
    else if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node))
      for (const [key, value] of Object.entries(node)) {
        into.add(key);
        visit(value);
      }
  };
  visit(document);
  return into;
}

/** Ids an answer names: `<noun>_id` / `<noun>Id` fields, with the noun they name. */
export function namedIds(value: unknown): Array<{ field: string; stem: string; id: Id }> {
  const out: Array<{ field: string; stem: string; id: Id }> = [];
  for (const object of objectsOf(value))
    for (const [field, found] of Object.entries(object)) {
      if (typeof found !== "string" && typeof found !== "number") continue;
      const words = wordsOf(field);
      if (words.at(-1) !== "id" || words.length < 2) continue;
      const stem = stemOfIdentifier(field);
      if (stem) out.push({ field, stem, id: found });
    }
  return out;
}
