import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  bash,
  checkout,
  checkoutEnv,
  commandsOf,
  DocRun,
  fence,
  lineOf,
  type Serving,
  startServing,
} from "./support/docs.js";
import { connectHttp, tempDir } from "./support/index.js";

/**
 * The README's first steps in a source checkout: `npm run build`, and `npm start`, which
 * serves on 127.0.0.1:3333 and prints the banner the README shows. The checkout is a copy,
 * so its builds leave the dist/ that the other tests run alone.
 */
const README = "README.md";
const doc = new DocRun(import.meta.filename);
const quickStart = fence(README, { heading: "toolsim", lang: "sh" });
const banner = fence(README, { heading: "What `npm start` gives you" });
const development = fence(README, { heading: "Development", lang: "sh" });

const dir = tempDir("toolsim-start-docs-");
let root = "";
const env = checkoutEnv;

beforeAll(() => {
  root = checkout(join(realpathSync(dir.path), "toolsim"));
});
afterAll(() => dir.cleanup());

describe("the README in a source checkout", () => {
  it("npm run build builds dist/", async () => {
    const line = lineOf(development, "npm run build");
    const built = await bash(line, root, env());
    expect(built.code, built.stderr).toBe(0);
    expect(existsSync(join(root, "dist", "cli.js"))).toBe(true);
    doc.ran(development, "npm run build");
  }, 180_000);

  it("npm start serves the shipped tools on 127.0.0.1:3333 and prints the README's banner", async () => {
    const line = lineOf(quickStart, "npm start");
    expect(commandsOf(quickStart)).toContain("npm start");
    const server = await startOnItsPort(line);
    try {
      expect(server.url).toBe("http://127.0.0.1:3333/mcp");
      const client = await connectHttp(server.url);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("get_order");
      const order = await client.callTool({ name: "get_order", arguments: { order_id: "ORD-1001" } });
      expect(order.isError).toBeFalsy();
      await client.close();
      // the banner as the README shows it, where the checkout is /path/to/toolsim
      const shown = banner.code.replaceAll("/path/to/toolsim", root);
      expect(server.stdout()).toContain(shown);
    } finally {
      await server.stop();
    }
    expect(existsSync(join(root, "state", "toolsim.db"))).toBe(true);
    doc.ran(quickStart, "npm start");
    doc.ran(banner);
  }, 240_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});

/**
 * `npm start` takes port 3333, as the README says. Another program on this machine may hold
 * it for a while (another checkout's suite, say): then toolsim says so and exits, and the
 * test waits and starts it again rather than take another port the README does not show.
 */
async function startOnItsPort(line: string): Promise<Serving> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServing(line, root, env(), 180_000);
    } catch (error) {
      const busy =
        error instanceof Error && error.message.includes("port 3333 on 127.0.0.1 is already in use");
      if (!busy || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
  }
}
