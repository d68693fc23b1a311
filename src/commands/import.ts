import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, extname, join, relative } from "node:path";
import {
  formatImportProblem,
  formatPath,
  formatProblem,
  type ImportResult,
  importBfcl,
  importOpenAiFunctions,
  importOpenApi,
  importSynthTools,
  loadToolsets,
  repairPatterns,
  Toolset,
} from "../catalog/index.js";
import { compactEffect, inferToolset, renderReport, type ToolReport, tallyLine } from "../infer/index.js";
import { readBfcl, readDocument, readState, readSynthTools, type SourceRead } from "../sources/index.js";
import { type Command, UsageError } from "./command.js";
import { IMPORT_MCP_HELP, runImportMcp } from "./import-mcp.js";
import {
  SEED_OPTIONS,
  type SeedOutcome,
  type SeedRequest,
  seedHelp,
  seedLines,
  seedRequestOf,
  seedToolsets,
} from "./import-seed.js";
import { parseArgs } from "./options.js";

const FORMATS = ["synthtools", "openapi", "bfcl", "openai", "mcp"] as const;
type Format = (typeof FORMATS)[number];
type FileFormat = Exclude<Format, "mcp">;

/** What each format reads: the SOURCE argument, and what becomes of it. */
const SOURCES: Record<FileFormat, { source: string; title: string; about: string[] }> = {
  synthtools: {
    source: "DIR",
    title: "turn SynthTools raw files into toolset files",
    about: [
      "SynthTools raw files: a tool_content folder (tool_json/, task_*/) or a folder",
      "of tool JSON files and task YAML files; each spec becomes a toolset",
    ],
  },
  openapi: {
    source: "FILE",
    title: "turn an OpenAPI document into a toolset file",
    about: ["an OpenAPI 3.0 or 3.1 document (JSON or YAML); each operation becomes a tool"],
  },
  bfcl: {
    source: "PATH",
    title: "turn BFCL function docs into toolset files",
    about: [
      "BFCL function docs: a data folder or one JSON-lines file; possible_answer",
      "ground truth becomes task solutions",
    ],
  },
  openai: {
    source: "FILE",
    title: "turn a list of OpenAI function definitions into a toolset file",
    about: ["a JSON list of OpenAI function definitions (optionally --state DB)"],
  },
};

/** The options, each with the formats it applies to (every format but mcp, which has its own help). */
const OPTIONS: Array<{ flag: string; text: string[]; formats?: FileFormat[] }> = [
  { flag: "--out DIR", text: ["where the toolset files are written (one <id>.json per toolset)"] },
  { flag: "--force", text: ["overwrite toolset files that already exist in DIR"] },
  {
    flag: "--id ID",
    text: ["toolset id (openapi, openai; default from the title or file name)"],
    formats: ["openapi", "openai"],
  },
  { flag: "--field TEXT", text: ["field of the toolset (openapi, openai)"], formats: ["openapi", "openai"] },
  {
    flag: "--subdomain TEXT",
    text: ["subdomain of the toolset (openapi, openai)"],
    formats: ["openapi", "openai"],
  },
  {
    flag: "--state PATH",
    text: [
      "a JSON database (file, or folder of JSON files, one per collection) as the",
      "starting state of every toolset written (and what effects are inferred from)",
    ],
  },
  { flag: "", text: [] }, // the seeding options, in their own words (import-seed.ts)
  {
    flag: "--answers FILE",
    text: ["bfcl: ground-truth file when SOURCE is one entries file"],
    formats: ["bfcl"],
  },
  { flag: "--no-infer", text: ["write tools as the source defines them, without inferred effects"] },
  { flag: "--quiet", text: ["print only the summary, not each problem"] },
  { flag: "--json", text: ["print the summary and every problem as JSON"] },
];

const COLUMN = 21;
const column = (head: string, lines: string[]) =>
  lines.map((line, i) => `${(i === 0 ? `  ${head}` : "").padEnd(COLUMN)}${line}`).join("\n");

