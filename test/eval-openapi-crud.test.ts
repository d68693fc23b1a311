import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { McpConnection } from "../eval/mcp-client.js";
import { OPENAPI_KINDS } from "../eval/openapi-crud.js";
import { type CatalogReport, sequencesAt } from "../eval/self-consistency.js";
import { plansFor } from "../eval/sequences.js";
import { profileTools } from "../eval/tool-roles.js";
import { type RunningServer, runCli, startHttpServer, tempDir } from "./support/index.js";

/**
 * The OpenAPI CRUD measure on the pet store fixture, end to end as the evaluation runs it:
 * `toolsim import openapi` as a user runs it, `toolsim serve`, the sequences over MCP. What
 * toolsim answers is measured, not asserted here: the figures move as the simulation gets
 * better; the test holds the measurement itself to account.
 */

const PETSTORE = resolve(import.meta.dirname, "fixtures/openapi-petstore/petstore.yaml");

describe("OpenAPI specs imported as they are: the pet store", () => {
  const work = tempDir("toolsim-eval-openapi-");
  const toolsets = join(work.path, "toolsets");
  let server: RunningServer;
  let report: CatalogReport;

  beforeAll(async () => {
    const imported = await runCli(["import", "openapi", PETSTORE, "--out", toolsets, "--quiet"]);
    expect(imported.code, imported.stderr).toBe(0);
    server = await startHttpServer([
      "--toolsets",
      toolsets,
      "--no-control-tools",
      "--engine",
      "offline",
      "--db",
      join(work.path, "t.db"),
    ]);
    report = await sequencesAt("pet store", server.url, toolsets, { kinds: OPENAPI_KINDS, limit: 0 });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    work.cleanup();
  });

  it("reads the five operations as a create, a read by id, an update, a delete and a list of one thing", async () => {
    const connection = await McpConnection.open({ url: server.url });
    const profiles = profileTools(await connection.tools());
    await connection.close();
    const roles = Object.fromEntries(profiles.map((p) => [p.tool.name, [p.role, p.idArg ?? ""]]));
    expect(roles).toEqual({
      listPets: ["list", ""],
      createPet: ["create", ""],
      showPetById: ["read", "petId"],
      updatePet: ["update", "petId"],
      deletePet: ["delete", "petId"],
    });
    const labels = plansFor({ profiles }, OPENAPI_KINDS).map((p) => p.label);
    expect(labels).toContain("crud-chain createPet");
  });

  it("calls every operation, checks each answer against its output schema, and runs the chain", () => {
    expect(report.tools).toBe(5);
    // a small catalog's plans run in several rounds, each with other arguments
    const rounds = report.sequences["crud-chain"]?.planned ?? 0;
    expect(rounds).toBeGreaterThanOrEqual(1);
    expect(report.sequences["single-call"]?.planned).toBe(5 * rounds);
    expect(report.rejected.calls).toBe(0);
    // four operations declare an output schema; every successful answer of theirs is checked
    expect(report.contradictions["outside-output-schema"].checked).toBeGreaterThanOrEqual(4);
    const chainChecks = Object.entries(report.contradictions)
      .filter(([kind]) => kind !== "outside-output-schema")
      .reduce((n, [, tally]) => n + tally.checked, 0);
    expect(chainChecks).toBeGreaterThan(0);
    for (const tally of Object.values(report.contradictions)) {
      expect(tally.contradicted).toBeLessThanOrEqual(tally.checked);
      expect(tally.examples.length).toBe(Math.min(3, tally.contradicted));
    }
  });
});
