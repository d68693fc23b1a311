import type { Tool } from "../../catalog/index.js";

/** The tool's specification, as the author of the catalog wrote it (trusted text). */
export function toolSpec(tool: Tool, options: { output?: boolean } = {}): string {
  const lines = [
    `Tool: ${tool.name}${tool.title ? ` (${tool.title})` : ""}`,
    `Description: ${tool.description}`,
  ];
  if (tool.usage) lines.push(`Usage: ${tool.usage}`);
  if (tool.annotations) {
    const hints = Object.entries(tool.annotations)
      .filter(([key, value]) => key !== "title" && value !== undefined)
      .map(([key, value]) => `${key}=${String(value)}`);
    if (hints.length) lines.push(`Annotations: ${hints.join(", ")}`);
  }
  lines.push("", "Parameters (JSON Schema):", "```json", JSON.stringify(tool.inputSchema, null, 2), "```");
  if (options.output !== false) {
    if (tool.outputSchema) {
      lines.push(
        "",
        "Output schema (JSON Schema) the result must satisfy:",
        "```json",
        JSON.stringify(tool.outputSchema, null, 2),
        "```",
      );
    } else {
      lines.push(
        "",
        "Output schema: none declared; return the JSON object a real API of this kind would return.",
      );
    }
  }
  lines.push("", "Documented errors:");
  if (tool.errors.length === 0) lines.push("- none documented");
  for (const error of tool.errors) lines.push(`- ${error.code} (HTTP ${error.status}): ${error.when}`);
  if (tool.effects.length > 0) {
    lines.push("", "Declared effects (rules the simulator runs before you; their outcome is given below):");
    for (const effect of tool.effects) lines.push(`- ${JSON.stringify(effect)}`);
  }
  return lines.join("\n");
}
