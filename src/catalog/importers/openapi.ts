import { isPlainObject } from "../../patch/index.js";
import type { JsonSchema, Tool, ToolAnnotations, ToolError, Toolset } from "../format.js";
import { mcpToolName, NameRegistry, slugId } from "./names.js";
import { SchemaConverter } from "./openapi-schema.js";
import type { ImportProblem, ImportResult } from "./result.js";

/**
 * OpenAPI 3.0 and 3.1: each operation becomes a tool. Parameters and the request body make
 * the inputSchema, the first 2xx JSON response the outputSchema, documented 4xx responses
 * the errors. `#/components/schemas` references are kept as references into the tool
 * schema's own `$defs`, so recursive models stay exact.
 */
export interface OpenApiOptions {
  id?: string;
  field?: string;
  subdomain?: string;
}

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export async function importOpenApi(document: unknown, options: OpenApiOptions = {}): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  const title =
    isPlainObject(document) && isPlainObject(document.info) ? String(document.info.title ?? "") : "";
  const id = options.id ?? slugId(title || "openapi");
  if (
    !isPlainObject(document) ||
    typeof document.openapi !== "string" ||
    !/^3\.[01]\./.test(document.openapi)
  ) {
    const version = isPlainObject(document) ? (document.openapi ?? document.swagger) : undefined;
    problems.push({
      toolset: id,
      path: "openapi",
      message: `not an OpenAPI 3.0 or 3.1 document (version ${JSON.stringify(version)}); nothing imported`,
    });
    return { toolsets: [], problems };
  }
  for (const message of await specProblems(document))
    problems.push({ toolset: id, path: "(document)", message: `OpenAPI validation: ${message}` });

  const converter = new SchemaConverter(document, id, problems);
  const registry = new NameRegistry();
  const tools: Tool[] = [];
  const paths = isPlainObject(document.paths) ? document.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    const pathItem = converter.follow(item);
    if (!isPlainObject(pathItem)) continue;
    // document order, so the tools read in the order the author wrote the operations
    const methods = Object.keys(pathItem).filter((k): k is (typeof METHODS)[number] =>
      (METHODS as readonly string[]).includes(k),
    );
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isPlainObject(operation)) continue;
      tools.push(toolOf({ path, method, operation, pathItem, converter, registry, id, problems }));
    }
  }
  if (tools.length === 0) {
    problems.push({ toolset: id, path: "paths", message: "no operations; nothing imported" });
    return { toolsets: [], problems };
  }
  const info = isPlainObject(document.info) ? document.info : {};
  const description = String(info.description ?? "").trim() || title || id;
  const toolset: Toolset = {
    id,
    name: title || id,
    field: options.field ?? "Web APIs",
    subdomain: options.subdomain ?? (title || id),
    description,
    state: {},
    tools,
    tasks: [],
  };
  if (typeof info.version === "string") toolset.version = info.version;
  return { toolsets: [toolset], problems };
}

async function specProblems(document: Record<string, unknown>): Promise<string[]> {
  try {
    // loaded on first use: the parser and its dependencies would otherwise weigh on every toolsim start
    const { validate } = await import("@readme/openapi-parser");
    const result = await validate(structuredClone(document) as never, { resolve: { external: false } });
    if (result.valid) return [];
    return result.errors.map((e) => e.message.split("\n")[0] ?? e.message);
  } catch (error) {
    return [error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error)];
  }
}

interface OperationContext {
  path: string;
  method: (typeof METHODS)[number];
  operation: Record<string, unknown>;
  pathItem: Record<string, unknown>;
  converter: SchemaConverter;
  registry: NameRegistry;
  id: string;
  problems: ImportProblem[];
}

