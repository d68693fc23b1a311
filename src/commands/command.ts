/** A CLI command: its name, one line for the overview, its help text, and what it does. */
export interface Command {
  name: string;
  summary: string;
  help: string;
  /** Resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

/** A mistake in how the command was invoked: printed with the command's help, exit code 2. */
export class UsageError extends Error {}
