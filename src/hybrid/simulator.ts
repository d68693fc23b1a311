import type { JsonSchema } from "../catalog/index.js";
import { isPlainObject, type Patch, toPointer } from "../patch/index.js";
import type { SimulationOutcome, SimulationRequest, Simulator } from "../simulate/index.js";
import type { UpstreamBinding } from "./bindings.js";
import { changeKindOf, editTarget, movePair, type PlannedChange, planChange } from "./changes.js";
import { fileOpOf, planFileChange } from "./files.js";
import { answerFromOverlay, dataOf, type Overlay, overlayOf, overlayPatch, simulatedAt } from "./overlay.js";
import type { Reality } from "./reality.js";
import { planRecordChange } from "./records.js";

/** What the simulator needs to know about upstreams. */
export interface UpstreamLookup {
  binding(toolName: string): UpstreamBinding | undefined;
  /** What the real server behind an upstream may be asked (through tools that pass through), for one call. */
  reality(upstream: string): Reality;
}

/**
 * Wraps the session's simulator for upstream tools: the wrapped simulator still writes the
 * result, but the state change is the overlay's (the file system view of world/, the
 * records of a store, or generic records of what the write touched), and a simulated read
 * of something the session changed answers from the overlay.
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
    if (kind === "none") return this.read(request, binding, overlay);
    const reality = this.upstreams.reality(binding.upstream);
    const plan = await this.plan(kind, binding, request, overlay, reality);
    if (plan.failure) return { kind: "failure", failure: plan.failure, engine: this.name };
    const inner = await this.inner.respond(withOverlay(request, overlay));
    if (inner.kind === "failure") return inner;
    const result = plan.result ?? messageResult(request.tool.outputSchema, plan.message) ?? inner.result;
    return { ...inner, result, patch: overlayPatch(request.state, binding.upstream, plan.puts) };
  }

  /**
   * What a simulated write leaves: a file-system operation for calls on absolute paths, a
   * change of records for calls that carry records, generic records otherwise.
   */
  private async plan(
    kind: "write" | "delete" | "move" | "copy",
    binding: UpstreamBinding,
    request: SimulationRequest,
    overlay: Overlay,
    reality: Reality,
  ): Promise<PlannedChange & { result?: Record<string, unknown> }> {
    const properties = request.tool.inputSchema.properties;
    const pair = movePair(request.args);
    const op = fileOpOf(
      kind,
      {
        original: binding.original,
        description: request.tool.description,
        parameters: isPlainObject(properties) ? Object.keys(properties) : [],
      },
      request.args,
      pair ? { from: pair.from.key, to: pair.to.key } : undefined,
    );
    // the wall clock: the real files around a simulated one carry real times
    if (op) return planFileChange(op, binding.original, overlay, reality, new Date().toISOString());
    if (kind === "write" || kind === "delete") {
      const records = await planRecordChange(
        { original: binding.original, outputSchema: request.tool.outputSchema },
        kind,
        request.args,
        overlay,
        reality,
      );
      if (records) return { message: "", ...records };
    }
    const target = editTarget(request.args);
    const base = target ? await this.currentText(target.key, overlay, reality) : undefined;
    return planChange(kind, binding.original, request.args, overlay, base);
  }

  private async read(
    request: SimulationRequest,
    binding: UpstreamBinding,
    overlay: Overlay,
  ): Promise<SimulationOutcome> {
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

  /** The current text of something an edit names that is not a path: the session's, or the real one. */
  private async currentText(key: string, overlay: Overlay, reality: Reality): Promise<string | undefined> {
    const touch = simulatedAt(overlay, key);
    if (touch && !touch.meta.aliasOf) {
      const content = dataOf(touch.record).content;
      return typeof content === "string" ? content : undefined;
    }
    return (await reality.read(touch?.meta.aliasOf ?? key)) ?? undefined;
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

/**
 * Tools whose result is one text field (`{"content": "..."}`) get the overlay's own account
 * of the change; tools that answer a success flag and a message get both.
 */
function messageResult(output: JsonSchema | undefined, message: string): Record<string, unknown> | undefined {
  const properties = isPlainObject(output?.properties) ? output.properties : undefined;
  if (!properties || message === "") return undefined;
  const names = Object.keys(properties);
  const only = names[0];
  if (names.length === 1 && only) {
    const schema = properties[only];
    return isPlainObject(schema) && schema.type === "string" ? { [only]: message } : undefined;
  }
  return undefined;
}
