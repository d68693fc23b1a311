import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, runCli, startFakeOpenAI, tempDir } from "./support/index.js";

const dir = tempDir();
let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
  dir.cleanup();
});

const tool = (name: string, description: string, parameters: string[], outputs = false) => ({
  name,
  description,
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(parameters.map((p) => [p, { type: "string", description: `The ${p}.` }])),
  },
  ...(outputs ? { outputSchema: { type: "object", properties: { ok: { type: "boolean" } } } } : {}),
});

function catalog(): string {
  const file = join(dir.path, "shelter.json");
  writeFileSync(
    file,
    JSON.stringify({
      id: "shelter",
      field: "Pet care",
      subdomain: "Shelters",
      description: "Adoption desk tools.",
      tools: [
        tool("pets_search", "Find a shelter pet by species and age for adoption.", ["species", "age"]),
        tool("search_pets", "Find a shelter pet by species and age for adoption.", ["species", "age"], true),
        tool("book_visit", "Book a visit to meet a pet at the shelter on a given day.", ["pet_id", "day"]),
        tool("print_label", "Print a kennel label with the pet's name.", ["pet_id"]),
      ],
    }),
  );
  return file;
}

describe("toolsim dedup", () => {
  it("offline: groups near-duplicates by TF-IDF and keeps the more complete tool", async () => {
    const run = await runCli(["dedup", "--toolsets", catalog(), "--lexical", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ method: "lexical", threshold: 0.85, tools: 4 });
    expect(report.components).toEqual([{ keep: "search_pets", members: ["pets_search", "search_pets"] }]);
    expect(report.drops).toEqual([
      expect.objectContaining({ tool: "pets_search", toolset: "shelter", keep: "search_pets" }),
    ]);
    expect(report.drops[0].reason).toContain("described more completely");
  });

  it("a lower threshold joins more tools; the text report says why", async () => {
    const run = await runCli(["dedup", "--toolsets", catalog(), "--lexical", "--threshold", "0.05"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/drop shelter\/pets_search: \d+% similar to search_pets/);
    expect(run.stdout).toMatch(/4 tools compared \(lexical, threshold 0\.05\)/);
  });

  it("uses the embeddings endpoint when one is configured", async () => {
    const run = await runCli(
      ["dedup", "--toolsets", catalog(), "--llm-base-url", fake.url, "--model", "sim", "--json"],
      { OPENAI_API_KEY: "" },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.method).toBe("embeddings");
    const request = fake.requests.find((r) => r.path === "/v1/embeddings");
    expect(request?.input).toHaveLength(4);
    expect(report.drops.map((d: { tool: string }) => d.tool)).toEqual(["pets_search"]);
  });

  it("rejects a threshold outside (0, 1]", async () => {
    const run = await runCli(["dedup", "--toolsets", catalog(), "--threshold", "2"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--threshold");
  });
});
