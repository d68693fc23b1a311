import type { CoreResults } from "./core.js";
import type { Machine } from "./run.js";
import { round } from "./stats.js";

const ms = (value: number | null | undefined) =>
  value === null || value === undefined || Number.isNaN(value) ? "—" : `${value} ms`;
const verdict = (met: boolean) => (met ? "**met**" : "**missed**");
const thousands = (n: number) => n.toLocaleString("en-US");

function table(header: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${header.join(" | ")} |`,
    `|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`,
    ...rows.map((cells) => `| ${cells.join(" | ")} |`),
  ].join("\n");
}

export function machineMarkdown(
  machine: Machine,
  startedAt: string,
  seconds: number,
  quick: boolean,
): string {
  return [
    `Last run: ${startedAt.slice(0, 16).replace("T", " ")} UTC, ${seconds} s${quick ? " (**--quick**: fewer samples, figures are rough)" : ""}.`,
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGb} GiB RAM, Node ${machine.node}, ${machine.os}; 1-minute load average ${machine.load.start} at the start, ${machine.load.end} at the end.`,
  ].join("\n");
}

function roundTrip(core: CoreResults): string {
  const { rows, target, calls, settle, warmup, stateVersionAfterWrites } = core.roundTrip;
  const stdio = rows.filter((r) => r.transport === "stdio" && r.catalogTools === rows[0]?.catalogTools);
  return [
    "### tools/call round trip",
    "",
    `${thousands(calls)} sequential calls per side and tool after ${thousands(settle)} calls of every tool and ${warmup} warm-up calls of the one measured, in rounds: the servers alternate call by call and the one that starts alternates by round; each round gives its own p50 ratio, whose min and median are shown.`,
    "Times are client-side (SDK `callTool`, including its output-schema check), in milliseconds.",
    "",
    table(
      [
        "transport",
        "tools loaded",
        "call",
        "toolsim p50",
        "toolsim p95",
        "toolsim mean",
        "no-op p50",
        "no-op p95",
        "no-op mean",
        "ratio p50",
        "ratio p95",
        "rounds: min",
        "rounds: median",
      ],
      rows.map((r) => [
        r.transport,
        thousands(r.catalogTools),
        `${r.kind} (\`${r.tool}\`)`,
        r.toolsim.p50,
        r.toolsim.p95,
        r.toolsim.mean,
        r.noop.p50,
        r.noop.p95,
        r.noop.mean,
        r.ratio.p50,
        r.ratio.p95,
        r.rounds.min,
        `**${r.rounds.median}**`,
      ]),
    ),
    "",
    "The last rows load the 6,000-tool catalog of the scale bench on both sides as well: how a call's cost grows with the catalog and its sandbox state.",
    "",
    `Target: p50 ratio ≤ ${target.p50Ratio} on stdio (bench toolset): ${verdict(target.met)} (median of rounds: ${stdio.map((r) => `${r.kind} ${r.rounds.median}`).join(", ")}).`,
    stateVersionAfterWrites === null
      ? ""
      : `The stdio session ended at state version ${thousands(stateVersionAfterWrites)}: every write call committed a new version to SQLite.`,
  ].join("\n");
}

function scale(core: CoreResults): string {
  const s = core.scale;
  const toolsim = s.rows[0];
  return [
    "### Catalog scale",
    "",
    `${thousands(s.tools)} generated tools in ${s.toolsets} toolset files (${s.catalogMb} MiB of JSON). Median of ${toolsim?.runs.length ?? 0} cold starts each; peak RSS is the highest VmHWM seen.`,
    "",
    table(
      [
        "server",
        "spawn → initialized",
        "spawn → first tools/list page",
        "tools on page 1",
        "all pages after that",
        "peak RSS",
      ],
      s.rows.map((r) => [
        r.server,
        ms(r.spawnToInitializedMs),
        `**${ms(r.spawnToFirstListMs)}**`,
        r.firstPageTools,
        `${ms(r.fullListMs)} (${thousands(r.listedTools)} tools)`,
        r.peakRssMb === null ? "—" : `${r.peakRssMb} MiB`,
      ]),
    ),
    "",
    `Target: ${thousands(s.tools)} tools ready in under ${s.target.readyMs} ms: ${verdict(s.target.met)} (${ms(toolsim?.spawnToFirstListMs)}).`,
    `toolsim takes ${s.ratioToNoopCatalog}× the no-op server that serves the same catalog and ${s.ratioToNoopBare}× a bare no-op server.`,
  ].join("\n");
}