function optionsHelp(format?: FileFormat): string {
  return OPTIONS.filter((o) => !format || !o.formats || o.formats.includes(format))
    .map((o) => (o.flag === "" ? seedHelp(COLUMN) : column(o.flag, o.text)))
    .join("\n");
}

const ABOUT = `Every tool the importer could not map exactly is reported (what, where, why); nothing is
dropped silently. Effects are inferred for every tool from its name, parameters,
descriptions, documented errors and the state (see toolsim infer; each inferred tool carries
an "inferred" mark with the rules' notes). The written files are loaded back and checked
before the command ends.
`;

const HELP = `toolsim import — turn existing tool definitions into toolset files

Usage: toolsim import FORMAT SOURCE --out DIR [options]
       toolsim import FORMAT --help        (one format's own help)

Formats
${(Object.keys(SOURCES) as FileFormat[]).map((f) => column(`${f} ${SOURCES[f].source}`, SOURCES[f].about)).join("\n")}
${column("mcp ...", ["a live MCP server's tools/list (see toolsim import mcp --help)"])}

Options
${optionsHelp()}

${ABOUT}`;

/** One format's help: its source and the options that apply to it. */
function formatHelp(format: FileFormat): string {
  const { source, title, about } = SOURCES[format];
  return `toolsim import ${format} — ${title}

Usage: toolsim import ${format} ${source} --out DIR [options]

${column(source, about)}

Options
${optionsHelp(format)}

${ABOUT}`;
}

/** The help `toolsim import [FORMAT] --help` asks for. */
function helpFor(argv: string[]): string {
  const [format] = argv;
  if (format === "mcp") return IMPORT_MCP_HELP;
  return format && format in SOURCES ? formatHelp(format as FileFormat) : HELP;
}

export const importCommand: Command = {
  name: "import",
  help: HELP,
  helpFor,
  async run(argv) {
    const [format, ...rest] = argv;
    if (format === "mcp") return runImportMcp(rest);
    if (!format || !FORMATS.includes(format as Format))
      throw new UsageError(`name a format: ${FORMATS.join(", ")}${format ? ` (got "${format}")` : ""}`);
    const { values, positionals } = parseArgs({
      args: rest,
      options: {
        out: { type: "string" },
        force: { type: "boolean" },
        id: { type: "string" },
        field: { type: "string" },
        subdomain: { type: "string" },
        state: { type: "string" },
        answers: { type: "string" },
        "no-infer": { type: "boolean" },
        quiet: { type: "boolean" },
        json: { type: "boolean" },
        ...SEED_OPTIONS,
      },
      allowPositionals: true,
      strict: true,
    });
    const [sourcePath, ...extra] = positionals;
    if (!sourcePath) throw new UsageError(`name the ${format} source to import`);
    if (extra.length > 0) throw new UsageError(`one source at a time; unexpected ${extra.join(" ")}`);
    if (!values.out) throw new UsageError("--out DIR is required");
    const seeding = seedRequestOf(values);
    if (!existsSync(sourcePath)) {
      process.stderr.write(`toolsim import: ${sourcePath}: no such file or folder\n`);
      return 1;
    }
    let state: Record<string, unknown> | undefined;
    if (values.state !== undefined) {
      const read = readState(values.state);
      if (read.error) {
        failed(`--state ${read.error}`);
        return 1;
      }
      state = read.value;
    }
    const imported = await importFrom(format, sourcePath, values, state);
    if (!imported) return 1;
    const read = state && format !== "openai" ? withState(imported, state) : imported;
    const repaired = withRepairedPatterns(read);
    // seeded before inference, so the effects mint ids past the seeded ones, in their format
    const seeded = seeding ? withSeededState(repaired, seeding) : undefined;
    const inference = values["no-infer"] ? undefined : inferAll(repaired.source);
    return writeResult(repaired, values.out, {
      force: Boolean(values.force),
      quiet: Boolean(values.quiet),
      json: Boolean(values.json),
      inference,
      ...(seeding && seeded ? { seeded: { request: seeding, outcomes: seeded } } : {}),
    });
  },
};