function toolOf(ctx: OperationContext): Tool {
  const { operation, method, path, converter } = ctx;
  const rawName =
    typeof operation.operationId === "string" && operation.operationId
      ? operation.operationId
      : `${method}_${path}`;
  const name = ctx.registry.claim(mcpToolName(rawName));
  const report = (where: string, message: string) =>
    ctx.problems.push({
      toolset: ctx.id,
      tool: name,
      path: `${method.toUpperCase()} ${path}${where}`,
      message,
    });
  const summary = typeof operation.summary === "string" ? operation.summary.trim() : "";
  const description = typeof operation.description === "string" ? operation.description.trim() : "";
  if (!summary && !description) report("", "no summary or description; the method and path stand in");

  const refs = new Set<string>();
  const inputSchema = inputOf(ctx, refs, report);
  const outputSchema = outputOf(ctx, refs, report);
  const defs = converter.definitions(refs);
  if (Object.keys(defs).length > 0) {
    inputSchema.$defs = defs;
    if (outputSchema) outputSchema.$defs = defs;
  }
  const tool: Tool = {
    name,
    description: description || summary || `${method.toUpperCase()} ${path}`,
    inputSchema,
    errors: errorsOf(ctx, report),
    effects: [],
    annotations: annotationsOf(method, summary),
  };
  if (rawName !== name) tool.title = rawName;
  else if (summary) tool.title = summary;
  if (outputSchema) tool.outputSchema = outputSchema;
  return tool;
}