function load(core: CoreResults): string {
  const { checked, unchecked, phases } = core.load;
  const metaShare = round(checked.totalMs - unchecked.totalMs, 1);
  return [
    "### Catalog load in process",
    "",
    "`loadToolsets` + `new Catalog` for the same catalog, each in a fresh Node process (cold, as at start-up).",
    "",
    table(
      ["step", "time", "note"],
      [
        [
          "loadToolsets, schemas meta-validated (what `lint` does)",
          ms(checked.loadToolsetsMs),
          `heap ${checked.heapUsedMb} MiB, RSS ${checked.rssMb} MiB after`,
        ],
        [
          "loadToolsets, `checkSchemas: false`",
          ms(unchecked.loadToolsetsMs),
          "what `serve` does before it answers",
        ],
        ["new Catalog (index)", ms(checked.catalogMs), `${thousands(checked.tools)} tools`],
        ["phase: read files + JSON.parse", ms(phases.readAndJsonParseMs), `${phases.files} files`],
        ["phase: zod parse (Toolset schema)", ms(phases.zodParseMs), ""],
        [
          "phase: JSON Schema meta-validation",
          ms(phases.metaValidationMs),
          `${thousands(phases.schemas)} schemas`,
        ],
        [
          "importing the modules of `toolsim serve`",
          ms(core.load.imports.importMs),
          "toolsim and the packages it loads",
        ],
      ],
    ),
    "",
    `Meta-validation costs ${ms(metaShare)} of loading (checked − unchecked); \`serve\` runs it in the background once it answers, one toolset per event-loop turn, so it is not part of the time to the first tools/list.`,
  ].join("\n");
}

function profile(core: CoreResults): string {
  const p = core.profile;
  return [
    "### Where toolsim's start-up time goes",
    "",
    `One more cold start with \`node --cpu-prof\` (${p.busyMs} ms of CPU sampled, profiling slows it down somewhat; the profile is kept in \`${p.file}\`).`,
    "",
    table(
      ["part (inclusive)", "time"],
      p.parts.map((part) => [part.label.replace(/^ {2}/, "↳ "), ms(part.ms)]),
    ),
    "",
    table(
      ["self time by code location", "time"],
      p.byPlace.map((place) => [`\`${place.place}\``, ms(place.ms)]),
    ),
  ].join("\n");
}

function callProfile(core: CoreResults): string {
  const rows = core.callProfile;
  if (!rows?.length) return "";
  const us = (value: number) => `${value} µs`;
  const header = [
    "CPU per call (inclusive)",
    ...rows.flatMap((r) => [`${r.kind}: toolsim`, `${r.kind}: no-op`]),
  ];
  const busy = ["**all CPU sampled**", ...rows.flatMap((r) => [us(r.busyUs.toolsim), us(r.busyUs.noop)])];
  const labels = rows[0]?.parts.map((part) => part.label) ?? [];
  const parts = labels.map((label, i) => [
    label.replace(/^ {2}/, "↳ "),
    ...rows.flatMap((r) => [us(r.parts[i]?.toolsimUs ?? 0), us(r.parts[i]?.noopUs ?? 0)]),
  ]);
  const write = rows.find((r) => r.kind === "write");
  return [
    "### Where a call's time goes",
    "",
    `Each server answers ${thousands(rows[0]?.calls ?? 0)} calls of each kind under \`node --cpu-prof\` over stdio; only samples taken while the measured calls ran count (profiling slows both sides alike).`,
    "",
    table(header, [busy, ...parts]),
    "",
    write
      ? `Self time of a write by code location: ${write.byPlace.map((p) => `\`${p.place}\` ${p.us} µs`).join(", ")}.`
      : "",
  ].join("\n");
}

export function coreMarkdown(core: CoreResults): string {
  return [roundTrip(core), scale(core), load(core), profile(core), callProfile(core)]
    .filter((part) => part !== "")
    .join("\n\n");
}
