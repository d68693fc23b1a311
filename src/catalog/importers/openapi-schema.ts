import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema } from "../format.js";
import type { ImportProblem } from "./result.js";
import { dropUnknownFormats, moveArrayEnums, type SchemaNote } from "./schema-repair.js";

/**
 * OpenAPI's schema dialect to JSON Schema 2020-12: `nullable`, `example`, boolean exclusive
 * bounds, and `#/components/schemas` references kept as references into the tool schema's
 * own `$defs` (recursive models stay exact). Also follows the document's `$ref`s to
 * parameters, bodies, responses and path items for the importer.
 */

const COMPONENT_SCHEMA = "#/components/schemas/";

/** Converts OpenAPI schema objects to JSON Schema 2020-12 and keeps the components they reference. */
export class SchemaConverter {
  private readonly components: Record<string, unknown>;
  private readonly converted = new Map<string, { schema: JsonSchema; uses: Set<string> }>();

  constructor(
    private readonly document: Record<string, unknown>,
    private readonly id: string,
    private readonly problems: ImportProblem[],
  ) {
    const components = isPlainObject(document.components) ? document.components : {};
    this.components = isPlainObject(components.schemas) ? components.schemas : {};
  }

  /** Follows `$ref`s to parameters, bodies, responses and path items (not schemas). */
  follow(value: unknown, depth = 0): unknown {
    if (!isPlainObject(value) || typeof value.$ref !== "string" || depth > 20) return value;
    return this.follow(this.pointer(value.$ref), depth + 1);
  }

  /** A schema with a components reference replaced by its target (for deciding shapes only). */
  resolveSchema(schema: Record<string, unknown>, depth = 0): Record<string, unknown> {
    if (typeof schema.$ref !== "string" || depth > 20) return schema;
    const target = this.pointer(schema.$ref);
    return isPlainObject(target) ? this.resolveSchema(target, depth + 1) : schema;
  }

  convert(
    schema: unknown,
    refs: Set<string>,
    where: string,
    report: (where: string, message: string) => void,
  ): JsonSchema {
    const notes: SchemaNote[] = [];
    const out = this.rewrite(structuredClone(schema), refs, notes);
    dropUnknownFormats(out, "", notes);
    moveArrayEnums(out, "", notes);
    for (const note of notes)
      report(`${where}${note.path && note.path !== "(root)" ? ` ${note.path}` : ""}`, note.message);
    return isPlainObject(out) ? out : {};
  }

  /** The `$defs` a set of referenced component names needs, following references between components. */
  definitions(refs: Set<string>): Record<string, JsonSchema> {
    const defs: Record<string, JsonSchema> = {};
    const queue = [...refs];
    while (queue.length > 0) {
      const name = queue.shift() as string;
      if (name in defs) continue;
      let entry = this.converted.get(name);
      if (!entry) {
        const uses = new Set<string>();
        const notes: SchemaNote[] = [];
        const raw = this.components[name];
        const schema = (
          isPlainObject(raw) ? this.rewrite(structuredClone(raw), uses, notes) : {}
        ) as JsonSchema;
        dropUnknownFormats(schema, "", notes);
        moveArrayEnums(schema, "", notes);
        for (const note of notes)
          this.problems.push({
            toolset: this.id,
            path: `components.schemas.${name}${note.path ? ` ${note.path}` : ""}`,
            message: note.message,
          });
        entry = { schema, uses };
        this.converted.set(name, entry);
      }
      defs[name] = structuredClone(entry.schema);
      for (const next of entry.uses) if (!(next in defs)) queue.push(next);
    }
    return defs;
  }

  private pointer(ref: string): unknown {
    if (!ref.startsWith("#/")) {
      this.problems.push({ toolset: this.id, path: ref, message: "external reference not resolved" });
      return undefined;
    }
    let current: unknown = this.document;
    for (const part of ref.slice(2).split("/")) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      current = isPlainObject(current) ? current[key] : undefined;
    }
    return current;
  }

  /** OpenAPI 3.0 dialect → 2020-12: nullable, example, boolean exclusive bounds, component refs. */
  private rewrite(value: unknown, refs: Set<string>, notes: SchemaNote[]): unknown {
    if (Array.isArray(value)) return value.map((v) => this.rewrite(v, refs, notes));
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") {
        if (child.startsWith(COMPONENT_SCHEMA)) {
          const name = decodeURIComponent(child.slice(COMPONENT_SCHEMA.length));
          if (!(name in this.components)) {
            notes.push({ path: "", message: `reference ${child} points nowhere; any value is accepted` });
            continue;
          }
          refs.add(name);
          out.$ref = `#/$defs/${encodePointer(name)}`;
        } else {
          const target = this.pointer(child);
          if (isPlainObject(target)) Object.assign(out, this.rewrite(structuredClone(target), refs, notes));
          else notes.push({ path: "", message: `reference ${child} not resolved; any value is accepted` });
        }
      } else if (key === "enum" || key === "const" || key === "default" || key === "examples")
        out[key] = child;
      else if (key === "example") out.examples = [child];
      else if (key === "nullable") continue;
      else if (
        key === "properties" ||
        key === "patternProperties" ||
        key === "$defs" ||
        key === "definitions"
      ) {
        out[key] = isPlainObject(child)
          ? Object.fromEntries(Object.entries(child).map(([k, v]) => [k, this.rewrite(v, refs, notes)]))
          : child;
      } else out[key] = this.rewrite(child, refs, notes);
    }
    if (value.nullable === true) makeNullable(out);
    for (const bound of ["Minimum", "Maximum"] as const) {
      const flag = out[`exclusive${bound}`];
      const limit = out[bound.toLowerCase()];
      if (typeof flag === "boolean") {
        if (flag && typeof limit === "number") {
          out[`exclusive${bound}`] = limit;
          delete out[bound.toLowerCase()];
        } else delete out[`exclusive${bound}`];
      }
    }
    return out;
  }
}

function makeNullable(schema: Record<string, unknown>): void {
  if (typeof schema.type === "string") schema.type = [schema.type, "null"];
  else if (Array.isArray(schema.type) && !schema.type.includes("null"))
    schema.type = [...schema.type, "null"];
  else if (schema.$ref) {
    schema.anyOf = [{ $ref: schema.$ref }, { type: "null" }];
    delete schema.$ref;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
}

function encodePointer(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
