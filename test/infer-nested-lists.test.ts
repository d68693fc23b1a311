import { describe, expect, it } from "vitest";
import { call, failure, inferred, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Records kept inside other records, at any depth: a patient's chart holds its allergies
 * (`patients/{id}/chart/allergies`), a board holds its columns (`boards/{id}/columns`). A tool
 * that names them and the record they live in reads, lists, adds, changes and removes them
 * there, as `GET /patients/{id}/allergies` and `DELETE /boards/{id}/columns/{column_id}` do,
 * and never acts on the record that holds them instead.
 */

type Records = Record<string, State>;

describe("allergies kept in a patient's chart", () => {
  const clinic = (): State => ({
    patients: {
      P1: {
        name: "Ines",
        chart: {
          blood_type: "A+",
          allergies: [
            { id: "AL1", substance: "penicillin", severity: "high" },
            { id: "AL2", substance: "pollen", severity: "low" },
          ],
        },
      },
      P2: {
        name: "Omar",
        chart: { blood_type: "O-", allergies: [{ id: "AL3", substance: "latex", severity: "mid" }] },
      },
    },
  });
  const tools = [
    tool("add_allergy", "Record an allergy in a patient's chart.", {
      patient_id: text,
      substance: text,
      severity: text,
    }),
    tool("list_allergies", "List a patient's allergies.", { patient_id: text }),
    tool("get_allergy", "One allergy of a patient.", { patient_id: text, allergy_id: text }),
    tool("update_allergy", "Change an allergy's severity.", {
      patient_id: text,
      allergy_id: text,
      severity: text,
    }),
    tool("delete_allergy", "Remove an allergy from a patient's chart.", {
      patient_id: text,
      allergy_id: text,
    }),
  ];
  const run = (name: string, args: Record<string, unknown>) => call(world(clinic(), tools), name, args);
  const allergies = (after: State, patient: string) =>
    ((after.patients as Records)[patient]?.chart as { allergies: State[] } | undefined)?.allergies ?? [];

  it("adds one to the chart of the patient named, with the next id", async () => {
    const { after, answer } = await run("add_allergy", {
      patient_id: "P2",
      substance: "nuts",
      severity: "high",
    });
    expect(allergies(after, "P2")).toEqual([
      { id: "AL3", substance: "latex", severity: "mid" },
      { id: "AL4", substance: "nuts", severity: "high" },
    ]);
    expect(answer).toMatchObject({ id: "AL4", substance: "nuts" });
    expect(allergies(after, "P1")).toHaveLength(2);
  });

  it("lists the patient's allergies, not the patient", async () => {
    const { answer, report } = await run("list_allergies", { patient_id: "P1" });
    expect(answer).toEqual(allergies(clinic(), "P1"));
    expect(report.verdict).toBe("inferred");
    const unknown = await run("list_allergies", { patient_id: "P9" });
    expect(failure(unknown.outcome)).toBe("PATIENT_NOT_FOUND");
  });

  it("reads, changes and removes one by its id, and refuses an unknown one", async () => {
    expect((await run("get_allergy", { patient_id: "P1", allergy_id: "AL2" })).answer).toMatchObject({
      substance: "pollen",
    });
    const changed = await run("update_allergy", { patient_id: "P1", allergy_id: "AL1", severity: "low" });
    expect(allergies(changed.after, "P1")[0]).toEqual({
      id: "AL1",
      substance: "penicillin",
      severity: "low",
    });
    const removed = await run("delete_allergy", { patient_id: "P1", allergy_id: "AL1" });
    expect(allergies(removed.after, "P1").map((a) => a.id)).toEqual(["AL2"]);
    expect((removed.after.patients as Records).P1).toMatchObject({
      name: "Ines",
      chart: { blood_type: "A+" },
    });
    const unknown = await run("delete_allergy", { patient_id: "P1", allergy_id: "AL7" });
    expect(failure(unknown.outcome)).toBe("ALLERGY_NOT_FOUND");
  });
});

describe("columns kept in a board", () => {
  const boards = (): State => ({
    boards: {
      B1: {
        title: "Launch",
        columns: [
          { id: "C1", name: "todo" },
          { id: "C2", name: "done" },
        ],
      },
      B2: { title: "Hiring", columns: [{ id: "C3", name: "applied" }] },
    },
  });

  it("lists a board's columns by the board's id, narrowed by a field", async () => {
    const list = tool("list_columns", "List the columns of a board.", { board_id: text, name: text }, [
      "board_id",
    ]);
    const all = await call(world(boards(), [list]), "list_columns", { board_id: "B1" });
    expect(all.answer).toEqual([
      { id: "C1", name: "todo" },
      { id: "C2", name: "done" },
    ]);
    const named = await call(world(boards(), [list]), "list_columns", { board_id: "B1", name: "done" });
    expect(named.answer).toEqual([{ id: "C2", name: "done" }]);
  });

  it("still reads the board where the tool names the board", () => {
    const get = tool("get_board", "A board with its columns.", { board_id: text });
    expect(inferred(world(boards(), [get]), "get_board").report.drafts).toContainEqual(
      expect.objectContaining({ kind: "read", target: "boards/{board_id}", output: "" }),
    );
  });
});
