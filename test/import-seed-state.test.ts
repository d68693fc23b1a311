import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MEMORY_SERVER } from "./fixtures/hybrid/helpers.js";
import { connectStdio, runCli, tempDir } from "./support/index.js";

/**
 * `toolsim import … --seed-state N`: a catalog without a state starts from N entities per
 * collection, written into the toolset file, and served over real stdio to the MCP SDK client,
 * whose tools read, list, update, delete and create them.
 */
const FIXTURES = resolve(import.meta.dirname, "fixtures");
const PETSTORE = join(FIXTURES, "openapi-petstore/petstore.yaml");
const CLINIC = join(FIXTURES, "openapi-seed/clinic.yaml");
const dir = tempDir();
afterAll(() => dir.cleanup());

type Client = Awaited<ReturnType<typeof connectStdio>>["client"];
type World = Record<string, Record<string, Record<string, unknown>>>;

async function imported(
  source: string,
  name: string,
  ...flags: string[]
): Promise<{ file: string; state: World }> {
  const out = join(dir.path, name);
  const run = await runCli(["import", "openapi", source, "--out", out, "--quiet", ...flags]);
  expect(run.code, run.stderr).toBe(0);
  const [file] = readdirSync(out).filter((f) => f.endsWith(".json"));
  const path = join(out, file as string);
  return { file: path, state: JSON.parse(readFileSync(path, "utf8")).state };
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: Boolean(result.isError), content: result.structuredContent as Record<string, unknown> };
}

async function served<T>(file: string, db: string, use: (client: Client) => Promise<T>): Promise<T> {
  const { client, stderr } = await connectStdio(["--toolsets", file, "--db", join(dir.path, db)]);
  try {
    return await use(client);
  } catch (error) {
    throw new Error(`${String(error)}\nserver said: ${stderr()}`);
  } finally {
    await client.close();
  }
}

