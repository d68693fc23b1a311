import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { READ_TOOL, readArgs, rejectedArgs, WRITE_TOOL, writeArgs } from "./bench-toolset.js";
import { CLI, connectStdio, NOOP_SERVER, PACKAGE_ROOT } from "./processes.js";
import {
  fn,
  inPackage,
  type ProfileSummary,
  summarizeProfile,
  type Watch,
  waitForProfile,
} from "./profile.js";
import { round } from "./stats.js";

/**
 * Where the time of one call goes: toolsim and the no-op server each answer the same calls
 * under `node --cpu-prof`, and only the samples taken while the measured calls ran count
 * (the profile's clock is the monotonic clock `process.hrtime` reads). The parts are
 * inclusive CPU time per call, so they say what a call costs beyond the SDK's own work.
 */

export interface CallProfileRow {
  kind: "read" | "write" | "rejected";
  calls: number;
  /** CPU sampled per call, µs, by server. */
  busyUs: { toolsim: number; noop: number };
  parts: Array<{ label: string; toolsimUs: number; noopUs: number }>;
  /** Self time by code location, µs per call (toolsim's side). */
  byPlace: Array<{ place: string; us: number }>;
}

/** A frame of the server's own code: toolsim's dist/, or the no-op server's one file. */
const ownCode = (frame: { url: string }) =>
  (frame.url.includes("/dist/") && !frame.url.includes("/node_modules/")) ||
  frame.url.endsWith("/bench/noop-server.js");

// Frames are matched anywhere on the sampled stack; the engine's steps run after awaits, so
// they are not nested under the tools/call handler's frame and are listed on their own.
const CALL_WATCHES: Watch[] = [
  { label: "the server's own code, and the libraries it calls", matches: ownCode },
  { label: "  argument validation", matches: fn("validateArguments", "engine/validate.js") },
  { label: "  the arguments' hash", matches: fn("callArgumentsHash", "engine/argument-hash.js") },
  { label: "  effects", matches: fn("applyEffects", "engine/effects/apply.js") },
  { label: "  simulation and the output schema", matches: fn("simulate", "engine/engine.js") },
  { label: "  the commit (SQLite transaction)", matches: fn("recordCall", "store/sqlite.js") },
  { label: "  the MCP result", matches: fn("toCallToolResult", "server/call-result.js") },
  { label: "zod (the SDK's checks of every message)", matches: inPackage("zod") },
  { label: "writing the answer to the pipe", matches: fn("writeUtf8String") },
  { label: "garbage collection", matches: fn("(garbage collector)") },
];

const KINDS = [
  ["read", READ_TOOL, readArgs],
  ["write", WRITE_TOOL, writeArgs],
  ["rejected", READ_TOOL, rejectedArgs],
] as const;

export async function profileCalls(
  toolset: string,
  scratch: string,
  calls: number,
  warmup: number,
): Promise<CallProfileRow[]> {
  const rows: CallProfileRow[] = [];
  for (const [kind, tool, args] of KINDS) {
    const toolsim = await profiledRun(
      [CLI, "serve", "--stdio", "--db", join(scratch, `profile-${kind}.db`), "--toolsets", toolset],
      `toolsim-${kind}`,
      tool,
      args,
      calls,
      warmup,
    );
    const noop = await profiledRun([NOOP_SERVER, "--stdio"], `noop-${kind}`, tool, args, calls, warmup);
    rows.push({
      kind,
      calls,
      busyUs: { toolsim: perCall(toolsim.busyMs, calls), noop: perCall(noop.busyMs, calls) },
      parts: toolsim.parts.map((part, i) => ({
        label: part.label,
        toolsimUs: perCall(part.ms, calls),
        noopUs: perCall(noop.parts[i]?.ms ?? 0, calls),
      })),
      byPlace: toolsim.byPlace.map((place) => ({ place: place.place, us: perCall(place.ms, calls) })),
    });
  }
  return rows;
}

const perCall = (ms: number, calls: number) => round((ms * 1000) / calls, 1);

async function profiledRun(
  serverArgs: string[],
  name: string,
  tool: string,
  args: (i: number) => Record<string, unknown>,
  calls: number,
  warmup: number,
): Promise<ProfileSummary> {
  const dir = join(PACKAGE_ROOT, "dist-bench", "profiles", name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const server = await connectStdio(serverArgs, ["--cpu-prof", "--cpu-prof-dir", dir]);
  let window: { fromNs: bigint; toNs: bigint };
  try {
    for (let i = 0; i < warmup; i++) await server.client.callTool({ name: tool, arguments: args(i) });
    const fromNs = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await server.client.callTool({ name: tool, arguments: args(warmup + i) });
    window = { fromNs, toNs: process.hrtime.bigint() };
  } finally {
    await server.close();
  }
  return summarizeProfile(await waitForProfile(dir), CALL_WATCHES, 10, window);
}