interface ImportFlags {
  id?: string;
  field?: string;
  subdomain?: string;
  answers?: string;
}

async function importFrom(
  format: string,
  path: string,
  flags: ImportFlags,
  state: Record<string, unknown> | undefined,
): Promise<SourceRead<ImportResult> | undefined> {
  if (format === "synthtools") {
    const read = readSynthTools(path);
    if (read.source.tools.length === 0 && read.source.tasks.length === 0)
      return failed(`${path}: no SynthTools tool files (*.json) or task files (*.yml) found`);
    return { source: importSynthTools(read.source), unreadable: read.unreadable };
  }
  if (format === "bfcl") {
    const read = readBfcl(path, flags.answers);
    if (read.source.entries.length === 0 && read.source.functionDocs.length === 0)
      return failed(`${path}: no BFCL entries found`);
    return { source: importBfcl(read.source), unreadable: read.unreadable };
  }
  const document = readDocument(path);
  if (document.error) return failed(`${path}: cannot read: ${document.error}`);
  if (format === "openapi") {
    const result = await importOpenApi(document.value, {
      id: flags.id,
      field: flags.field,
      subdomain: flags.subdomain,
    });
    return { source: result, unreadable: [] };
  }
  const result = importOpenAiFunctions(
    { functions: document.value, state },
    {
      id: flags.id ?? basename(path, extname(path)),
      field: flags.field,
      subdomain: flags.subdomain,
    },
  );
  return { source: result, unreadable: [] };
}

/** `--state` as the starting state of every toolset imported (the openai importer takes it itself). */
function withState(read: SourceRead<ImportResult>, state: Record<string, unknown>): SourceRead<ImportResult> {
  const toolsets = read.source.toolsets.map((toolset) => ({ ...toolset, state: structuredClone(state) }));
  return { ...read, source: { ...read.source, toolsets } };
}

/** Seeds the imported toolsets' worlds in place (see toolsim import --seed-state), and says what it seeded. */
function withSeededState(read: SourceRead<ImportResult>, request: SeedRequest): SeedOutcome[] {
  const seeded = seedToolsets(read.source.toolsets, request);
  read.source.toolsets = seeded.toolsets;
  return seeded.outcomes;
}

/** Infers effects for the imported toolsets in place, and returns the report. */
function inferAll(result: ImportResult): ToolReport[] {
  const report: ToolReport[] = [];
  result.toolsets = result.toolsets.map((toolset) => {
    const inferred = inferToolset(toolset);
    report.push(...inferred.report);
    return inferred.toolset;
  });
  return report;
}

/** A toolset as its file shows it: effects without the format's empty defaults. */
function fileOf(toolset: Toolset): unknown {
  return {
    ...toolset,
    tools: toolset.tools.map((tool) =>
      tool.effects.length > 0 ? { ...tool, effects: tool.effects.map(compactEffect) } : tool,
    ),
  };
}

/**
 * Patterns written for another regex dialect (`\:`, a lone `{`, Python's `\Z`) are written
 * in the form JSON Schema accepts; one that cannot be run safely is kept and reported.
 */
function withRepairedPatterns(read: SourceRead<ImportResult>): SourceRead<ImportResult> {
  const problems = [...read.source.problems];
  const toolsets = read.source.toolsets.map((toolset) => ({
    ...toolset,
    tools: toolset.tools.map((tool) => {
      const repaired = { ...tool };
      for (const key of ["inputSchema", "outputSchema"] as const) {
        const schema = tool[key];
        if (!schema) continue;
        const fixed = repairPatterns(schema);
        repaired[key] = fixed.schema;
        for (const note of fixed.notes)
          problems.push({
            toolset: toolset.id,
            tool: tool.name,
            path: formatPath([key, ...note.path]),
            message: note.message,
          });
      }
      return repaired;
    }),
  }));
  return { ...read, source: { toolsets, problems } };
}

