import type { JsonSchema } from "../catalog/index.js";
import { isPlainObject, type Patch, toPointer } from "../patch/index.js";
import type { SimulationOutcome, SimulationRequest, Simulator } from "../simulate/index.js";
import type { UpstreamBinding } from "./bindings.js";
import { changeKindOf, editTarget, planChange } from "./changes.js";
import type { ArgumentIdentifier } from "./identifiers.js";
import { answerFromOverlay, dataOf, type Overlay, overlayOf, overlayPatch, simulatedAt } from "./overlay.js";

/** What the simulator needs to know about upstreams. */
export interface UpstreamLookup {
  binding(toolName: string): UpstreamBinding | undefined;
  /** The real current text of an edit's target, read through a passed-through reader; undefined if unknown. */
  readText(binding: UpstreamBinding, target: ArgumentIdentifier): Promise<string | undefined>;
}

/**
 * Wraps the session's simulator for upstream tools: the wrapped simulator still writes the
 * result, but the state change is the overlay's (records of what the write touched), and a
 * simulated read of something the session changed answers from the overlay.
 */
export class HybridSimulator implements Simulator {
  readonly name: string;
  readonly historyWanted?: number;
  private readonly inner: Simulator;
  private readonly upstreams: UpstreamLookup;

  constructor(inner: Simulator, upstreams: UpstreamLookup) {
    this.inner = inner;
    this.upstreams = upstreams;
    this.name = inner.name;
    this.historyWanted = inner.historyWanted;
  }

  async respond(request: SimulationRequest): Promise<SimulationOutcome> {
    const binding = this.upstreams.binding(request.tool.name);
    if (!binding) return this.inner.respond(request);
    const overlay = overlayOf(request.state, binding.upstream);
    const kind = changeKindOf(binding.original, request.tool.annotations, request.args);
    if (kind === "none") {
      const answer = answerFromOverlay(
        { original: binding.original, outputSchema: request.tool.outputSchema },
        request.args,
        overlay,
      );
      if (answer?.kind === "record")
        return { kind: "success", result: answer.result, patch: [], engine: "overlay" };
      if (answer?.kind === "missing") {
        return {
          kind: "failure",
          failure: { code: "NOT_FOUND", status: 404, message: answer.message },
          engine: "overlay",
        };
      }
      const inner = await this.inner.respond(withOverlay(request, overlay));
      return inner.kind === "success" ? { ...inner, patch: [] } : inner;
    }
    const target = editTarget(request.args);
    const base = target ? await this.currentText(binding, target, overlay) : undefined;
    const plan = planChange(kind, binding.original, request.args, overlay, base);
    if (plan.failure) return { kind: "failure", failure: plan.failure, engine: this.name };
    const inner = await this.inner.respond(withOverlay(request, overlay));
    if (inner.kind === "failure") return inner;
    const result = messageResult(request.tool.outputSchema, plan.message) ?? inner.result;
    return { ...inner, result, patch: overlayPatch(request.state, binding.upstream, plan.puts) };
  }

  private async currentText(
    binding: UpstreamBinding,
    target: ArgumentIdentifier,
    overlay: Overlay,
  ): Promise<string | undefined> {
    const touch = simulatedAt(overlay, target.key);
    if (touch && !touch.meta.aliasOf) {
      const content = dataOf(touch.record).content;
      return typeof content === "string" ? content : undefined;
    }
    const source = touch?.meta.aliasOf ? { ...target, key: touch.meta.aliasOf } : target;
    return this.upstreams.readText(binding, source);
  }
}

/**
 * The wrapped simulator sees the upstream's collections at the top level of the state too
 * (where the offline engine looks entities up by key), unless a catalog collection has the name.
 */
function withOverlay(request: SimulationRequest, overlay: Overlay): SimulationRequest {
  const additions: Patch = [];
  for (const [collection, records] of Object.entries(overlay)) {
    if (request.state.has(collection)) continue;
    const value = Object.fromEntries(Object.entries(records).map(([key, r]) => [key, dataOf(r)]));
    additions.push({ op: "add", path: toPointer([collection]), value });
  }
  if (additions.length === 0) return request;
  const applied = request.state.apply(additions);
  if (!applied.ok) throw new Error(`the overlay does not fit the state: ${applied.error}`);
  return { ...request, state: applied.state };
}

/** Tools whose result is one text field (`{"content": "..."}`) get the overlay's own account of the change. */
function messageResult(output: JsonSchema | undefined, message: string): Record<string, unknown> | undefined {
  const properties = isPlainObject(output?.properties) ? output.properties : undefined;
  if (!properties) return undefined;
  const names = Object.keys(properties);
  const only = names[0];
  if (names.length !== 1 || !only) return undefined;
  const schema = properties[only];
  return isPlainObject(schema) && schema.type === "string" ? { [only]: message } : undefined;
}
