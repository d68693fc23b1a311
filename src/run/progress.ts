import { performance } from "node:perf_hooks";
import type { AttemptResult } from "./attempt.js";
import { attemptCost, type Price, type RunModels } from "./results.js";

export interface ProgressOptions {
  runId: string;
  total: number;
  models: RunModels;
  prices: ReadonlyMap<string, Price>;
  /** Where the line goes (stderr). */
  write: (text: string) => void;
  /** A terminal: the line is redrawn in place; otherwise a line every `intervalMs` and at the end. */
  tty: boolean;
  intervalMs?: number;
}

/**
 * The live progress line: attempts done, the pass rate so far, tokens, cost and the time
 * left at the pace so far. It keeps counters only, so a run of any length holds the same.
 */
export class ProgressLine {
  private done = 0;
  private passed = 0;
  private judged = 0;
  private errors = 0;
  private tokens = 0;
  private cost: number | undefined;
  private doneHere = 0;
  private readonly started = performance.now();
  private lastWritten = Number.NEGATIVE_INFINITY;
  private note = "";

  constructor(private readonly options: ProgressOptions) {
    // no prices, no cost figure: it would only say $0.00
    this.cost = options.prices.size > 0 ? 0 : undefined;
  }

  /** Attempts a resumed run already has. */
  count(result: AttemptResult, here = false): void {
    this.done++;
    if (here) this.doneHere++;
    if (result.outcome === "passed") this.passed++;
    if (result.outcome === "passed" || result.outcome === "failed") this.judged++;
    if (result.outcome === "error") {
      this.errors++;
      this.judged++;
    }
    for (const usage of Object.values(result.usage))
      this.tokens += usage.promptTokens + usage.completionTokens;
    const cost = attemptCost(result.usage, this.options.models, this.options.prices);
    this.cost = this.cost === undefined || cost === undefined ? undefined : this.cost + cost;
  }

  /** An attempt finished in this process: count it and show the line. */
  finished(result: AttemptResult): void {
    this.count(result, true);
    this.show();
  }

  /** A passing remark (a retry after 429), shown until the next attempt ends. */
  remark(text: string): void {
    this.note = text;
    this.show(true);
  }

  show(force = false): void {
    const now = performance.now();
    const interval = this.options.tty ? 100 : (this.options.intervalMs ?? 5_000);
    const last = this.done === this.options.total;
    if (!force && !last && now - this.lastWritten < interval) return;
    this.lastWritten = now;
    const line = this.line(now);
    this.options.write(this.options.tty ? `\r\u001b[2K${line}` : `${line}\n`);
    this.note = "";
  }

  /** Ends the line in place so what follows starts on a line of its own. */
  end(): void {
    if (this.options.tty && this.lastWritten > Number.NEGATIVE_INFINITY) this.options.write("\n");
  }

  line(now = performance.now()): string {
    const { total, runId } = this.options;
    const rate = this.judged ? `${((this.passed / this.judged) * 100).toFixed(1)}%` : "–";
    const elapsed = now - this.started;
    const left = total - this.done;
    const eta =
      this.doneHere > 0 && left > 0 ? duration((elapsed / this.doneHere) * left) : left > 0 ? "…" : "0s";
    const parts = [
      `${runId}`,
      `${this.done}/${total} attempts`,
      `pass ${rate} (${this.passed}/${this.judged})`,
      ...(this.errors ? [`${this.errors} error${this.errors === 1 ? "" : "s"}`] : []),
      `${compact(this.tokens)} tokens`,
      this.cost === undefined ? "cost ?" : `$${this.cost.toFixed(2)}`,
      `ETA ${eta}`,
      ...(this.note ? [this.note] : []),
    ];
    return parts.join("  ");
  }
}

function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(n);
}

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
