import { describe, expect, it } from "vitest";
import { choose, declaresInfeasible, planAttempts, selectTasks } from "../src/run/index.js";
import { catalogOf, SHIPPED_TOOLSETS } from "./support/index.js";

const catalog = catalogOf([SHIPPED_TOOLSETS]);
const ids = catalog.allTasks().map((t) => t.task.id);

describe("what a run works on, and in which order", () => {
  it("selects tasks by id and by pattern, in catalog order, and names the tasks when a pattern matches none", () => {
    const selected = selectTasks(catalog, ["trd-*", "ecom-approve-defective-headphones"]);
    expect(selected).toEqual({
      ok: true,
      taskIds: ids.filter((id) => id.startsWith("trd-") || id === "ecom-approve-defective-headphones"),
    });
    expect(selectTasks(catalog, [])).toEqual({ ok: true, taskIds: ids });
    const typo = selectTasks(catalog, ["trd.*"]);
    expect(typo.ok).toBe(false);
    if (!typo.ok) {
      expect(typo.error).toContain("--tasks trd.* matches no task");
      expect(typo.error).toContain("trd-cancel-googl-buy");
    }
  });

  it("plans attempts round by round, every task once per round, in an order the seed alone decides", () => {
    const plan = planAttempts(ids, 3, "7");
    expect(plan).toHaveLength(ids.length * 3);
    for (const round of [1, 2, 3]) {
      const slice = plan.slice((round - 1) * ids.length, round * ids.length);
      expect(slice.every((a) => a.attempt === round)).toBe(true);
      expect(slice.map((a) => a.taskId).sort()).toEqual([...ids].sort());
    }
    expect(planAttempts(ids, 3, "7")).toEqual(plan);
    expect(planAttempts([...ids].reverse(), 3, "7")).toEqual(plan);
    expect(planAttempts(ids, 3, "8")).not.toEqual(plan);
  });

  it("counts combinations exactly for pass^k, and reads INFEASIBLE at the start of an answer", () => {
    expect([choose(3, 0), choose(3, 1), choose(3, 2), choose(3, 3), choose(2, 3), choose(10, 5)]).toEqual([
      1, 3, 3, 1, 0, 252,
    ]);
    expect(declaresInfeasible("INFEASIBLE: no tool deletes tickets")).toBe(true);
    expect(declaresInfeasible("  infeasible — the order shipped")).toBe(true);
    expect(declaresInfeasible("This was not infeasible at all")).toBe(false);
    expect(declaresInfeasible("Infeasibly fast")).toBe(false);
  });
});
