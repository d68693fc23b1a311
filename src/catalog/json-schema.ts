import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import addFormatsImport from "ajv-formats";
import type { JsonSchema } from "./format.js";
import { patternMatcher } from "./patterns.js";

// ajv-formats ships CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/**
 * One ajv instance for the whole process. Schemas are compiled on first use and cached by
 * object identity, because compiling thousands of catalog schemas up front costs seconds.
 */
function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    allowUnionTypes: true,
    // errors carry the failing value and schema, which the findings quote back to the caller
    verbose: true,
    // catalogs come from many authors: an unknown keyword is documentation, not an error
    validateSchema: false,
    // catalog patterns run on RE2 (linear time) or not at all; see patterns.ts
    code: { regExp: catalogRegExp },
  });
  addFormats(ajv);
  return ajv;
}

/** ajv's hook for building a pattern's matcher (`code` names it in standalone code, which toolsim does not generate). */
const catalogRegExp: RegExpEngine = Object.assign((pattern: string) => patternMatcher(pattern), {
  code: "toolsim.patternMatcher",
});

const ajv = createAjv();
const compiled = new WeakMap<object, ValidateFunction>();

export type SchemaErrors = ErrorObject[];

/** Compiles (once) and returns the validator for a schema. Throws only for schemas the meta-check let through. */
export function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

/**
 * Checks that a value is itself a valid JSON Schema (draft 2020-12). Patterns are left to
 * patternNotes: the meta-schema would call every pattern outside JavaScript's Unicode
 * syntax invalid, where toolsim repairs what it can and reports the rest as unenforced.
 */
export function schemaProblems(schema: JsonSchema): string[] {
  let metaValid: boolean;
  try {
    metaValid = ajv.validateSchema(schema) as boolean;
  } catch (error) {
    // a stack overflow on a pathological schema is the schema's problem, not a crash
    return [`cannot be checked: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (metaValid) return [];
  return (ajv.errors ?? [])
    .filter((e) => !(e.keyword === "format" && (e.params as { format?: string }).format === "regex"))
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`);
}

/** Compiles a schema and reports the compile error as text instead of throwing. */
export function compileProblem(schema: JsonSchema): string | undefined {
  try {
    validatorFor(schema);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
