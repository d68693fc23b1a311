import { describe, expect, it } from "vitest";
import { applyPatch, canonicalJson, diff, hashOf } from "../src/patch/index.js";

describe("RFC 6902 on immutable documents", () => {
  const doc = { orders: { A: { status: "open", items: [1, 2] } }, runtime: { now: "t0" } };

  it("applies add, replace, remove, move, copy and test without touching the input", () => {
    const before = JSON.stringify(doc);
    const result = applyPatch(doc, [
      { op: "add", path: "/orders/B", value: { status: "new" } },
      { op: "replace", path: "/orders/A/status", value: "closed" },
      { op: "add", path: "/orders/A/items/-", value: 3 },
      { op: "remove", path: "/orders/A/items/0" },
      { op: "copy", from: "/orders/B", path: "/orders/C" },
      { op: "move", from: "/runtime/now", path: "/runtime/started" },
      { op: "test", path: "/orders/C/status", value: "new" },
    ]);
    expect(result.ok).toBe(true);
    expect(JSON.stringify(doc)).toBe(before);
    if (!result.ok) return;
    expect(result.document).toEqual({
      orders: { A: { status: "closed", items: [2, 3] }, B: { status: "new" }, C: { status: "new" } },
      runtime: { started: "t0" },
    });
    // untouched branches are shared, not copied
    const next = result.document as typeof doc & { orders: { B: unknown } };
    expect(applyPatch(next, [{ op: "add", path: "/x", value: 1 }]).ok && next.orders).toBe(next.orders);
  });

  it("reports the failing operation instead of throwing", () => {
    const missing = applyPatch(doc, [{ op: "replace", path: "/orders/Z/status", value: "x" }]);
    expect(missing).toEqual({
      ok: false,
      index: 0,
      error: expect.stringContaining('path does not exist at "Z"'),
    });
    const failedTest = applyPatch(doc, [
      { op: "add", path: "/n", value: 1 },
      { op: "test", path: "/n", value: 2 },
    ]);
    expect(failedTest).toMatchObject({ ok: false, index: 1 });
    const bounds = applyPatch(doc, [{ op: "add", path: "/orders/A/items/9", value: 0 }]);
    expect(bounds).toMatchObject({ ok: false, error: expect.stringContaining("out of bounds") });
  });

  it("diff produces a patch that turns one document into the other", () => {
    const after = { orders: { A: { status: "closed", items: [2] }, D: { x: 1 } }, runtime: { now: "t1" } };
    const patch = diff(doc, after);
    const applied = applyPatch(doc, patch);
    expect(applied.ok && applied.document).toEqual(after);
  });

  it("canonical JSON and hashes ignore key order", () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe(
      '{"a":{"c":[3,{"e":0,"f":1}],"d":2},"b":1}',
    );
    expect(hashOf({ a: 1, b: 2 })).toBe(hashOf({ b: 2, a: 1 }));
    expect(hashOf({ a: 1 })).not.toBe(hashOf({ a: "1" }));
  });
});
