import { describe, expect, it } from "vitest";
import { decideRoute, type RouteDecision } from "../src/hybrid/index.js";

/**
 * Hybrid routing word by word: the names that pass to the real server, and every word that
 * keeps a name simulated. A write wrongly passed through changes the real world, so each
 * word of each rule is stated here, not sampled.
 */

const noLists = { pass: [], simulate: [] };

function route(
  original: string,
  extra: { parameters?: string[]; annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean } } = {},
): RouteDecision {
  return decideRoute({ original, exposed: `up.${original}`, ...extra }, noLists, "hybrid");
}

const LOOKUP_VERBS = [
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
];

const DESTRUCTIVE = [
  "delete",
  "remove",
  "destroy",
  "drop",
  "purge",
  "erase",
  "unregister",
  "wipe",
  "truncate",
  "unlink",
  "rm",
  "rmdir",
  "kill",
  "terminate",
  "shutdown",
  "revoke",
  "reset",
  "clear",
  "overwrite",
  "uninstall",
  "discard",
  "flush",
  "cancel",
];

const CHANGES = [
  "create",
  "add",
  "insert",
  "write",
  "update",
  "upsert",
  "set",
  "edit",
  "modify",
  "patch",
  "put",
  "post",
  "send",
  "move",
  "rename",
  "copy",
  "replace",
  "upload",
  "run",
  "exec",
  "execute",
  "invoke",
  "apply",
  "commit",
  "push",
  "pull",
  "merge",
  "publish",
  "submit",
  "approve",
  "reject",
  "accept",
  "confirm",
  "close",
  "archive",
  "save",
  "store",
  "register",
  "grant",
  "invite",
  "assign",
  "book",
  "reserve",
  "pay",
  "transfer",
  "stop",
  "start",
  "restart",
  "deploy",
  "install",
  "increment",
  "decrement",
  "incr",
  "decr",
  "bump",
  "claim",
  "lock",
  "unlock",
  "acquire",
  "mark",
  "ack",
  "acknowledge",
  "consume",
  "dequeue",
  "enqueue",
  "pop",
  "take",
  "advance",
  "toggle",
  "touch",
  "notify",
  "reply",
  "vote",
  "like",
  "subscribe",
  "unsubscribe",
  "follow",
  "unfollow",
];

const VAGUE = [
  "query",
  "run",
  "execute",
  "exec",
  "call",
  "invoke",
  "eval",
  "evaluate",
  "do",
  "perform",
  "process",
  "handle",
  "request",
  "sql",
  "command",
  "cmd",
  "shell",
  "script",
  "action",
  "operation",
  "tool",
  "api",
  "rpc",
];

describe("names that only read pass to the real server", () => {
  it.each(LOOKUP_VERBS)("%s_records", (verb) => {
    expect(route(`${verb}_records`)).toEqual({
      route: "pass",
      rule: "name",
      reason: `the name starts with the read verb "${verb}"`,
    });
  });

  it("whatever the case or separators of the name", () => {
    expect(route("getUserProfile").route).toBe("pass");
    expect(route("List-Open-Issues").route).toBe("pass");
  });

  it("paging forward is still reading", () => {
    for (const word of ["page", "pages", "cursor", "results", "batch", "chunk", "token"])
      expect({ word, ...route(`get_next_${word}`) }).toMatchObject({ word, route: "pass" });
  });

  it("a second read after a connector is still reading", () => {
    expect(route("get_and_list_files").route).toBe("pass");
    expect(route("find_then_fetch_records").route).toBe("pass");
  });
});

