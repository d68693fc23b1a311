import { type ParseArgsConfig, parseArgs as parseNodeArgs } from "node:util";
import { nearest } from "../catalog/index.js";
import { UsageError } from "./command.js";

/**
 * node:util's parseArgs, with one difference: an unknown option is a usage error that names
 * the nearest option the command has (`--prot`: did you mean --port?). Every command parses
 * its options through it.
 */
export function parseArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseNodeArgs<T>> {
  try {
    return parseNodeArgs(config);
  } catch (error) {
    throw unknownOption(error, config) ?? error;
  }
}

function unknownOption(error: unknown, config: ParseArgsConfig): UsageError | undefined {
  if (!(error instanceof Error) || !("code" in error) || error.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return undefined;
  const given = /'(-[^']*)'/.exec(error.message)?.[1];
  if (!given) return undefined;
  const typed = given.split("=")[0] ?? given;
  const longs = Object.keys(config.options ?? {}).map((name) => `--${name}`);
  const near = nearest(typed.replace(/^-+/, ""), longs, 2);
  const hint = near.length ? `; did you mean ${near.join(" or ")}?` : "";
  return new UsageError(`unknown option ${typed}${hint}`);
}
