import type { JsonSchema, Tool } from "../catalog/index.js";
import { canonicalJson, hashOf, type Patch } from "../patch/index.js";
import { conform } from "./conform.js";
import { type Action, actionOf, inferWrite, overlayEntities, referencedEntities, wordsOf } from "./infer.js";
import { seedFrom, synthesize } from "./synthesize.js";
import type { SimulationOutcome, SimulationRequest, Simulator } from "./types.js";

/** The result of a tool without an outputSchema: an open object, as most APIs return. */
const OPEN_OUTPUT: JsonSchema = {
  type: "object",
  properties: { success: { type: "boolean" }, message: { type: "string" } },
  required: ["success", "message"],
};

/**
 * The embedded default engine: no network, no model, same answer for the same call on the
 * same state. Declared effects decide what they cover; the rest of the result is
 * synthesized from the output schema, seeded by (session seed, tool, canonical arguments),
 * with the entities the arguments name laid over it.
 */
export class OfflineSimulator implements Simulator {
  readonly name = "offline";

  async respond(request: SimulationRequest): Promise<SimulationOutcome> {
    return this.respondNow(request);
  }

  /** Synchronous core, also used as the fallback of other simulators. */
  respondNow(request: SimulationRequest): SimulationOutcome {
    const { tool, args, effects } = request;
    if (effects.status === "failed") return { kind: "failure", failure: effects.failure, engine: this.name };
    if (effects.status === "applied" && effects.result !== undefined)
      return { kind: "success", result: effects.result, patch: [], engine: this.name };
    const schema = tool.outputSchema ?? OPEN_OUTPUT;
    // synthesis costs more than the rest of a call: it runs only when the known values leave a gap
    const synthesized = once(() => synthesizeFor(tool, schema, request));
    const known: Record<string, unknown> = echoArguments(schema, args);
    let patch: Patch = [];
    if (effects.status === "applied") {
      Object.assign(known, effects.output);
    } else {
      const action: Action = actionOf(tool);
      const refs = referencedEntities(args, request.state);
      overlayEntities(known, refs, schema);
      const write = inferWrite(
        tool,
        action,
        args,
        synthesized() as Record<string, unknown>,
        refs,
        request.state,
      );
      patch = write.patch;
      const target = refs[0];
      if (write.entity && target && action !== "create")
        overlayEntities(known, [{ ...target, entity: write.entity }], schema);
      if (action === "delete" || action === "update" || action === "create") markSuccess(known, schema);
    }
    const result = conform(schema, known, synthesized) as Record<string, unknown>;
    return { kind: "success", result, patch, engine: this.name };
  }
}

function once<T>(compute: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: compute() };
    return value.v;
  };
}

function synthesizeFor(tool: Tool, schema: JsonSchema, request: SimulationRequest): unknown {
  const seed = seedFrom(hashOf(request.seed, tool.name, canonicalJson(request.args)));
  return synthesize(schema, { seed, now: request.now, toolWords: wordsOf(tool.name), state: request.state });
}

/** Output properties named like an argument repeat the argument: a real API echoes what it was asked. */
function echoArguments(schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const echoed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) if (name in properties) echoed[name] = value;
  return echoed;
}

function markSuccess(known: Record<string, unknown>, schema: JsonSchema): void {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if ("success" in properties && known.success === undefined) known.success = true;
}
