import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isPlainObject } from "../patch/index.js";
import type { Usage } from "../store/index.js";
import {
  type Agent,
  type AgentConversation,
  type AgentReply,
  type AgentTurn,
  type AttemptContext,
  declaresInfeasible,
  type Replied,
  zeroUsage,
} from "./agent.js";

export interface CommandAgentOptions {
  /** A shell command line; {placeholders} are replaced by shell-quoted values. */
  command: string;
  /** The run's MCP endpoint (Streamable HTTP). */
  mcpUrl: string;
  /** The header that names the session, as HTTP writes it. */
  sessionHeader: string;
  /** The environment the command starts from (the run's own, with the user's API keys). */
  env: NodeJS.ProcessEnv;
  /** How long a killed command has to exit after SIGTERM before SIGKILL (ms). */
  killGraceMs?: number;
}

/** The placeholders a command line may use, each also in the environment. */
export const PLACEHOLDERS = {
  url: "TOOLSIM_MCP_URL",
  session: "TOOLSIM_SESSION",
  task: "TOOLSIM_TASK",
  prompt: "TOOLSIM_PROMPT",
  attempt: "TOOLSIM_ATTEMPT",
  try: "TOOLSIM_TRY",
  turn: "TOOLSIM_TURN",
  answer_file: "TOOLSIM_ANSWER_FILE",
  history_file: "TOOLSIM_HISTORY_FILE",
} as const;

/** What is kept of a command's output: its end, where the answer and the error are. */
const KEPT_OUTPUT = 64 * 1024;
const KEPT_ERROR = 2_000;

/**
 * Any agent, as a command run once per message: the MCP URL, the session header value, the
 * task id and the message are in its environment and in its command line as {placeholders}.
 * It connects over Streamable HTTP, works in the session, and its answer is the file
 * TOOLSIM_ANSWER_FILE when it wrote one, else its last line of output. A command that exits
 * with an error, or is still running when the attempt's time is up, ends the attempt as an
 * error; it is stopped with its whole process group.
 */
export class CommandAgent implements Agent {
  readonly description: string;

  constructor(private readonly options: CommandAgentOptions) {
    this.description = `command ${options.command}`;
  }

  async start(context: AttemptContext): Promise<AgentConversation> {
    return new CommandConversation(this.options, context);
  }
}

class CommandConversation implements AgentConversation {
  readonly steps = 0;
  readonly usage: Usage = zeroUsage();
  private readonly dir = mkdtempSync(join(tmpdir(), "toolsim-agent-"));
  private runs = 0;

  constructor(
    private readonly options: CommandAgentOptions,
    private readonly context: AttemptContext,
  ) {}

  async respond(turn: AgentTurn): Promise<Replied> {
    this.runs++;
    const answerFile = join(this.dir, `answer-${this.runs}.txt`);
    const historyFile = join(this.dir, `history-${this.runs}.json`);
    writeFileSync(
      historyFile,
      JSON.stringify(
        turn.history.map((entry) => ({
          role: entry.role === "agent" ? "assistant" : "user",
          content: entry.text,
        })),
      ),
    );
    const values: Record<keyof typeof PLACEHOLDERS, string> = {
      url: this.options.mcpUrl,
      session: this.context.sessionName,
      task: this.context.taskId,
      prompt: turn.message,
      attempt: String(this.context.attempt),
      try: String(turn.tryNumber),
      turn: String(turn.turn),
      answer_file: answerFile,
      history_file: historyFile,
    };
    const env: NodeJS.ProcessEnv = {
      ...this.options.env,
      TOOLSIM_SESSION_HEADER: this.options.sessionHeader,
      ...(turn.kind === "feedback" ? { TOOLSIM_FEEDBACK: turn.message } : {}),
    };
    for (const [key, name] of Object.entries(PLACEHOLDERS)) env[name] = values[key as keyof typeof values];
    const ran = await runCommand(
      fillPlaceholders(this.options.command, values),
      env,
      turn.signal,
      this.options.killGraceMs ?? 2_000,
    );
    if (ran.kind === "aborted") return { ok: false, problem: { kind: "interrupted", message: "stopped" } };
    if (ran.kind === "spawn-failed") {
      return {
        ok: false,
        problem: { kind: "agent-start", message: `the agent command could not start: ${ran.message}` },
      };
    }
    if (ran.code !== 0) {
      const how = ran.signal ? `was killed by ${ran.signal}` : `exited with code ${ran.code}`;
      const tail = ran.stderr.trim() ? `; its last output on stderr: ${ran.stderr.trim()}` : "";
      return { ok: false, problem: { kind: "agent-exit", message: `the agent command ${how}${tail}` } };
    }
    return { ok: true, reply: replyOf(readAnswerFile(answerFile), ran.stdout) };
  }

  async close(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The command line with each {placeholder} replaced by its value, quoted for a POSIX shell. */
export function fillPlaceholders(command: string, values: Record<string, string>): string {
  return command.replace(/\{([a-z_]+)\}/g, (whole, name: string) =>
    name in values ? shellQuote(values[name] ?? "") : whole,
  );
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, "'\\''")}'`;
}

function readAnswerFile(file: string): string | undefined {
  try {
    const text = readFileSync(file, "utf8");
    return text.trim() ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The answer file (plain text, or {"answer", "infeasible"}), else the last line of output. */
function replyOf(file: string | undefined, stdout: string): AgentReply {
  if (file !== undefined) {
    const parsed = parseJson(file);
    if (isPlainObject(parsed) && typeof parsed.answer === "string") {
      return {
        answer: parsed.answer,
        infeasible: parsed.infeasible === true || declaresInfeasible(parsed.answer),
        stoppedBy: "exit",
      };
    }
    const answer = file.trim();
    return { answer, infeasible: declaresInfeasible(answer), stoppedBy: "exit" };
  }
  const lines = stdout.split("\n").filter((line) => line.trim() !== "");
  const answer = (lines.at(-1) ?? "").trim();
  return { answer, infeasible: declaresInfeasible(answer), stoppedBy: "exit" };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type CommandRun =
  | { kind: "exited"; code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }
  | { kind: "aborted" }
  | { kind: "spawn-failed"; message: string };

/**
 * Runs a shell command in a process group of its own, keeping the end of its output. On
 * abort the whole group gets SIGTERM, then SIGKILL after the grace: an agent's own child
 * processes (a model server, a browser) go with it.
 */
function runCommand(
  command: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
  graceMs: number,
): Promise<CommandRun> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve({ kind: "aborted" });
    const child = spawn(command, { shell: true, detached: true, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout = (stdout + chunk).slice(-KEPT_OUTPUT);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-KEPT_ERROR);
    });
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (how: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, how);
      } catch {
        // the group is gone already
      }
    };
    const stop = () => {
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), graceMs);
      killTimer.unref();
    };
    signal.addEventListener("abort", stop, { once: true });
    child.once("error", (error) => {
      signal.removeEventListener("abort", stop);
      resolve({ kind: "spawn-failed", message: error.message });
    });
    // a child the command started and left running (holding its output open) goes with it
    child.once("exit", () => killGroup("SIGKILL"));
    child.once("close", (code, exitSignal) => {
      signal.removeEventListener("abort", stop);
      clearTimeout(killTimer);
      if (signal.aborted) return resolve({ kind: "aborted" });
      resolve({ kind: "exited", code, signal: exitSignal, stdout, stderr });
    });
  });
}
