import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, connectStdio, tempDir } from "./support/index.js";

const PARTS = resolve(import.meta.dirname, "fixtures/limits/catalog.json");

/**
 * toolsim over stdio, spoken to line by line: the SDK client cannot even serialize some of
 * what a broken or hostile client sends (arguments nested 10,000 levels), so these calls
 * are written by hand.
 */
class RawStdio {
  private out = "";
  private readonly child: ChildProcessWithoutNullStreams;

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [CLI, "serve", "--stdio", ...args]);
    this.child.stdout.on("data", (d: Buffer) => {
      this.out += d.toString();
    });
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** The response with this id, parsed. */
  reply(
    id: number,
  ): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
    return new Promise((resolveReply, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply ${id}: ${this.out.slice(-500)}`)), 15_000);
      const check = () => {
        const line = this.out.split("\n").find((l) => l.includes(`"id":${id}}`) || l.includes(`"id":${id},`));
        if (!line) return;
        clearTimeout(timer);
        this.child.stdout.off("data", check);
        resolveReply(JSON.parse(line));
      };
      this.child.stdout.on("data", check);
      check();
    });
  }

  async call(id: number, name: string, argumentsJson: string) {
    this.send(
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${argumentsJson}}}`,
    );
    return this.reply(id);
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.child.once("exit", () => done());
      this.child.kill();
    });
  }
}

describe("argument limits over stdio", () => {
  const dir = tempDir();
  let stdio: RawStdio;

  beforeAll(async () => {
    stdio = new RawStdio(["--toolsets", PARTS, "--db", join(dir.path, "limits.db")]);
    stdio.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }),
    );
    await stdio.reply(1);
    stdio.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  });
  afterAll(async () => {
    await stdio.close();
    dir.cleanup();
  });

  it("refuses arguments nested 10,000 levels with an IFE finding that states the limit", async () => {
    let deep = "1";
    for (let i = 0; i < 10_000; i++) deep = `[${deep}]`;
    const answer = await stdio.call(2, "search_parts", `{"constructor": "Acme", "notes": {"tree": ${deep}}}`);
    expect(answer.error).toBeUndefined();
    expect(answer.result?.isError).toBe(true);
    const findings = (answer.result?._meta as Record<string, unknown> | undefined)?.["toolsim/findings"];
    expect(findings).toEqual([
      {
        code: "IFE",
        argument: "notes",
        message: expect.stringMatching(/nest deeper than 64 levels.*accepts at most 64/),
      },
    ]);
  });

  it("refuses arguments over 1 MB and keeps a note, not the arguments, in the call log", async () => {
    const answer = await stdio.call(3, "search_parts", `{"constructor": "${"A".repeat(3_000_000)}"}`);
    expect(answer.result?.isError).toBe(true);
    const meta = answer.result?._meta as Record<string, Array<{ code: string; message: string }>> | undefined;
    const [finding] = meta?.["toolsim/findings"] ?? [];
    expect(finding?.code).toBe("IFE");
    expect(finding?.message).toMatch(/larger than 1 MB of JSON.*at most 1 MB per call/);

    stdio.send(
      '{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{"uri":"toolsim://session/calls"}}',
    );
    const log = await stdio.reply(4);
    const text = (log.result?.contents as Array<{ text: string }> | undefined)?.[0]?.text ?? "";
    expect(text.length).toBeLessThan(50_000);
    const calls = (JSON.parse(text) as { calls: Array<{ arguments: Record<string, string> }> }).calls;
    expect(calls.at(-1)?.arguments["toolsim:omitted"]).toMatch(
      /^arguments not stored: The arguments are larger/,
    );
  });
});

describe("reserved argument names", () => {
  const dir = tempDir();
  afterAll(() => dir.cleanup());

  it("__proto__ always gets IAN; constructor only where the tool did not declare it", async () => {
    const { client } = await connectStdio(["--toolsets", PARTS, "--db", join(dir.path, "keys.db")]);
    const declared = await client.callTool({ name: "search_parts", arguments: { constructor: "Acme" } });
    expect(declared.isError).toBeFalsy();

    // parsed from JSON text, "__proto__" is an own key, as in any client that decodes a model's output
    const args = JSON.parse(
      '{"constructor": "Acme", "__proto__": {"isAdmin": true}, "notes": {"prototype": {}, "constructor": "x"}}',
    );
    const refused = await client.callTool({ name: "search_parts", arguments: args });
    expect(refused.isError).toBe(true);
    const findings = refused._meta?.["toolsim/findings"] as Array<{
      code: string;
      argument: string;
      message: string;
    }>;
    expect(findings.map((f) => [f.code, f.argument])).toEqual([
      ["IAN", "__proto__"],
      ["IAN", "notes.prototype"],
    ]);
    expect(findings[0]?.message).toContain('"__proto__" is reserved');
    await client.close();
  });
});