describe("toolsim import openapi --seed-state N", () => {
  it("seeds a pet store whose own tools list, read, update, delete and create over stdio", async () => {
    const { file, state } = await imported(PETSTORE, "petstore", "--seed-state", "3");
    expect(Object.keys(state.pets ?? {})).toEqual(["1", "2", "3"]);
    await served(file, "petstore.db", async (client) => {
      // the SDK client checks every answer against the tool's output schema
      const listed = await call(client, "listPets", {});
      const pets = listed.content.result as Array<Record<string, unknown>>;
      expect(pets.map((p) => p.id)).toEqual([1, 2, 3]);
      for (const pet of pets) expect(pet).toEqual(state.pets?.[String(pet.id)]);

      const two = await call(client, "showPetById", { petId: 2 });
      expect(two).toEqual({ isError: false, content: state.pets?.["2"] });

      const updated = await call(client, "updatePet", { petId: 2, name: "Biscuit", status: "reserved" });
      expect(updated.isError).toBe(false);
      const after = await call(client, "showPetById", { petId: 2 });
      expect(after.content).toEqual({ ...state.pets?.["2"], name: "Biscuit", status: "reserved" });

      expect((await call(client, "deletePet", { petId: 1 })).isError).toBe(false);
      expect((await call(client, "showPetById", { petId: 1 })).isError).toBe(true);

      const created = await call(client, "createPet", { name: "Pepper", species: "cat", age_years: 2 });
      expect(created.isError).toBe(false);
      expect(created.content.id).toBe(4);
      const again = await call(client, "showPetById", { petId: 4 });
      expect(again.content).toMatchObject({ id: 4, name: "Pepper", species: "cat", age_years: 2 });
      const now = await call(client, "listPets", {});
      expect((now.content.result as Array<{ id: number }>).map((p) => p.id)).toEqual([2, 3, 4]);
    });
  }, 90_000);

  it("numbers string ids as the schema shows them, points references at seeded entities, and mints past them", async () => {
    const { file, state } = await imported(CLINIC, "clinic", "--seed-state", "3", "--seed", "11");
    const owners = state.owners ?? {};
    const pets = state.pets ?? {};
    const visits = state.visits ?? {};
    expect(Object.keys(owners)).toEqual(["OWN-0001", "OWN-0002", "OWN-0003"]);
    expect(Object.keys(pets)).toEqual(["1", "2", "3"]);
    expect(Object.keys(visits)).toHaveLength(3);
    for (const [key, visit] of Object.entries(visits)) {
      expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(visit.id).toBe(key);
      expect(Object.keys(pets)).toContain(String(visit.pet_id));
      expect(typeof visit.pet_id).toBe("number");
    }
    for (const pet of Object.values(pets)) expect(Object.keys(owners)).toContain(pet.owner_id);

    await served(file, "clinic.db", async (client) => {
      for (const key of Object.keys(owners))
        expect(await call(client, "getOwner", { ownerId: key })).toEqual({
          isError: false,
          content: owners[key],
        });
      for (const key of Object.keys(visits))
        expect((await call(client, "getVisit", { visitId: key })).content).toEqual(visits[key]);

      const owner = await call(client, "createOwner", { name: "Ada Byron", email: "ada@example.com" });
      expect(owner.content.id).toBe("OWN-0004");
      const pet = await call(client, "createPet", { name: "Rex", species: "dog", owner_id: "OWN-0004" });
      expect(pet.content).toMatchObject({ id: 4, owner_id: "OWN-0004" });
      // the references the seeded world holds are checked like any other
      const orphan = await call(client, "createPet", { name: "Tom", species: "cat", owner_id: "OWN-0999" });
      expect(orphan.isError).toBe(true);
      const visit = await call(client, "createVisit", { pet_id: 2, reason: "vaccination" });
      expect(visit.isError).toBe(false);
      expect(Object.keys(visits)).not.toContain(visit.content.id);
    });
  }, 90_000);

  it("writes the same world for the same seed, and another world for another seed", async () => {
    const first = await imported(CLINIC, "seed-a", "--seed-state", "5", "--seed", "red");
    const second = await imported(CLINIC, "seed-b", "--seed-state", "5", "--seed", "red");
    const other = await imported(CLINIC, "seed-c", "--seed-state", "5", "--seed", "blue");
    expect(readFileSync(second.file, "utf8")).toBe(readFileSync(first.file, "utf8"));
    expect(other.state).not.toEqual(first.state);
    // keys follow the scheme, whatever the seed
    expect(Object.keys(other.state.pets ?? {})).toEqual(Object.keys(first.state.pets ?? {}));
    const unseeded = await imported(CLINIC, "seed-default", "--seed-state", "5");
    const zero = await imported(CLINIC, "seed-zero", "--seed-state", "5", "--seed", "0");
    expect(unseeded.state).toEqual(zero.state);
  }, 90_000);

  it("takes 0 as the empty world and 1000 as the most", async () => {
    const empty = await imported(PETSTORE, "zero", "--seed-state", "0");
    expect(empty.state).toEqual({ pets: {} });
    const most = await imported(PETSTORE, "most", "--seed-state", "1000");
    expect(Object.keys(most.state.pets ?? {})).toHaveLength(1000);
    expect(most.state.pets?.["1000"]?.id).toBe(1000);
  }, 90_000);

  it("keeps collections --state fills, and seeds only the empty ones, pointing at what --state holds", async () => {
    const world = join(dir.path, "owners.json");
    writeFileSync(
      world,
      JSON.stringify({
        owners: { "OWN-0100": { id: "OWN-0100", name: "Grace Hopper", email: "grace@example.com" } },
      }),
    );
    const run = await runCli(
      ["import", "openapi", CLINIC, "--out", join(dir.path, "kept"), "--state", world, "--seed-state", "2"],
      {},
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("owners kept (1 from the state)");
    const [file] = readdirSync(join(dir.path, "kept"));
    const state = JSON.parse(readFileSync(join(dir.path, "kept", file as string), "utf8")).state as World;
    expect(Object.keys(state.owners ?? {})).toEqual(["OWN-0100"]);
    expect(Object.values(state.pets ?? {}).map((p) => p.owner_id)).toEqual(["OWN-0100", "OWN-0100"]);
  }, 90_000);
});

describe("--seed-state refuses what it cannot do, and writes nothing", () => {
  const SOURCES: Record<string, string[]> = {
    openapi: [PETSTORE],
    synthtools: [join(FIXTURES, "importers/synthtools")],
    bfcl: [join(FIXTURES, "importers/bfcl-multi-turn")],
    openai: [join(FIXTURES, "importers/openai/tools.json")],
  };

  it.each([["1001"], ["three"], ["2.5"], [""]])(
    "refuses --seed-state %j for every importer",
    async (n) => {
      for (const [format, source] of Object.entries(SOURCES)) {
        const out = join(dir.path, `refused-${format}`);
        const run = await runCli(["import", format, ...source, "--out", out, "--seed-state", n]);
        expect(run.code, format).toBe(2);
        expect(run.stderr).toContain(
          `--seed-state takes a whole number of entities per collection from 0 to 1000; got "${n}"`,
        );
        expect(existsSync(out)).toBe(false);
      }
      const mcp = await runCli([
        "import",
        "mcp",
        "--seed-state",
        n,
        "--out",
        join(dir.path, "refused-mcp"),
        "--",
        MEMORY_SERVER,
      ]);
      expect(mcp.code).toBe(2);
      expect(mcp.stderr).toContain("--seed-state takes a whole number");
      expect(existsSync(join(dir.path, "refused-mcp"))).toBe(false);
    },
    90_000,
  );

  it("refuses a negative count", async () => {
    const run = await runCli([
      "import",
      "openapi",
      PETSTORE,
      "--out",
      join(dir.path, "negative"),
      "--seed-state=-1",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '--seed-state takes a whole number of entities per collection from 0 to 1000; got "-1"',
    );
    expect(existsSync(join(dir.path, "negative"))).toBe(false);
  });

  it("refuses --seed without --seed-state", async () => {
    const run = await runCli([
      "import",
      "openapi",
      PETSTORE,
      "--out",
      join(dir.path, "lonely"),
      "--seed",
      "3",
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--seed chooses the entities of --seed-state N; give both");
  });
});

describe("--seed-state with the other importers", () => {
  it("mcp: says what it seeded from the server's tools", async () => {
    const out = join(dir.path, "mcp.json");
    const run = await runCli([
      "import",
      "mcp",
      "--id",
      "memory",
      "--env",
      `MEMORY_FILE_PATH=${join(dir.path, "memory.jsonl")}`,
      "--out",
      out,
      "--seed-state",
      "2",
      "--",
      MEMORY_SERVER,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/toolsim import mcp: memory: seeded entities: 2 name ENT-0001…ENT-0002/);
    expect(Object.keys(JSON.parse(readFileSync(out, "utf8")).state.entities)).toEqual([
      "ENT-0001",
      "ENT-0002",
    ]);
    expect(JSON.parse(readFileSync(out, "utf8")).tools.length).toBeGreaterThan(0);
  }, 90_000);

  it("openai: seeds the collections a function list describes", async () => {
    const out = join(dir.path, "openai");
    const run = await runCli([
      "import",
      "openai",
      join(FIXTURES, "importers/openai/tools.json"),
      "--id",
      "shop",
      "--out",
      out,
      "--seed-state",
      "2",
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^shop: seeded orders: 2 order_id ORD-0001…ORD-0002/m);
  }, 90_000);
});
