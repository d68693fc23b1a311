import { type JsonSchema, validatorFor } from "../catalog/index.js";

/**
 * Fits a result onto an output schema, using a fully synthesized result as the source of
 * anything missing or unfit: known values (entities, echoed arguments) win where they
 * validate, synthesized ones fill the rest. Fields the schema forbids are dropped.
 */
export function conform(schema: JsonSchema, known: unknown, synthesized: unknown): unknown {
  if (known === undefined) return synthesized;
  if (isObjectSchema(schema) && isRecord(known)) return conformObject(schema, known, synthesized);
  if (schema.type === "array" && Array.isArray(known) && isRecord(schema.items)) {
    const items = schema.items as JsonSchema;
    const fallback = Array.isArray(synthesized) ? synthesized : [];
    const max = typeof schema.maxItems === "number" ? schema.maxItems : known.length;
    return known
      .slice(0, max)
      .map((item, i) => conform(items, item, fallback[i % Math.max(1, fallback.length)]));
  }
  return fits(schema, known) ? known : synthesized;
}

function conformObject(schema: JsonSchema, known: Record<string, unknown>, synthesized: unknown): unknown {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const base = isRecord(synthesized) ? synthesized : {};
  const out: Record<string, unknown> = {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    if (name in known) out[name] = conform(propertySchema, known[name], base[name]);
    else if (name in base) out[name] = base[name];
  }
  const extra = schema.additionalProperties;
  if (extra !== false && !schema.unevaluatedProperties) {
    for (const [name, value] of Object.entries(known)) {
      if (name in properties) continue;
      if (isRecord(extra) && !fits(extra as JsonSchema, value)) continue;
      out[name] = value;
    }
  }
  return out;
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
  return schema.type === "object" || (schema.type === undefined && isRecord(schema.properties));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
