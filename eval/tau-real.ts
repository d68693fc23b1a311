import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./toolsim-process.js";

/**
 * The true answers: golden actions replayed against a domain's real implementation by
 * eval/tau_replay.py (python3), one JSON line per action.
 */

const DRIVER = join(ROOT, "eval/tau_replay.py");

export interface RealChange {
  collection: string;
  key: string;
  /** Top-level fields of the entity the action changed (added, altered or removed). */
  fields: string[];
  after: Record<string, unknown>;
}

export interface RealCall {
  task: string;
  step: number;
  tool: string;
  arguments: Record<string, unknown>;
  error: boolean;
  answer: unknown;
  changed: RealChange[];
}

export async function replayReal(
  toolsDir: string,
  dbDir: string,
  taskFiles: readonly string[],
): Promise<RealCall[]> {
  const { code, stdout, stderr } = await run("python3", [DRIVER, toolsDir, dbDir, ...taskFiles]);
  if (code !== 0)
    throw new Error(`the real implementation could not be replayed (python3 exit ${code}):\n${stderr}`);
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RealCall);
}

function run(
  command: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.once("error", failed);
    child.once("exit", (code) => done({ code, stdout, stderr }));
  });
}
