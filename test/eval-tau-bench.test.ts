import { describe, expect, it } from "vitest";
import {
  addInto,
  createdIds,
  emptyFigures,
  scoreAnswer,
  scoreArguments,
  scoreChange,
} from "../eval/tau-bench.js";
import type { RealCall } from "../eval/tau-real.js";
import type { Answer } from "../eval/toolsim-process.js";

/** The τ-bench replay's per-tool counting, on hand-made real/simulated pairs. */

function real(answer: unknown, extra: Partial<RealCall> = {}): RealCall {
  return {
    task: "t#0",
    step: 0,
    tool: "get_ticket",
    arguments: {},
    error: false,
    answer,
    changed: [],
    ...extra,
  };
}

const ok = (value: unknown): Answer => ({ isError: false, documented: false, value });
const failure = (value: unknown): Answer => ({ isError: true, documented: true, value });

describe("scoreAnswer", () => {
  it("scores a read by the real answer's leaves toolsim holds", () => {
    const figures = emptyFigures();
    const truth = real({ id: "T-1", status: "open", tags: ["x", "y"] });
    scoreAnswer(figures, "read", truth, ok({ id: "T-1", status: "closed", tags: ["x", "y"], extra: 1 }));
    expect(figures.reads).toEqual({ calls: 1, recall: 0.75, found: 3, fields: 4 });
    expect(figures.falseErrors).toEqual({ realOk: 1, toolsimErr: 0 });
    expect(figures.misses).toEqual([expect.objectContaining({ kind: "read fields missing" })]);
  });

  it("counts a real error answered as success as not reproduced, never as a read", () => {
    const figures = emptyFigures();
    const truth = real("Error: ticket not found", { error: true });
    scoreAnswer(figures, "read", truth, ok({ id: "T-9", status: "open" }));
    expect(figures.errors).toEqual({ real: 1, reproduced: 0 });
    expect(figures.reads.calls).toBe(0);
    expect(figures.falseErrors.realOk).toBe(0);
    expect(figures.misses[0]?.kind).toBe("error not reproduced");
    scoreAnswer(figures, "read", truth, failure({ error: { code: "TICKET_NOT_FOUND" } }));
    expect(figures.errors).toEqual({ real: 2, reproduced: 1 });
  });

  it("counts an error where the real tool succeeded as a false error, with no leaf found", () => {
    const figures = emptyFigures();
    scoreAnswer(figures, "read", real({ id: "T-1" }), failure({ error: { code: "TICKET_NOT_FOUND" } }));
    expect(figures.falseErrors).toEqual({ realOk: 1, toolsimErr: 1 });
    expect(figures.reads).toEqual({ calls: 1, recall: 0, found: 0, fields: 1 });
  });

  it("does not score a write's answer as a read", () => {
    const figures = emptyFigures();
    scoreAnswer(figures, "write", real({ id: "T-1" }), ok({ whatever: true }));
    expect(figures.reads.calls).toBe(0);
    expect(figures.falseErrors).toEqual({ realOk: 1, toolsimErr: 0 });
  });
});

describe("scoreChange", () => {
  const change = {
    collection: "tickets",
    key: "T-1",
    fields: ["status", "labels", "assignee"],
    after: { id: "T-1", status: "closed", labels: ["bug", "ui"], assignee: { name: "Ada" } },
  };

  it("counts each changed field seen with the real value, status apart", () => {
    const figures = emptyFigures();
    const seen = {
      ticket: { id: "T-1", status: "closed", labels: ["bug", "ui"], assignee: { name: "Ada" } },
    };
    scoreChange(figures, real({}), change, seen);
    expect(figures.fields).toEqual({ changed: 3, seen: 3 });
    expect(figures.status).toEqual({ changes: 1, seen: 1 });
  });

  it("does not count a list in another order, an extra field, or a wrong status", () => {
    const figures = emptyFigures();
    const seen = {
      id: "T-1",
      status: "open",
      labels: ["ui", "bug"],
      assignee: { name: "Ada", team: "core" },
    };
    scoreChange(figures, real({}), change, seen);
    expect(figures.fields).toEqual({ changed: 3, seen: 0 });
    expect(figures.status).toEqual({ changes: 1, seen: 0 });
    expect(figures.misses.map((m) => (m.detail as { field: string }).field)).toEqual([
      "tickets.status",
      "tickets.labels",
      "tickets.assignee",
    ]);
  });

  it("counts nothing seen when toolsim's read fails", () => {
    const figures = emptyFigures();
    scoreChange(figures, real({}), change, undefined);
    expect(figures.fields).toEqual({ changed: 3, seen: 0 });
  });

  it("sees a removed field only when toolsim removed it too", () => {
    const removed = { collection: "tickets", key: "T-1", fields: ["lock"], after: { id: "T-1" } };
    const gone = emptyFigures();
    scoreChange(gone, real({}), removed, { id: "T-1" });
    expect(gone.fields).toEqual({ changed: 1, seen: 1 });
    const kept = emptyFigures();
    scoreChange(kept, real({}), removed, { id: "T-1", lock: "ada" });
    expect(kept.fields).toEqual({ changed: 1, seen: 0 });
  });
});

describe("scoreArguments", () => {
  const entity = { id: "T-1", status: "open", address: { city: "Oslo", zip: "0150" }, labels: [] };

  it("expects each argument named like a field of the entity, of its type, to land there", () => {
    const figures = emptyFigures();
    const args = {
      ticket_id: "T-1",
      status: "closed",
      address: { city: "Bergen" },
      note: "n",
      labels: "bug",
    };
    scoreArguments(figures, entity, "ticket_id", args, {
      ticket: { ...entity, status: "closed", address: { city: "Bergen", zip: "5003" } },
    });
    // note (no such field) and labels (a string for an array) are not counted
    expect(figures.writes).toMatchObject({ argsGiven: 2, argsSeen: 2 });
  });

  it("does not count an argument the entity does not show afterwards", () => {
    const figures = emptyFigures();
    scoreArguments(figures, entity, "ticket_id", { status: "closed", address: { city: "Bergen" } }, entity);
    expect(figures.writes).toMatchObject({ argsGiven: 2, argsSeen: 0 });
  });
});

describe("createdIds", () => {
  it("takes ids the answer gives that no collection held and no argument named", () => {
    const db = { tickets: { "T-1": {} }, users: { "U-1": {} } };
    const answer = ok({ ticket_id: "T-2", user_id: "U-1", owner_id: "U-9", id: "T-1", title: "T-3" });
    expect(createdIds(db, { owner_id: "U-9" }, answer)).toEqual(["T-2"]);
    expect(createdIds(db, {}, failure({ ticket_id: "T-2" }))).toEqual([]);
  });
});

describe("addInto", () => {
  it("sums every counter and keeps every miss", () => {
    const a = emptyFigures();
    const b = emptyFigures();
    scoreAnswer(a, "read", real({ id: "T-1" }), ok({ id: "T-2" }));
    scoreAnswer(b, "read", real("Error: no", { error: true }), ok({}));
    const total = emptyFigures();
    addInto(total, a);
    addInto(total, b);
    expect(total.reads).toEqual({ calls: 1, recall: 0, found: 0, fields: 1 });
    expect(total.errors).toEqual({ real: 1, reproduced: 0 });
    expect(total.falseErrors).toEqual({ realOk: 1, toolsimErr: 0 });
    expect(total.misses).toHaveLength(2);
  });
});
