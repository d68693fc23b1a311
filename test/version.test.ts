import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type HttpHandle, serveOverHttp, TOOLSIM_VERSION } from "../src/server/index.js";
import { connectHttp, openRuntime, runCli } from "./support/index.js";

/** The version is written once, in package.json; everything that states it reads it there. */
const PACKAGE = JSON.parse(readFileSync(resolve(import.meta.dirname, "../package.json"), "utf8")) as {
  version: string;
};

describe("toolsim's version", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("is package.json's, in the code, the MCP server's initialize answer and the CLI", async () => {
    expect(TOOLSIM_VERSION).toBe(PACKAGE.version);
    const runtime = await openRuntime();
    let handle: HttpHandle | undefined;
    close = async () => {
      await handle?.close();
      await runtime.dispose();
    };
    handle = await serveOverHttp(runtime.hub, {
      host: "127.0.0.1",
      port: 0,
      openSession: async (name) => (await runtime.engine.openSession({ name })).id,
    });
    const client = await connectHttp(handle.url);
    expect(client.getServerVersion()).toMatchObject({ name: "toolsim", version: PACKAGE.version });
    await client.close();
    const cli = await runCli(["--version"]);
    expect(cli.stdout).toBe(`${PACKAGE.version}\n`);
  });
});
