#!/usr/bin/env node
import { COMMANDS, UsageError } from "./commands/index.js";

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "toolsim — an MCP server whose tools are simulated",
    "",
    "Usage: toolsim <command> [options]     toolsim <command> --help for its options",
    "",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    "",
  ].join("\n");
}

// a reader that stops early (`toolsim infer … | head`) closes the pipe: the output is done, not broken
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    process.stdout.write(overview());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    // loaded only when asked: every other command starts without the server's modules
    const { TOOLSIM_VERSION } = await import("./server/index.js");
    process.stdout.write(`${TOOLSIM_VERSION}\n`);
    return 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    process.stderr.write(`toolsim: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  const command = await entry.load();
  // what follows `--` belongs to another program (`import mcp -- node server.js --help`)
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (own.includes("--help") || own.includes("-h")) {
    process.stdout.write(command.helpFor?.(own) ?? command.help);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      process.stderr.write(
        `toolsim ${command.name}: ${(error as Error).message}\n(see toolsim ${command.name} --help)\n`,
      );
      return 2;
    }
    throw error;
  }
}

function isParseArgsError(error: unknown): boolean {
  return error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS");
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // a user gets the message; whoever debugs toolsim itself can ask for the stack
    const debug = Boolean(process.env.TOOLSIM_DEBUG);
    const text =
      error instanceof Error ? (debug ? (error.stack ?? error.message) : error.message) : String(error);
    process.stderr.write(
      `toolsim: ${text}\n${debug ? "" : "(set TOOLSIM_DEBUG=1 to see where it happened)\n"}`,
    );
    process.exitCode = 1;
  },
);
