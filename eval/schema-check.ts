import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";

/**
 * The evaluation's own JSON Schema validator (ajv, draft 2020-12, formats), as an MCP client
 * library would check a tool's result against its advertised output schema. Separate from
 * toolsim's validator on purpose: the evaluation judges toolsim's answers, it must not share
 * toolsim's idea of what is valid.
 */

// ajv-formats ships CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true });
addFormats(ajv);

const compiled = new Map<string, ValidateFunction | string>();

function validatorOf(schema: unknown): ValidateFunction | string {
  const key = JSON.stringify(schema);
  let entry = compiled.get(key);
  if (entry === undefined) {
    try {
      // servers declare draft-07 as often as 2020-12; the keywords tools use read the same in both
      const { $schema: _dialect, ...rest } = (schema ?? {}) as Record<string, unknown>;
      entry = ajv.compile(rest);
    } catch (error) {
      entry = `the schema does not compile: ${error instanceof Error ? error.message : String(error)}`;
    }
    compiled.set(key, entry);
  }
  return entry;
}

/** Why `value` does not fit `schema`, or undefined when it does. */
export function schemaViolation(schema: unknown, value: unknown): string | undefined {
  const validate = validatorOf(schema);
  if (typeof validate === "string") return validate;
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`)
    .join("; ");
}
