import type { Toolset } from "../catalog/index.js";
import type { Named, Workflow } from "./answers.js";

/**
 * The instructions of each generation stage. Every stage narrows the one before: a field
 * of work, a subdomain inside it, a workflow (one toolset), the tools that carry the
 * workflow out, and tasks a user could ask for with those tools.
 */

export const FIELDS_SYSTEM = `You design catalogs of realistic software APIs for testing AI agents. Propose broad fields of professional or everyday activity where people rely on software tools (for example healthcare, retail, logistics, personal finance). Each field needs a one-sentence description. Choose fields that differ from one another.`;

export function fieldsUser(count: number): string {
  return `Propose ${count} distinct fields. Answer with a JSON object {"fields": [{"name", "description"}]}.`;
}

export const SUBDOMAINS_SYSTEM = `You design catalogs of realistic software APIs. Given a field, propose narrower subdomains: concrete areas inside it that a single product or back-office system would serve (for example, inside retail: returns and refunds, loyalty programs, store inventory). Each needs a one-sentence description.`;

export function subdomainsUser(field: Named, count: number): string {
  return `Field: ${field.name} — ${field.description}\nPropose ${count} distinct subdomains. Answer with a JSON object {"subdomains": [{"name", "description"}]}.`;
}

export const WORKFLOWS_SYSTEM = `You design catalogs of realistic software APIs. Given a subdomain, propose workflows: a sequence of steps a user or an agent carries out end to end (look something up, check a condition, change a record, confirm). Each workflow becomes one toolset. Give each a short snake_case id (lowercase letters, digits, underscores), a human name and a one-sentence description of the workflow's steps.`;

export function workflowsUser(field: Named, subdomain: Named, count: number): string {
  return `Field: ${field.name}\nSubdomain: ${subdomain.name} — ${subdomain.description}\nPropose ${count} workflows. Answer with a JSON object {"toolsets": [{"id", "name", "description"}]}.`;
}

export const TOOLSET_SYSTEM = `You write the tools of one workflow as API definitions, and the sandbox data they work on.

Rules for the tools:
- Tools compose: what one tool produces (an id, a record, a status) is what another consumes. List both for every tool in "consumes" and "produces" (short noun phrases such as "order id" or "refund record").
- "name" is snake_case, verb first (get_order, list_orders, cancel_order).
- "inputSchema" and "outputSchema" are JSON Schema objects of type "object" with "properties", a "description" on every property, "required" where needed, and "additionalProperties": false on the input.
- "errors" documents what can go wrong: {"code": UPPER_SNAKE_CASE, "status": an HTTP status from 400 to 599, "message": text that may contain {argument} placeholders, "when": the condition in plain words}.
- "readOnly" is true for tools that only look things up.
- "effects" (optional) make a tool deterministic against the state. Read: {"kind": "read", "target": "collection/{id_argument}", "missing": "A_DOCUMENTED_ERROR_CODE", "output": "key in the result"}. Update: {"kind": "update", "target": "collection/{id_argument}", "missing": "...", "set": {"field": "{argument}"}, "output": "..."}. List: {"kind": "list", "target": "collection", "where": {"field": "{argument}"}, "output": "key"}. Every error code an effect names must be documented in "errors"; every {placeholder} must be an input property.

Rules for "state": an object of collections keyed by entity id, e.g. {"orders": {"ORD-1001": {"order_id": "ORD-1001", ...}}}, with a few entities per collection whose ids match the input schemas' patterns and whose fields match the output schemas. Add "runtime": {"now": an ISO 8601 timestamp}.`;

export function toolsetUser(
  field: Named,
  subdomain: Named,
  workflow: Workflow,
  tools: { min: number; max: number },
): string {
  return [
    `Field: ${field.name}`,
    `Subdomain: ${subdomain.name}`,
    `Workflow "${workflow.name}" (${workflow.id}): ${workflow.description}`,
    `Write between ${tools.min} and ${tools.max} tools for this workflow, and the sandbox state.`,
    `Answer with a JSON object {"state": {...}, "tools": [{"name", "description", "consumes", "produces", "inputSchema", "outputSchema", "errors", "readOnly", "effects"}]}.`,
  ].join("\n");
}

export const TASKS_SYSTEM = `You write test tasks for an AI agent that will use a given set of tools. A task is something a user asks for in their own words, that the tools can accomplish in a few calls.

For every task give:
- "id": lowercase letters, digits and dashes, unique;
- "description": the user's request, naming the concrete values the agent needs;
- "difficulty": "simple" (1-2 calls), "medium" (3-4) or "complex" (5 or more);
- "state": the complete initial state the task starts from (collections keyed by id, like the sandbox state you are shown), consistent with the description: every entity the task mentions exists with the right fields;
- "solution": the golden sequence of calls {"tool", "arguments"} that completes the task. Every call's arguments must be valid against that tool's inputSchema, and every call must succeed against the state as it is at that point (ids exist, guards hold);
- "checklist": short statements a reviewer can verify at the end (e.g. "Order ORD-1001 is cancelled").`;

export function tasksUser(toolset: Toolset, count: number): string {
  const tools = toolset.tools.map((t) => ({
    name: t.name,
    description: t.description,
    usage: t.usage,
    inputSchema: t.inputSchema,
    errors: t.errors.map((e) => ({ code: e.code, when: e.when })),
    effects: t.effects,
  }));
  return [
    `Toolset "${toolset.name ?? toolset.id}": ${toolset.description}`,
    `Tools:\n${JSON.stringify(tools, null, 1)}`,
    `Sandbox state:\n${JSON.stringify(toolset.state, null, 1)}`,
    `Write ${count} task(s). Answer with a JSON object {"tasks": [{"id", "description", "difficulty", "state", "solution", "checklist"}]}.`,
  ].join("\n\n");
}

/** The follow-up turn of a regeneration: what was wrong with the previous answer. */
export function problemsUser(problems: readonly string[]): string {
  const listed = problems.slice(0, 30).map((p) => `- ${p}`);
  if (problems.length > 30) listed.push(`- … and ${problems.length - 30} more`);
  return `Your answer has these problems:\n${listed.join("\n")}\nWrite the whole answer again with every problem fixed, as the same kind of JSON object.`;
}