function inputOf(ctx: OperationContext, refs: Set<string>, report: (where: string, message: string) => void) {
  const { converter } = ctx;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const byKey = new Map<string, Record<string, unknown>>();
  for (const list of [ctx.pathItem.parameters, ctx.operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = converter.follow(raw);
      if (!isPlainObject(parameter) || typeof parameter.name !== "string") continue;
      byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  for (const parameter of byKey.values()) {
    const name = parameter.name as string;
    const where = ` parameter ${name}`;
    if (name in properties) {
      report(
        where,
        `a ${String(parameter.in)} parameter shares the name of another parameter; the first is kept`,
      );
      continue;
    }
    const source = isPlainObject(parameter.schema) ? parameter.schema : firstMediaSchema(parameter.content);
    const schema = source ? converter.convert(source, refs, where, report) : {};
    if (!source) report(where, "no schema; any value is accepted");
    if (typeof parameter.description === "string" && parameter.description && !schema.description)
      schema.description = parameter.description;
    if (parameter.example !== undefined && schema.examples === undefined)
      schema.examples = [parameter.example];
    if (parameter.deprecated === true) schema.deprecated = true;
    properties[name] = schema;
    if (parameter.required === true || parameter.in === "path") required.push(name);
  }
  const body = converter.follow(ctx.operation.requestBody);
  if (isPlainObject(body)) addBody(body, { properties, required, refs, converter, report });
  const input: JsonSchema = { type: "object", properties };
  if (required.length > 0) input.required = required;
  input.additionalProperties = false;
  return input;
}

interface BodyTarget {
  properties: Record<string, JsonSchema>;
  required: string[];
  refs: Set<string>;
  converter: SchemaConverter;
  report: (where: string, message: string) => void;
}

/** An object body's fields become arguments next to the parameters; any other body is one `body` argument. */
function addBody(body: Record<string, unknown>, target: BodyTarget): void {
  const { properties, required, refs, converter, report } = target;
  const media = isPlainObject(body.content) ? Object.keys(body.content) : [];
  const source = firstMediaSchema(body.content);
  if (!source) {
    report(" requestBody", "no schema for the request body; left out");
    return;
  }
  if (media.length > 0 && !media.some((m) => m.includes("json")))
    report(" requestBody", `media type ${media[0]} is described as JSON arguments`);
  const resolved = converter.resolveSchema(source);
  const fields =
    isPlainObject(resolved) && isPlainObject(resolved.properties) ? resolved.properties : undefined;
  const plainObject =
    fields !== undefined && !("allOf" in resolved) && !("oneOf" in resolved) && !("anyOf" in resolved);
  const clash = fields ? Object.keys(fields).some((k) => k in properties) : false;
  if (plainObject && !clash && isPlainObject(resolved)) {
    for (const [key, value] of Object.entries(fields))
      properties[key] = converter.convert(value, refs, ` requestBody.${key}`, report);
    const inner = Array.isArray(resolved.required)
      ? resolved.required.filter((r) => typeof r === "string")
      : [];
    if (body.required === true || inner.length > 0) required.push(...inner);
    return;
  }
  if (clash)
    report(" requestBody", "body fields share names with parameters; the body is one `body` argument");
  properties.body = converter.convert(source, refs, " requestBody", report);
  if (typeof body.description === "string" && !properties.body.description)
    properties.body.description = body.description;
  if (body.required === true) required.push("body");
}

function outputOf(
  ctx: OperationContext,
  refs: Set<string>,
  report: (where: string, message: string) => void,
) {
  const responses = isPlainObject(ctx.operation.responses) ? ctx.operation.responses : {};
  const codes = Object.keys(responses)
    .filter((c) => /^2(\d\d|XX)$/i.test(c))
    .sort();
  const code = codes[0];
  if (!code) {
    report(" responses", "no 2xx response documented; no outputSchema");
    return undefined;
  }
  const response = ctx.converter.follow(responses[code]);
  const source = isPlainObject(response) ? firstMediaSchema(response.content) : undefined;
  if (!source) {
    report(` responses.${code}`, "the success response has no body schema; no outputSchema");
    return undefined;
  }
  const schema = ctx.converter.convert(source, refs, ` responses.${code}`, report);
  const resolved = ctx.converter.resolveSchema(source);
  const isObjectSchema =
    isPlainObject(resolved) && (resolved.type === "object" || isPlainObject(resolved.properties));
  if (isObjectSchema) return { ...schema, type: "object" } as JsonSchema;
  report(` responses.${code}`, "the response is not an object; it is described under `result`");
  return { type: "object", properties: { result: schema }, required: ["result"] } as JsonSchema;
}

const STATUS_CODES: Record<string, string> = {
  "400": "BAD_REQUEST",
  "401": "UNAUTHORIZED",
  "402": "PAYMENT_REQUIRED",
  "403": "FORBIDDEN",
  "404": "NOT_FOUND",
  "405": "METHOD_NOT_ALLOWED",
  "406": "NOT_ACCEPTABLE",
  "408": "REQUEST_TIMEOUT",
  "409": "CONFLICT",
  "410": "GONE",
  "412": "PRECONDITION_FAILED",
  "413": "PAYLOAD_TOO_LARGE",
  "415": "UNSUPPORTED_MEDIA_TYPE",
  "422": "UNPROCESSABLE_ENTITY",
  "429": "TOO_MANY_REQUESTS",
};

function errorsOf(ctx: OperationContext, report: (where: string, message: string) => void): ToolError[] {
  const responses = isPlainObject(ctx.operation.responses) ? ctx.operation.responses : {};
  const errors: ToolError[] = [];
  for (const [code, raw] of Object.entries(responses).sort()) {
    if (!/^4(\d\d|XX)$/i.test(code)) continue;
    const response = ctx.converter.follow(raw);
    const text =
      isPlainObject(response) && typeof response.description === "string" ? response.description.trim() : "";
    const status = /^\d+$/.test(code) ? Number(code) : 400;
    if (/XX/i.test(code)) report(` responses.${code}`, "a status range is documented as 400");
    const message = text || `The request failed with HTTP ${code}.`;
    errors.push({ code: STATUS_CODES[code] ?? `HTTP_${code.toUpperCase()}`, status, message, when: message });
  }
  return errors;
}

function annotationsOf(method: string, summary: string): ToolAnnotations {
  const annotations: ToolAnnotations = {};
  if (summary) annotations.title = summary;
  if (method === "get" || method === "head" || method === "options") annotations.readOnlyHint = true;
  else {
    annotations.readOnlyHint = false;
    annotations.destructiveHint = method === "delete";
    annotations.idempotentHint = method === "put" || method === "delete";
  }
  return annotations;
}

function firstMediaSchema(content: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(content)) return undefined;
  const entries = Object.entries(content);
  const json = entries.find(([type]) => type.includes("json")) ?? entries[0];
  const media = json?.[1];
  return isPlainObject(media) && isPlainObject(media.schema) ? media.schema : undefined;
}
