import { readdirSync, readFileSync } from "node:fs";

/**
 * CPU time of processes, from /proc (Linux): on a machine shared with other work, the CPU a
 * call costs each party is a steadier capacity figure than calls per second.
 */

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** User + system CPU milliseconds a process has used so far (0 when it is gone or not Linux). */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** A process and its direct children (a PostgreSQL server: the postmaster and its backends). */
export function processTree(pid: number): number[] {
  const children: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [pid];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields && Number(fields[1]) === pid) children.push(Number(entry));
  }
  return [pid, ...children];
}

/** CPU milliseconds of several processes, by process id (to subtract samples process by process). */
export function cpuSample(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, cpuMs(pid)]));
}

/** CPU used between two samples, counting only processes present in the first. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of before) total += Math.max(0, (after.get(pid) ?? ms) - ms);
  return total;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): [state, ppid, …]. */
function statFields(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}
