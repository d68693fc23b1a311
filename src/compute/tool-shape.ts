import { isPlainObject } from "../patch/index.js";
/** A JSON Schema, as plain data. */
export type JsonSchema = Record<string, unknown>;

/**
 * A tool as the recogniser needs it: a catalog's `Tool` is one. The room imports no other
 * room, so it names the shape rather than the catalog's type.
 */
export interface ToolDescription {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  errors: ReadonlyArray<{ code: string; message: string; when: string }>;
}

/**
 * What the recogniser reads of a tool: the words of its name and description, and its
 * parameters reduced to what decides a computation (kind of value, words, default).
 */

export type ValueKind = "number" | "integer" | "numbers" | "record" | "string" | "boolean" | "other";

export interface ParameterShape {
  name: string;
  /** The name as lower-case words: "initialVelocity" and "initial_velocity" → "initial velocity". */
  words: string;
  description: string;
  kind: ValueKind;
  required: boolean;
  default?: unknown;
}

export interface ToolShape {
  /** Name (and original title) as lower-case words. */
  name: string;
  /** Name words, then the description, lower case. */
  text: string;
  parameters: ParameterShape[];
}

export function shapeOf(tool: ToolDescription): ToolShape {
  const name = wordsOf(`${tool.title ?? ""} ${tool.name}`);
  const schema = tool.inputSchema;
  const properties = isPlainObject(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parameters = Object.entries(properties).map(([key, property]) =>
    parameterOf(key, isPlainObject(property) ? property : {}, required.has(key)),
  );
  return { name, text: `${name} ${tool.description.toLowerCase()}`, parameters };
}

function parameterOf(name: string, schema: JsonSchema, required: boolean): ParameterShape {
  const shape: ParameterShape = {
    name,
    words: wordsOf(name),
    description: typeof schema.description === "string" ? schema.description.toLowerCase() : "",
    kind: kindOf(schema),
    required,
  };
  if (schema.default !== undefined) shape.default = schema.default;
  return shape;
}

function kindOf(schema: JsonSchema): ValueKind {
  const type = typeOf(schema);
  if (type === "integer") return "integer";
  if (type === "number") return "number";
  if (type === "string") return "string";
  if (type === "boolean") return "boolean";
  if (type === "array") {
    const items = isPlainObject(schema.items) ? (schema.items as JsonSchema) : {};
    const itemType = typeOf(items);
    return itemType === "number" || itemType === "integer" || itemType === undefined ? "numbers" : "other";
  }
  if (type === "object") {
    const extra = schema.additionalProperties;
    const values = isPlainObject(extra) ? typeOf(extra as JsonSchema) : undefined;
    return !isPlainObject(schema.properties) &&
      (values === undefined || values === "number" || values === "integer")
      ? "record"
      : "other";
  }
  return "other";
}

function typeOf(schema: JsonSchema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  return undefined;
}

/** "calcVolume.cuboid" → "calc volume cuboid"; "math_roots.quadratic" → "math roots quadratic". */
export function wordsOf(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .toLowerCase();
}