describe("names that may change something are simulated", () => {
  it.each(DESTRUCTIVE)(
    "destroys: %s, first, last or after a connector, whatever the annotations say",
    (word) => {
      const reason = `the name says it destroys ("${word}"), whatever the annotations say; routes.pass can make it real`;
      const readOnly = { annotations: { readOnlyHint: true } };
      for (const name of [
        `${word}_records`,
        `records_${word}`,
        `fetch_and_${word}_records`,
        `get_or_${word}_records`,
      ])
        expect({ name, ...route(name, readOnly) }).toEqual({ name, route: "simulate", rule: "name", reason });
    },
  );

  it("a destructive word in the middle qualifies a noun: the name is judged by its other words", () => {
    expect(route("get_cancel_reasons")).toMatchObject({ route: "simulate", rule: "default" });
    expect(route("get_cancel_reasons", { annotations: { readOnlyHint: true } })).toMatchObject({
      route: "pass",
      rule: "annotations",
    });
  });

  it.each(CHANGES)("changes: get_%s_records", (word) => {
    expect(route(`get_${word}_records`)).toEqual({
      route: "simulate",
      rule: "default",
      reason: `the name has "${word}": simulated to be safe`,
    });
  });

  it.each(VAGUE)("says nothing: %s", (word) => {
    expect(route(word)).toEqual({
      route: "simulate",
      rule: "default",
      reason: "the name says nothing of what it does: simulated to be safe",
    });
  });

  it("several vague words still say nothing", () => {
    expect(route("run_sql_query").reason).toBe("the name says nothing of what it does: simulated to be safe");
  });

  it("next advances a queue or a cursor", () => {
    for (const name of ["get_next_job", "fetch_next", "get_next_next_page"])
      expect({ name, ...route(name) }).toEqual({
        name,
        route: "simulate",
        rule: "default",
        reason: 'the name has "next": it may advance a queue or cursor: simulated to be safe',
      });
  });

  it("a second action after a connector", () => {
    expect(route("get_user_and_frobnicate")).toEqual({
      route: "simulate",
      rule: "default",
      reason: 'the name does more than read ("and_frobnicate"): simulated to be safe',
    });
    expect(route("find_then_ping").reason).toBe(
      'the name does more than read ("then_ping"): simulated to be safe',
    );
  });

  it("a tool that takes something to run does whatever it says", () => {
    for (const parameter of [
      "sql",
      "statement",
      "statements",
      "command",
      "cmd",
      "script",
      "code",
      "shell",
      "raw_sql",
    ])
      expect({ parameter, ...route("get_rows", { parameters: ["limit", parameter] }) }).toEqual({
        parameter,
        route: "simulate",
        rule: "default",
        reason: `it runs what its "${parameter}" argument says: simulated to be safe`,
      });
    expect(route("get_rows", { parameters: ["sql_limit", "limit"] }).route).toBe("pass");
  });

  it("a name that does not start with a read verb", () => {
    for (const name of ["frobnicate", "records_get", "ping"])
      expect(route(name)).toEqual({
        route: "simulate",
        rule: "default",
        reason: "no rule says it only reads: simulated to be safe",
      });
  });
});

describe("annotations and the config", () => {
  it("say what the name cannot, in their order", () => {
    expect(route("frobnicate", { annotations: { readOnlyHint: true } })).toEqual({
      route: "pass",
      rule: "annotations",
      reason: "annotations say readOnlyHint: true",
    });
    expect(route("get_records", { annotations: { readOnlyHint: false } })).toEqual({
      route: "simulate",
      rule: "annotations",
      reason: "annotations say readOnlyHint: false",
    });
    expect(route("get_records", { annotations: { destructiveHint: true } })).toEqual({
      route: "simulate",
      rule: "annotations",
      reason: "annotations say destructiveHint: true",
    });
    expect(route("get_records", { annotations: { readOnlyHint: true, destructiveHint: true } })).toEqual({
      route: "simulate",
      rule: "annotations",
      reason: "annotations contradict themselves (readOnlyHint: true, destructiveHint: true)",
    });
    expect(route("get_records", { annotations: { destructiveHint: false } }).rule).toBe("name");
  });

  it("lists match the upstream or the exposed name by glob: * any run, ? one character, the rest literally", () => {
    const tool = { original: "delete_file", exposed: "fs.delete_file" };
    const decide = (pass: string[], simulate: string[] = []) =>
      decideRoute(tool, { pass, simulate }, "hybrid");
    expect(decide(["delete_*"])).toEqual({
      route: "pass",
      rule: "config",
      reason: 'routes.pass matches "delete_*"',
    });
    expect(decide(["fs.delete_fil?"]).route).toBe("pass");
    expect(decide(["fs?delete_file"]).route).toBe("pass");
    expect(decide(["fs.delete_fil"]).route).toBe("simulate");
    expect(decide(["elete_file"]).route).toBe("simulate");
    expect(decide(["fsxdelete_file"]).route).toBe("simulate");
    expect(decide(["fs\\.delete_file"]).route).toBe("simulate");
    expect(decide(["(delete_file)"]).route).toBe("simulate");
    expect(decide(["delete_file"], ["fs.*"])).toEqual({
      route: "simulate",
      rule: "config",
      reason: 'routes.simulate matches "fs.*"',
    });
    const dotted = { original: "a.b", exposed: "x.a.b" };
    expect(decideRoute(dotted, { pass: ["a.b"], simulate: [] }, "hybrid").rule).toBe("config");
    expect(
      decideRoute({ original: "axb", exposed: "x.axb" }, { pass: ["a.b"], simulate: [] }, "hybrid").rule,
    ).toBe("default");
  });

  it("the modes decide before anything else", () => {
    const tool = { original: "delete_file", exposed: "fs.delete_file" };
    const lists = { pass: [], simulate: ["*"] };
    expect(decideRoute(tool, lists, "all-real")).toEqual({
      route: "pass",
      rule: "mode",
      reason: "--all-real",
    });
    expect(
      decideRoute({ ...tool, original: "get_x" }, { pass: ["*"], simulate: [] }, "all-simulated"),
    ).toEqual({
      route: "simulate",
      rule: "mode",
      reason: "--all-simulated",
    });
  });
});
