import type { SectionOutcome } from "./run.js";

export const DOCS_FILE = "docs/benchmarks.md";
export const RESULTS_DIR = "bench/results";

const TITLES: Record<string, string> = {
  llm: "LLM simulator",
  hybrid: "Hybrid mode",
  "scale-out": "Scale-out on PostgreSQL",
  runs: "Runs (toolsim run)",
};

const start = (name: string) => `<!-- bench:${name}:start -->`;
const end = (name: string) => `<!-- bench:${name}:end -->`;

/** Replaces what lies between a section's markers; undefined when the markers are absent. */
function replaceBetween(doc: string, name: string, body: string): string | undefined {
  const from = doc.indexOf(start(name));
  const to = doc.indexOf(end(name));
  if (from < 0 || to < from) return undefined;
  return `${doc.slice(0, from + start(name).length)}\n${body.trim()}\n${doc.slice(to)}`;
}

function appendSection(doc: string, name: string, body: string): string {
  const heading = `## ${TITLES[name] ?? name}`;
  return `${doc.trimEnd()}\n\n${heading}\n\n${start(name)}\n${body.trim()}\n${end(name)}\n`;
}

const SKELETON = `# Benchmarks

${start("machine")}
${end("machine")}

## Core

${start("core")}
${end("core")}
`;

/**
 * Rewrites the generated parts of the benchmarks page between their markers and leaves
 * everything else (hand-written text) alone. An optional section that produced markdown
 * gets its own markers appended the first time.
 */
export function updateDocs(
  current: string | undefined,
  parts: { machine: string; core: string; sections: Record<string, SectionOutcome> },
): string {
  let doc = current ?? SKELETON;
  for (const [name, body] of [
    ["machine", parts.machine],
    ["core", parts.core],
  ] as const) {
    doc = replaceBetween(doc, name, body) ?? appendSection(doc, name, body);
  }
  for (const [name, outcome] of Object.entries(parts.sections)) {
    const body =
      outcome.status === "ok"
        ? (outcome.markdown ?? `Results are in \`${RESULTS_DIR}/latest.json\` under \`${name}\`.`)
        : `_Not measured in the last run: ${outcome.note}._`;
    const replaced = replaceBetween(doc, name, body);
    if (replaced !== undefined) doc = replaced;
    else if (outcome.status === "ok") doc = appendSection(doc, name, body);
  }
  return doc;
}
