import type { StateDocument, Tool } from "../catalog/index.js";
import { DATA_RULE, dataBlock } from "../simulate/index.js";

/**
 * What the model is told: the effects language in brief, the tool, and a sample of the
 * state. Everything that comes from the catalog goes in as delimited data.
 */

const LANGUAGE = `Effects run in order against the session state (a JSON document: top-level collections of entities keyed by id, plus "runtime"). The first effect that fails answers the call with one of the tool's documented errors and nothing is applied.

Kinds (every effect is an object with "kind"):
- read: {"kind":"read","target":"orders/{order_id}","missing":"ORDER_NOT_FOUND","as":"order","output":"order","require":[guards]}
- list: {"kind":"list","target":"orders","where":{"customer_id":"{customer_id}","status":"{status}"},"filter":"<JSONata, $ is the entity>","limit":"{limit}","missing":"CODE","as":"orders","output":"orders"}
- create: {"kind":"create","target":"orders","id":{"prefix":"ORD-","width":4,"field":"order_id"},"set":{...},"exists":"CODE","as":"order","output":"order"}
- update: {"kind":"update","target":"orders/{order_id}","set":{...},"inc":{"total":"-{amount}"},"append":{"notes":"{note}"},"missing":"CODE","require":[...],"output":"order"}
- delete: {"kind":"delete","target":"carts/{cart_id}","missing":"CODE"}
- check: {"kind":"check","require":[{"expr":"origin != destination","error":"SAME_AIRPORT"}]} (no target; guards on the arguments and bindings)
- respond: {"kind":"respond","value":<template or expression>,"output":"total"} (absent output: an object value merges into the result, any other value is the whole result)
- let: {"kind":"let","as":"due","value":{"$expr":"..."}} (binds a computed value for later effects)
Every kind takes "when" (JSONata; runs only when truthy) and "each" (JSONata yielding an array; runs once per element with $item and $index).

Targets: "collection", "collection/{argument}", or deeper paths into an entity: "members/{member_id}/cards/{card_id}", "orders/{order_id}/items/0". A create into a path ending in a literal appends to an array there (or adds under a minted key in an object).

Values: strings are templates: "{argument}" (keeps its type; "{address.city}" reaches inside), "{$now}", "{$id}" (minted by the latest create), "{$order.total}" (a field of a binding), "{$runtime.user_id}", "{$item.sku}". An absent argument leaves the field out. Any value may instead be {"$expr":"<JSONata>"}.

Guards: {"field":"status","in":["pending"],"error":"CODE"}, also "notIn", "equals", "gte", "lte" (operands may be templates; dates compare by time); field is a dotted path ("items.0.status"). Or {"expr":"<JSONata>","error":"CODE"}: holds when truthy.

JSONata expressions: $ (and bare names) is the call's arguments ($args too); $runtime; bindings of earlier effects by their "as" name ($order); $item and $index inside each; $subject (what the effect reached) in guards and in an update's values; $now() and $millis() (the simulated clock); $entity("collection", key); $calc(text), $convert(value, from, to), $math(name, ...args). Wrap arrays you keep in [ ] ([$subject.items[sku != $args.sku]]) and sum over [ ] ($sum([$order.items.price])); test optional arguments with $exists(x). $random is not available.

Rules: every error code you use must be one of the tool's documented errors; every argument you name must be a property of its inputSchema; a binding must be made by an earlier effect; reads and writes should put the entity they concern in the result under the output schema's matching property; a documented "not found" error belongs to the read, update or delete of the entity the argument names; write the guards the description and the documented errors state, and nothing the tool does not say.`;

export const SYSTEM = `You write the effects of one tool of a simulated API, in toolsim's effects language, so that calls to it can be answered from the session state without a model.

${LANGUAGE}

Answer with a JSON object {"effects": [ ... ]}. ${DATA_RULE}`;

export interface ToolRequest {
  tool: Tool;
  sample: StateDocument;
}

/** The tool as the model needs it: its contract and nothing of its current effects. */
export function toolUser({ tool, sample }: ToolRequest): string {
  const contract = {
    name: tool.name,
    description: tool.description,
    ...(tool.usage ? { usage: tool.usage } : {}),
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    errors: tool.errors,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  };
  return [
    dataBlock("The tool", contract),
    dataBlock("A sample of the state (a few entities of each collection, with how many there are)", sample),
    "Write this tool's effects.",
  ].join("\n\n");
}

/** The repair turn: what was wrong with the answer, quoted back. */
export function repairUser(problems: readonly string[]): string {
  return [
    "These effects were checked (lint) and replayed against the state, and have problems:",
    ...problems.map((p) => `- ${p}`),
    'Answer again with the whole corrected {"effects": [ ... ]}.',
  ].join("\n");
}

/** The answer's shape; the effects themselves are checked against the format after. */
export const ANSWER_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { effects: { type: "array", items: { type: "object" } } },
  required: ["effects"],
};
