/** A CLI command: its name, its help text, and what it does (its one-line summary is in the registry). */
export interface Command {
  name: string;
  help: string;
  /** The help for these arguments when it depends on them (`import mcp --help`); `help` otherwise. */
  helpFor?(argv: string[]): string;
  /** Resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** A mistake in how the command was invoked: printed with the command's help, exit code 2. */
export class UsageError extends Error {}
