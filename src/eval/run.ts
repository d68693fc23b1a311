import { parseArgs } from "node:util";
import { coherenceSection } from "./coherence.js";
import { computationSection } from "./computation.js";
import { bfclSection, synthToolsSection, tauSection, toolAlpacaSection } from "./sections.js";

/**
 * `npm run eval -- --synthtools DIR --bfcl DIR --tau DIR --toolalpaca DIR [--json]`:
 * imports external tool data given by path and prints what came through. Reads only the
 * paths it is given; writes nothing but temporary files.
 */
async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      synthtools: { type: "string" },
      bfcl: { type: "string" },
      tau: { type: "string" },
      toolalpaca: { type: "string" },
      json: { type: "boolean" },
      verbose: { type: "boolean" },
    },
    strict: true,
  });
  if (!values.synthtools && !values.bfcl && !values.tau && !values.toolalpaca) {
    process.stderr.write(
      "usage: npm run eval -- [--synthtools DIR] [--bfcl DIR] [--tau DIR] [--toolalpaca DIR] [--json]\n",
    );
    return 2;
  }
  const report: Record<string, unknown> = {};
  if (values.synthtools) report.synthtools = synthToolsSection(values.synthtools);
  if (values.bfcl) report.bfcl = bfclSection(values.bfcl);
  if (values.tau) report.tau = tauSection(values.tau);
  if (values.toolalpaca) report.toolalpaca = await toolAlpacaSection(values.toolalpaca);
  if (values.synthtools) report.coherence = coherenceSection(values.synthtools);
  if (values.bfcl || values.tau || values.synthtools)
    report.computation = await computationSection(values.bfcl, values.tau, values.synthtools);
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(summarize(report, Boolean(values.verbose)));
  return 0;
}

function summarize(report: Record<string, unknown>, verbose: boolean): string {
  const lines: string[] = [];
  const limit = verbose ? Number.POSITIVE_INFINITY : 15;
  for (const [name, section] of Object.entries(report)) {
    lines.push(`== ${name}`);
    const flat = section as Record<string, unknown>;
    for (const [key, value] of Object.entries(flat)) {
      if (Array.isArray(value)) {
        lines.push(`  ${key}: ${value.length}`);
        for (const item of value.slice(0, limit)) lines.push(`    ${JSON.stringify(item)}`);
      } else if (value && typeof value === "object") {
        lines.push(`  ${key}:`);
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (Array.isArray(v)) {
            lines.push(`    ${k}: ${v.length}`);
            for (const item of v.slice(0, limit)) lines.push(`      ${JSON.stringify(item)}`);
          } else lines.push(`    ${k}: ${JSON.stringify(v)}`);
        }
      } else lines.push(`  ${key}: ${JSON.stringify(value)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `eval: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
