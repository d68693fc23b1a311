import { cpSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importSynthTools } from "../src/catalog/importers/index.js";
import { Catalog, parseCallString, Toolset, validatorFor } from "../src/catalog/index.js";
import { readSynthTools } from "../src/sources/index.js";
import { tempDir } from "./support/index.js";

const FIXTURE = join(import.meta.dirname, "fixtures/importers/synthtools");
const dir = tempDir();
afterAll(() => dir.cleanup());

function imported() {
  const read = readSynthTools(FIXTURE);
  return { ...importSynthTools(read.source), unreadable: read.unreadable };
}

describe("SynthTools importer", () => {
  it("makes one toolset per spec, each passing the format", () => {
    const { toolsets } = imported();
    expect(toolsets.map((t) => t.id)).toEqual(["pet_care_tool_spec_7", "pet_care_tool_spec_9"]);
    for (const toolset of toolsets) expect(Toolset.safeParse(toolset).success).toBe(true);
    const spec7 = toolsets[0];
    expect(spec7?.field).toBe("Pet care");
    expect(spec7?.subdomain).toBe("Clinic Scheduling");
  });

  it("qualifies tool names two specs share and keeps the original as the title", () => {
    const names = imported().toolsets.flatMap((t) => t.tools.map((tool) => [tool.name, tool.title]));
    expect(names).toContainEqual(["appointment_booker", "Appointment Booker"]);
    expect(names).toContainEqual(["pet_lookup_7", "Pet Lookup"]);
    expect(names).toContainEqual(["pet_lookup_9", "Pet Lookup"]);
  });

  it("repairs defaults of the wrong type and says so", () => {
    const { toolsets, problems } = imported();
    const booker = toolsets[0]?.tools.find((t) => t.name === "appointment_booker");
    const props = booker?.inputSchema.properties as Record<string, Record<string, unknown>>;
    expect(props.duration_minutes?.default).toBe(30);
    expect(props.remind?.default).toBe(true);
    expect(props.channels?.default).toEqual(["email"]);
    expect(props.notes).toEqual({ type: ["string", "null"], description: "Free notes", default: null });
    expect(props.tags).not.toHaveProperty("default");
    expect(props.slot_start?.format).toBe("date-time");
    expect(booker?.inputSchema.required).toEqual(["pet_id", "service", "slot_start"]);
    const notes = problems.filter((p) => p.tool === "appointment_booker").map((p) => p.path);
    expect(notes).toEqual(
      expect.arrayContaining([
        "parameters.duration_minutes.default",
        "parameters.remind.default",
        "parameters.channels.default",
        "parameters.tags",
      ]),
    );
    const valid = validatorFor(booker?.inputSchema ?? {});
    expect(valid({ pet_id: "PET001", service: "grooming", slot_start: "2025-03-01T09:00:00Z" })).toBe(true);
    expect(valid({ pet_id: "PET001", service: "grooming", slot_start: "tomorrow" })).toBe(false);
  });

  it("turns error messages into coded errors and reports a missing output schema", () => {
    const { toolsets, problems } = imported();
    const booker = toolsets[0]?.tools.find((t) => t.name === "appointment_booker");
    expect(booker?.errors.map((e) => [e.code, e.status])).toEqual([
      ["PET_NOT_FOUND", 404],
      ["SLOT_UNAVAILABLE", 400],
      ["INVALID_SERVICE", 400],
    ]);
    expect(booker?.outputSchema).toMatchObject({
      type: "object",
      properties: { confirmed: { type: "boolean" } },
    });
    const lookup = toolsets[0]?.tools.find((t) => t.name === "pet_lookup_7");
    expect(lookup?.outputSchema).toBeUndefined();
    expect(problems).toContainEqual(
      expect.objectContaining({ tool: "pet_lookup_7", path: "output_details" }),
    );
  });

  it("imports tasks: state keyed by id, golden calls parsed, unknown tools reported", () => {
    const { toolsets, problems } = imported();
    const [task1, task2] = toolsets[0]?.tasks ?? [];
    expect(task1?.id).toBe("pet_care_tool_spec_7.task1");
    expect(task1?.difficulty).toBe("simple");
    expect(task1?.state.pets).toEqual({
      PET001: { pet_id: "PET001", name: "Rex", species: "dog" },
      PET002: { pet_id: "PET002", name: "Tom", species: "cat" },
    });
    expect(task1?.state.rooms).toEqual([{ label: "A" }, { label: "A" }]);
    expect(task1?.solution).toEqual([
      { tool: "pet_lookup_7", arguments: { pet_id: "PET001" } },
      {
        tool: "appointment_booker",
        arguments: {
          pet_id: "PET001",
          service: "grooming",
          slot_start: "2025-03-01T09:00:00Z",
          channels: ["email"],
          remind: true,
          duration_minutes: 45,
        },
      },
    ]);
    expect(problems.some((p) => p.message.includes("Teleporter"))).toBe(true);
    expect(task2?.valid).toBe(false);
    expect(task2?.difficulty).toBe("complex");
    expect(task2?.invalid_reason).toContain("Invoice Sender");
  });

  it("golden solutions validate against the imported schemas", () => {
    const catalog = new Catalog(imported().toolsets.map((toolset) => ({ toolset, file: toolset.id })));
    for (const { task } of catalog.allTasks())
      for (const call of task.solution) {
        const tool = catalog.tool(call.tool)?.tool;
        expect(tool, call.tool).toBeDefined();
        expect(validatorFor(tool?.inputSchema ?? {})(call.arguments)).toBe(true);
      }
  });

  it("reports a file that is not valid JSON instead of failing", () => {
    const copy = join(dir.path, "synthtools");
    cpSync(FIXTURE, copy, { recursive: true });
    writeFileSync(join(copy, "tool_json", "pet_care_tool_spec_9__Broken.json"), '{"tool_name": ');
    writeFileSync(join(copy, "tool_json", "pet_care_tool_spec_9__Nameless.json"), '{"parameters": {}}');
    const read = readSynthTools(copy);
    expect(read.unreadable.map((u) => u.file)).toEqual([
      join(copy, "tool_json", "pet_care_tool_spec_9__Broken.json"),
    ]);
    const result = importSynthTools(read.source);
    expect(result.problems).toContainEqual(
      expect.objectContaining({
        path: "pet_care_tool_spec_9__Nameless.json",
        message: expect.stringContaining("skipped"),
      }),
    );
    expect(result.toolsets.flatMap((t) => t.tools)).toHaveLength(3);
  });
});

describe("Python call strings", () => {
  it("reads keyword calls with nested literals", () => {
    expect(parseCallString(`Do_It(a = 'x\\'y', b=-1.5e2, c=[1, (2, 3)], d={"k": None, 'z': False})`)).toEqual(
      {
        ok: true,
        name: "Do_It",
        arguments: { a: "x'y", b: -150, c: [1, [2, 3]], d: { k: null, z: false } },
      },
    );
  });

  it("says why a call cannot be read", () => {
    const positional = parseCallString(`f("x")`);
    expect(positional.ok).toBe(false);
    const open = parseCallString(`f(a = "x`);
    expect(open).toEqual({ ok: false, message: expect.stringContaining("unterminated string") });
    expect(parseCallString(`f(a = some_variable)`).ok).toBe(false);
  });
});
