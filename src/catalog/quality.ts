import type { Tool, Toolset } from "./format.js";
import { type CatalogProblem, formatPath } from "./problems.js";
import { conversionProblems } from "./schema-profile.js";

/**
 * Quality warnings: things that load and run but make tools hard for an agent to use well —
 * vague names or descriptions, undocumented parameters, allowed values written only in
 * prose, no output schema, documented errors nothing can produce, input schemas that lose
 * meaning when agent frameworks convert them (see schema-profile.ts).
 */
export function qualityProblems(file: string, toolset: Toolset): CatalogProblem[] {
  const problems: CatalogProblem[] = [];
  toolset.tools.forEach((tool, index) => {
    const warn = (path: PropertyKey[], message: string) =>
      problems.push({ file, path: formatPath(["tools", index, ...path]), message, severity: "warning" });
    checkNaming(tool, warn);
    checkParameters(tool, warn);
    if (!tool.outputSchema)
      warn([], `${tool.name} has no outputSchema: callers cannot know the shape of its answer`);
    checkErrors(tool, warn);
    for (const problem of conversionProblems(tool.inputSchema))
      warn(["inputSchema"], `${tool.name} does not survive conversion for agent frameworks: ${problem}`);
  });
  return problems;
}

type Warn = (path: PropertyKey[], message: string) => void;

/** Words that say nothing about what a tool does on their own. */
const VAGUE_WORDS = new Set([
  "do",
  "run",
  "process",
  "handle",
  "execute",
  "tool",
  "tools",
  "helper",
  "util",
  "utils",
  "manage",
  "manager",
  "action",
  "data",
  "misc",
  "function",
  "func",
  "api",
  "call",
  "main",
  "thing",
  "stuff",
  "general",
  "generic",
]);

function checkNaming(tool: Tool, warn: Warn): void {
  const words = tool.name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  if (words.length > 0 && words.every((w) => VAGUE_WORDS.has(w) || /^\d+$/.test(w)))
    warn(["name"], `the name "${tool.name}" does not say what the tool does; use a verb and an object`);
  const description = tool.description.trim();
  const descriptionWords = description.split(/\s+/).filter(Boolean);
  if (descriptionWords.length < 5 || description.toLowerCase() === (tool.title ?? tool.name).toLowerCase())
    warn(
      ["description"],
      `the description "${description}" is too short to tell an agent when to use the tool`,
    );
}

function checkParameters(tool: Tool, warn: Warn): void {
  const properties = tool.inputSchema.properties;
  if (!properties || typeof properties !== "object") return;
  for (const [name, raw] of Object.entries(properties as Record<string, unknown>)) {
    if (!raw || typeof raw !== "object") continue;
    const schema = raw as Record<string, unknown>;
    const description = typeof schema.description === "string" ? schema.description.trim() : "";
    if (!description && !schema.$ref) {
      warn(["inputSchema", "properties", name], `parameter "${name}" has no description`);
      continue;
    }
    if (schema.enum !== undefined || schema.const !== undefined || !isStringType(schema)) continue;
    const values = proseChoices(description);
    if (values)
      warn(
        ["inputSchema", "properties", name],
        `parameter "${name}" lists its allowed values only in prose; add "enum": ${JSON.stringify(values)}`,
      );
  }
}

function isStringType(schema: Record<string, unknown>): boolean {
  return schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string"));
}

const CHOICE_LEAD =
  /\b(?:one of|options(?: are)?|either|possible values(?: are)?|valid values(?: are)?|allowed values(?: are)?|must be|can be|accepts?)\b\s*:?\s*\[?([^.;()\]]+)/i;

/**
 * "Service wanted: one of grooming, checkup, vaccination" → ["grooming", "checkup", "vaccination"].
 * Only short, word-like lists count, so ordinary sentences are not mistaken for choices.
 */
export function proseChoices(description: string): string[] | undefined {
  const match =
    CHOICE_LEAD.exec(description) ??
    /\(options?:\s*([^)]+)\)/i.exec(description) ??
    // "Citation style: APA, MLA, or Chicago" and "Condition (equals, not_equals, contains)"
    /^[^:]{1,60}:\s*([^.;:()]+,[^.;:()]+\bor\b[^.;:()]+?)\.?$/i.exec(description) ??
    /\(([\w-]+(?:,\s*[\w-]+){2,})\)/.exec(description);
  const list = match?.[1];
  if (!list || !/,|\bor\b/.test(list)) return undefined;
  const values = list
    .split(/\s*,\s*|\s+or\s+|\s*\/\s*/)
    .map((v) =>
      v
        .replace(/^(either|and|or)\s+/i, "")
        .replace(/^['"`]+|['"`]+$/g, "")
        .trim(),
    )
    .filter(Boolean);
  const wordLike = values.every((v) => /^[\w-]+( [\w-]+)?$/.test(v) && v.length <= 30);
  if (values.length < 2 || values.length > 12 || !wordLike) return undefined;
  return [...new Set(values)];
}

/** With effects the tool is deterministic: a documented error no effect names can never be answered. */
function checkErrors(tool: Tool, warn: Warn): void {
  if (tool.effects.length === 0) return;
  const produced = new Set<string>();
  for (const effect of tool.effects) {
    if ("missing" in effect && effect.missing) produced.add(effect.missing);
    if ("exists" in effect && effect.exists) produced.add(effect.exists);
    if (effect.computeError) produced.add(effect.computeError);
    if ("require" in effect) for (const guard of effect.require) produced.add(guard.error);
  }
  // a refused computation answers the tool's only 400/422 error (see the effects engine)
  const clientErrors = tool.errors.filter((e) => e.status === 400 || e.status === 422);
  if (clientErrors.length === 1 && /\$(calc|convert|math)\s*\(/.test(JSON.stringify(tool.effects)))
    produced.add(clientErrors[0]?.code ?? "");
  tool.errors.forEach((error, i) => {
    if (!produced.has(error.code))
      warn(
        ["errors", i, "code"],
        `error ${error.code} is documented but no effect of ${tool.name} produces it`,
      );
  });
}
