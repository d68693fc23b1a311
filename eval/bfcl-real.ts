import { spawn } from "node:child_process";
import { join } from "node:path";
import type { ProbeRequest, RealCall, RealTask } from "./bfcl-score.js";
import { ROOT } from "./toolsim-process.js";

/**
 * The true answers: BFCL multi-turn ground truth replayed on the real classes by
 * eval/bfcl_replay.py (python3, standard library only), one JSON line per task, call or probe.
 */

const DRIVER = join(ROOT, "eval/bfcl_replay.py");

export interface RealSource {
  /** The folder of the real classes (one module each). */
  realDir: string;
  entriesFile: string;
  answersFile: string;
  /** Only calls of these classes are made (all when empty). */
  classes: readonly string[];
}

export interface RealReplay {
  /** What the driver substituted to run the classes here (said with the results). */
  notes: string[];
  classes: string[];
  tasks: RealTask[];
  calls: RealCall[];
}

export async function replayReal(source: RealSource): Promise<RealReplay> {
  const lines = await runDriver("replay", source);
  const replay: RealReplay = { notes: [], classes: [], tasks: [], calls: [] };
  for (const line of lines) {
    if (line.kind === "driver") {
      replay.notes = line.notes as string[];
      replay.classes = line.classes as string[];
    } else if (line.kind === "task") replay.tasks.push(line as unknown as RealTask);
    else if (line.kind === "call") replay.calls.push(line as unknown as RealCall);
  }
  return replay;
}

export interface RealProbe {
  id: string;
  error: boolean;
  answer: unknown;
}

export async function probeReal(
  source: RealSource,
  probes: readonly ProbeRequest[],
): Promise<Map<string, RealProbe>> {
  const input = probes.map((probe) => JSON.stringify(probe)).join("\n");
  const lines = await runDriver("probe", source, input);
  return new Map(lines.map((line) => [String(line.id), line as unknown as RealProbe]));
}

async function runDriver(
  mode: string,
  source: RealSource,
  input = "",
): Promise<Array<Record<string, unknown>>> {
  const args = [
    DRIVER,
    mode,
    source.realDir,
    source.entriesFile,
    source.answersFile,
    source.classes.join(","),
  ];
  const { code, stdout, stderr } = await run("python3", args, input);
  if (code !== 0)
    throw new Error(`the real classes could not be replayed (python3 ${mode}, exit ${code}):\n${stderr}`);
  return stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function run(
  command: string,
  args: string[],
  input: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, failed) => {
    const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"] });
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
    child.stdin.end(input);
  });
}
