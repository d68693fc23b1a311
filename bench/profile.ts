import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { round } from "./stats.js";

/** The parts of a V8 .cpuprofile (node --cpu-prof) this reads. */
interface CpuProfile {
  /** Monotonic clock, µs: the same clock as `process.hrtime` on Linux. */
  startTime: number;
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

type Frame = CpuProfile["nodes"][number]["callFrame"];

/** A named share of the time: a sample counts once if any frame of its stack matches. */
export interface Watch {
  label: string;
  matches(frame: Frame): boolean;
}

export interface ProfileSummary {
  /** Sampled time without idle, in ms. */
  busyMs: number;
  /** Inclusive time of each watched part, in ms. */
  parts: Array<{ label: string; ms: number }>;
  /** Self time grouped by where the code lives (package or source file), top entries, in ms. */
  byPlace: Array<{ place: string; ms: number }>;
}

export const fn =
  (name: string, file?: string) =>
  (frame: Frame): boolean =>
    frame.functionName === name && (file === undefined || frame.url.endsWith(file));
export const inPackage =
  (pkg: string) =>
  (frame: Frame): boolean =>
    frame.url.includes(`/node_modules/${pkg}/`);

/** Where a frame's code lives: an npm package, a toolsim source file, node itself or V8. */
function placeOf(frame: Frame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg?.[1]) return pkg[1];
  const own = /\/dist\/(.+)\.js$/.exec(url);
  if (own?.[1]) return `toolsim src/${own[1]}.ts`;
  if (url.startsWith("node:")) return url.includes("modules") ? "node: module loader" : "node: internals";
  return url;
}

/** Samples taken between two readings of `process.hrtime.bigint()` (any process on this machine), in ns. */
export interface Window {
  fromNs: bigint;
  toNs: bigint;
}

export function summarizeProfile(
  file: string,
  watches: readonly Watch[],
  top = 12,
  window?: Window,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const partUs = new Array<number>(watches.length).fill(0);
  const placeUs = new Map<string, number>();
  let busyUs = 0;
  let clock = profile.startTime;
  const from = window ? Number(window.fromNs / 1000n) : Number.NEGATIVE_INFINITY;
  const to = window ? Number(window.toNs / 1000n) : Number.POSITIVE_INFINITY;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    clock += us;
    if (clock < from || clock > to) return;
    const leaf = byId.get(id);
    if (!leaf || leaf.callFrame.functionName === "(idle)") return;
    busyUs += us;
    const place = placeOf(leaf.callFrame);
    placeUs.set(place, (placeUs.get(place) ?? 0) + us);
    const hit = new Array<boolean>(watches.length).fill(false);
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      watches.forEach((watch, w) => {
        if (!hit[w] && watch.matches(frame)) hit[w] = true;
      });
    }
    hit.forEach((yes, w) => {
      if (yes) partUs[w] = (partUs[w] ?? 0) + us;
    });
  });
  const ms = (us: number) => round(us / 1000, 1);
  return {
    busyMs: ms(busyUs),
    parts: watches.map((watch, w) => ({ label: watch.label, ms: ms(partUs[w] ?? 0) })),
    byPlace: [...placeUs.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([place, us]) => ({ place, ms: ms(us) })),
  };
}

/** The profile is written as the server process exits, a moment after the client has closed. */
export async function waitForProfile(dir: string): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const found = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
    if (found) {
      const file = join(dir, found);
      const size = statSync(file).size;
      await new Promise((r) => setTimeout(r, 100));
      if (size > 0 && statSync(file).size === size) return file;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no .cpuprofile appeared in ${dir}`);
}
