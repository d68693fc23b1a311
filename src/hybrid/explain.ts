import type { UpstreamBinding } from "./bindings.js";
import type { UpstreamConnection } from "./connection.js";
import { describeSpec } from "./hybrid.js";

/** The route table `serve --explain-routes` prints: per upstream, each tool, its route and why. */
export function explainRoutes(
  connections: readonly UpstreamConnection[],
  bindings: readonly UpstreamBinding[],
): string {
  const lines: string[] = [];
  const width = Math.max(8, ...bindings.map((b) => b.exposed.length));
  for (const connection of connections) {
    const own = bindings.filter((b) => b.upstream === connection.name);
    const server = connection.serverInfo?.name ? `, server ${connection.serverInfo.name}` : "";
    lines.push(
      `upstream ${connection.name} (${describeSpec(connection.spec)}${server}): ${own.length} tool(s)`,
    );
    for (const binding of own) {
      const route = binding.decision.route === "pass" ? "pass" : "simulate";
      lines.push(`  ${binding.exposed.padEnd(width)}  ${route.padEnd(8)}  ${binding.decision.reason}`);
    }
    lines.push("");
  }
  const passed = bindings.filter((b) => b.decision.route === "pass").length;
  lines.push(
    `${passed} tool(s) pass through to the real server; ${bindings.length - passed} are simulated, and the real system never sees them.`,
  );
  return `${lines.join("\n")}\n`;
}
