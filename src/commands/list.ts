import { CATALOG_HELP, CATALOG_OPTIONS, loadCatalog } from "./catalog-options.js";
import type { Command } from "./command.js";
import { parseArgs } from "./options.js";
import { summary } from "./serve.js";

const HELP = `toolsim list — show the catalog: toolsets, their tools and tasks

Usage: toolsim list [--json] [options]

  --json               print the catalog as JSON (toolsets with tool names, effects and tasks)
${CATALOG_HELP}
`;

export const listCommand: Command = {
  name: "list",
  help: HELP,
  async run(argv) {
    const { values } = parseArgs({
      args: argv,
      options: { ...CATALOG_OPTIONS, json: { type: "boolean" } },
      strict: true,
    });
    const loaded = loadCatalog(values, { checkSchemas: false });
    if (!loaded) return 1;
    const { catalog } = loaded;
    if (values.json) {
      const toolsets = catalog.toolsets.map((t) => ({
        id: t.id,
        name: t.name,
        field: t.field,
        subdomain: t.subdomain,
        description: t.description,
        tools: t.tools.map((tool) => ({
          name: tool.name,
          description: tool.description,
          readOnly: tool.annotations?.readOnlyHint ?? false,
          effects: tool.effects.map((e) => ("target" in e ? `${e.kind} ${e.target}` : e.kind)),
        })),
        tasks: t.tasks.map((task) => ({
          id: task.id,
          difficulty: task.difficulty,
          valid: task.valid,
          description: task.description,
          solutionCalls: task.solution.length,
        })),
      }));
      process.stdout.write(`${JSON.stringify({ toolsets }, null, 2)}\n`);
      return 0;
    }
    const lines = [`${summary(catalog)}`, ""];
    for (const toolset of catalog.toolsets) {
      lines.push(
        `${toolset.id} — ${toolset.name ?? toolset.subdomain} (${toolset.field} › ${toolset.subdomain})`,
      );
      for (const tool of toolset.tools) {
        const kind = tool.annotations?.readOnlyHint ? "read " : "write";
        const effects = tool.effects.length
          ? ` [${tool.effects.length} effect${tool.effects.length === 1 ? "" : "s"}]`
          : "";
        lines.push(`  ${kind}  ${tool.name}${effects}`);
      }
      for (const task of toolset.tasks) {
        lines.push(`  task   ${task.id} (${task.difficulty}${task.valid ? "" : ", invalid"})`);
      }
      lines.push("");
    }
    process.stdout.write(lines.join("\n"));
    return 0;
  },
};
