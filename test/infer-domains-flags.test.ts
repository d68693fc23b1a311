import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  DOMAINS,
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  useDomain,
} from "./support/domain-session.js";

const CLI = resolve(import.meta.dirname, "../dist/cli.js");

/**
 * A feature-flag service: flags keyed by their key in a map whose records do not repeat it,
 * as a key-value store keeps them. Reads and updates of one flag answer its key; lists of keys
 * answer the map's keys. Served without effects.
 */

const flags = useDomain("flags.json");

const keys = async (tool: string, args: Record<string, unknown> = {}) =>
  expectOk(await flags.call(tool, args)).flag_keys;

describe("feature flags: a map keyed by flag key, records without their key", () => {
  it("a flag answers its stored fields and the key it was read by, none guessed", async () => {
    const answer = await flags.call("get_flag", { flag_key: "search-v2" });
    expectRecord(answer, {
      key: "search-v2",
      description: "Search on the new index",
      enabled: true,
      rollout_percent: 25,
      tags: ["search"],
    });
    expectGrounded(answer, ["key", "description", "enabled", "rollout_percent", "tags"]);
    expectError(await flags.call("get_flag", { flag_key: "no-such-flag" }), "FLAG_NOT_FOUND");
  });

  it("an update answers the changed flag under its key, and a later read sees it", async () => {
    const updated = await flags.call("update_flag", {
      flag_key: "new-checkout",
      enabled: true,
      rollout_percent: 10,
    });
    expectRecord(
      updated,
      { key: "new-checkout", enabled: true, rollout_percent: 10 },
      { description: "The one-page checkout", tags: ["payments", "beta"] },
    );
    expectGrounded(updated, ["key", "enabled", "rollout_percent"]);
    expect.soft(expectOk(await flags.call("get_flag", { flag_key: "new-checkout" }))).toMatchObject({
      key: "new-checkout",
      enabled: true,
      rollout_percent: 10,
    });
  });

  it("the list of keys is the map's keys, and follows a delete", async () => {
    expect.soft(await keys("list_flag_keys")).toEqual(["dark-mode", "new-checkout", "search-v2"]);
    expectOk(await flags.call("delete_flag", { flag_key: "dark-mode" }));
    expect.soft(await keys("list_flag_keys")).toEqual(["new-checkout", "search-v2"]);
    expectError(await flags.call("get_flag", { flag_key: "dark-mode" }), "FLAG_NOT_FOUND");
  });

  it("a filter that names no field of a flag leaves the keys unfiltered, and the report says so", async () => {
    const answer = await flags.call("list_team_flags", { team: "payments" });
    expect.soft(expectOk(answer).flag_keys).toEqual(["dark-mode", "new-checkout", "search-v2"]);
    const printed = execFileSync(process.execPath, [CLI, "infer", join(DOMAINS, "flags.json"), "--json"], {
      encoding: "utf8",
    });
    const report = (
      JSON.parse(printed) as { report: Array<{ tool: string; verdict: string; gaps: string[] }> }
    ).report;
    expect.soft(report.find((t) => t.tool === "list_team_flags")).toMatchObject({
      verdict: "partly",
      gaps: [expect.stringMatching(/team names no field of flags/)],
    });
  });
});