function failed(message: string): undefined {
  process.stderr.write(`toolsim import: ${message}\n`);
  return undefined;
}

function writeResult(
  read: SourceRead<ImportResult>,
  out: string,
  options: {
    force: boolean;
    quiet: boolean;
    json: boolean;
    inference?: ToolReport[];
    seeded?: { request: SeedRequest; outcomes: SeedOutcome[] };
  },
): number {
  const { toolsets, problems } = read.source;
  const files = toolsets.map((t) => join(out, `${t.id}.json`));
  const existing = files.filter((f) => existsSync(f));
  if (existing.length > 0 && !options.force) {
    process.stderr.write(
      `toolsim import: ${existing.length} file(s) already exist in ${out} (first: ${existing[0]}); nothing written. Use --force to overwrite.\n`,
    );
    return 1;
  }
  const shapeErrors = toolsets.flatMap((toolset) => {
    const parsed = Toolset.safeParse(toolset);
    return parsed.success ? [] : [`${toolset.id}: ${parsed.error.issues[0]?.message ?? "invalid"}`];
  });
  if (shapeErrors.length > 0) {
    // an importer produced something the format rejects: a bug in the importer, not in the input
    throw new Error(`import produced invalid toolsets:\n${shapeErrors.join("\n")}`);
  }
  mkdirSync(out, { recursive: true });
  toolsets.forEach((toolset, i) => {
    writeFileSync(files[i] as string, `${JSON.stringify(fileOf(toolset), null, 2)}\n`);
  });
  const check = loadToolsets(files, { checkSchemas: true });
  const loadErrors = check.problems.filter((p) => p.severity === "error");
  const tools = toolsets.reduce((n, t) => n + t.tools.length, 0);
  const tasks = toolsets.reduce((n, t) => n + t.tasks.length, 0);
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify(
        {
          toolsets: toolsets.length,
          tools,
          tasks,
          files: files.map((f) => relative(process.cwd(), f) || f),
          problems,
          unreadable: read.unreadable,
          loadErrors,
          ...(options.inference ? { inference: options.inference } : {}),
          ...(options.seeded ? { seeded: options.seeded.outcomes } : {}),
        },
        null,
        2,
      )}\n`,
    );
  } else {
    for (const u of read.unreadable) process.stderr.write(`unreadable: ${u.file}: ${u.reason}\n`);
    if (!options.quiet) for (const p of problems) process.stderr.write(`note: ${formatImportProblem(p)}\n`);
    for (const p of loadErrors) process.stderr.write(`${formatProblem(p)}\n`);
    if (options.inference && !options.quiet) process.stderr.write(renderReport(options.inference));
    if (options.seeded)
      for (const line of seedLines(options.seeded.outcomes, options.seeded.request))
        process.stderr.write(`${line}\n`);
    const toolsWithNotes = new Set(problems.filter((p) => p.tool).map((p) => `${p.toolset}/${p.tool}`)).size;
    process.stdout.write(
      `wrote ${toolsets.length} toolset(s), ${tools} tool(s), ${tasks} task(s) to ${out}; ` +
        `${problems.length} note(s) on ${toolsWithNotes} tool(s) about what could not be mapped exactly` +
        `${read.unreadable.length ? `; ${read.unreadable.length} unreadable file(s)` : ""}` +
        `${loadErrors.length ? `; ${loadErrors.length} load error(s)` : "; all files load cleanly"}\n` +
        `${options.inference ? `${tallyLine(options.inference)}\n` : ""}`,
    );
  }
  return loadErrors.length > 0 || toolsets.length === 0 ? 1 : 0;
}
