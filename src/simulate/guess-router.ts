import type { Tool } from "../catalog/index.js";
import type { OfflineSimulator } from "./offline.js";
import type { SimulationOutcome, SimulationRequest, Simulator } from "./types.js";

/**
 * Rules first, a model for the rest: a tool whose effects ground its whole answer (authored,
 * or inferred completely) is answered by the offline engine, exactly and for free; a tool
 * whose answer the rules would partly or wholly guess is answered by the model. This is what
 * `--engine auto` does when a model is configured.
 */
export class GuessRouter implements Simulator {
  readonly name: string;
  readonly historyWanted?: number;

  constructor(
    private readonly model: Simulator,
    private readonly offline: OfflineSimulator,
  ) {
    this.name = model.name;
    this.historyWanted = model.historyWanted;
  }

  respond(request: SimulationRequest): Promise<SimulationOutcome> {
    if (grounded(request.tool)) return Promise.resolve(this.offline.respondNow(request));
    return this.model.respond(request);
  }
}

/** Effects cover the tool's answer: authored ones, or inferred ones that guess nothing. */
export function grounded(tool: Tool): boolean {
  if (tool.effects.length === 0) return false;
  if (!tool.inferred) return true;
  return tool.inferred.status === "inferred" && !Array.isArray(tool.inferred.guessed);
}
