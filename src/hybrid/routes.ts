import { wordsOf } from "../simulate/index.js";
import type { RouteLists } from "./config.js";

/**
 * Which upstream tools run for real and which are simulated. First match wins:
 * explicit lists → annotations → name → simulate. When unsure, simulate: annotations are
 * declared by the server itself and a wrongly passed write changes the real world.
 */

export type Route = "pass" | "simulate";
export type RouteMode = "hybrid" | "all-simulated" | "all-real";

export interface RouteDecision {
  route: Route;
  /** Which rule decided. */
  rule: "mode" | "config" | "annotations" | "name" | "default";
  reason: string;
}

export interface RoutedTool {
  /** The name the upstream knows the tool by. */
  original: string;
  /** The name toolsim exposes (prefixed unless bare). */
  exposed: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean };
}

/** Verbs that begin the name of a tool that only looks things up. */
export const READ_VERBS = new Set([
  "get",
  "list",
  "search",
  "read",
  "describe",
  "find",
  "fetch",
  "view",
  "show",
  "query",
  "lookup",
  "retrieve",
  "browse",
  "inspect",
  "count",
  "stat",
]);

/** Words that, anywhere in a name, mean the tool may change something (`get_or_create_user`). */
const CHANGE_WORDS = new Set([
  "create",
  "add",
  "insert",
  "write",
  "update",
  "set",
  "edit",
  "modify",
  "patch",
  "put",
  "post",
  "send",
  "delete",
  "remove",
  "drop",
  "move",
  "rename",
  "copy",
  "upload",
  "run",
  "exec",
  "execute",
  "apply",
  "commit",
  "push",
  "merge",
  "publish",
  "cancel",
  "approve",
  "close",
  "archive",
  "purge",
  "reset",
  "clear",
  "save",
  "store",
  "register",
  "grant",
  "revoke",
  "invite",
  "assign",
  "book",
  "pay",
  "transfer",
  "kill",
  "stop",
  "start",
  "restart",
  "deploy",
  "install",
]);

export function decideRoute(tool: RoutedTool, lists: RouteLists, mode: RouteMode): RouteDecision {
  if (mode === "all-simulated") return { route: "simulate", rule: "mode", reason: "--all-simulated" };
  if (mode === "all-real") return { route: "pass", rule: "mode", reason: "--all-real" };
  const simulated = lists.simulate.find((glob) => matchesTool(glob, tool));
  if (simulated)
    return { route: "simulate", rule: "config", reason: `routes.simulate matches "${simulated}"` };
  const passed = lists.pass.find((glob) => matchesTool(glob, tool));
  if (passed) return { route: "pass", rule: "config", reason: `routes.pass matches "${passed}"` };
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) {
    return { route: "pass", rule: "annotations", reason: "annotations say readOnlyHint: true" };
  }
  if (hints?.readOnlyHint === false || hints?.destructiveHint === true) {
    const which = hints.readOnlyHint === false ? "readOnlyHint: false" : "destructiveHint: true";
    return { route: "simulate", rule: "annotations", reason: `annotations say ${which}` };
  }
  const words = wordsOf(tool.original);
  const changing = words.find((w) => CHANGE_WORDS.has(w));
  const verb = words[0];
  if (verb && READ_VERBS.has(verb) && !changing) {
    return { route: "pass", rule: "name", reason: `the name starts with the read verb "${verb}"` };
  }
  const why = changing
    ? `the name has "${changing}"`
    : verb && READ_VERBS.has(verb)
      ? "unsure"
      : "no rule says it only reads";
  return { route: "simulate", rule: "default", reason: `${why}: simulated to be safe` };
}

/** A glob (`*` any run, `?` one character) against the tool's upstream name or its exposed name. */
export function matchesTool(glob: string, tool: RoutedTool): boolean {
  const pattern = globPattern(glob);
  return pattern.test(tool.original) || pattern.test(tool.exposed);
}

const compiled = new Map<string, RegExp>();

function globPattern(glob: string): RegExp {
  let pattern = compiled.get(glob);
  if (!pattern) {
    const body = glob
      .split("")
      .map((c) => (c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
      .join("");
    pattern = new RegExp(`^${body}$`);
    compiled.set(glob, pattern);
  }
  return pattern;
}
