import { describe, expect, it } from "vitest";
import { absentLike } from "../eval/absent.js";
import { containedIn, entityIn, fieldRecall, leavesOf, sameValue } from "../eval/compare.js";

/**
 * The evaluation's yardstick: how an answer of toolsim is compared with the answer of a real
 * implementation. Hand-made pairs, each saying whether it must count.
 */

describe("sameValue", () => {
  it("takes JSON-equal values and floating-point noise as the same", () => {
    expect(sameValue({ a: [1, "x", null], b: { c: true } }, { b: { c: true }, a: [1, "x", null] })).toBe(
      true,
    );
    expect(sameValue(0.05, 0.04999999999999716)).toBe(true);
    expect(sameValue(1234.5, 1234.5 + 1e-7)).toBe(true);
    expect(sameValue({ total: [0.1 + 0.2] }, { total: [0.3] })).toBe(true);
  });

  it("does not take numbers that differ beyond noise", () => {
    expect(sameValue(0.05, 0.051)).toBe(false);
    expect(sameValue(1000, 1000.01)).toBe(false);
    expect(sameValue(3, -3)).toBe(false);
  });

  it("does not take another type, order, or an extra or missing field", () => {
    expect(sameValue(1, "1")).toBe(false);
    expect(sameValue(null, undefined)).toBe(false);
    expect(sameValue(false, 0)).toBe(false);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue([1, 2], [1, 2, 3])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameValue({ a: undefined }, { b: undefined })).toBe(false);
    expect(sameValue({}, [])).toBe(false);
  });
});

describe("leavesOf", () => {
  it("flattens a value to path → value, empty containers kept as leaves", () => {
    expect(Object.fromEntries(leavesOf({ a: { b: 1, c: [2, { d: 3 }] }, e: [], f: {} }))).toEqual({
      "a.b": 1,
      "a.c[0]": 2,
      "a.c[1].d": 3,
      e: [],
      f: {},
    });
    expect(Object.fromEntries(leavesOf("alone"))).toEqual({ "": "alone" });
  });

  it("never gives two different places the same path", () => {
    const shapes = [
      { "a.b": 1 },
      { a: { b: 1 } },
      { a: [1] },
      { a: { "0": 1 } },
      { "a[0]": 1 },
      { "": { a: 1 } },
    ];
    const paths = shapes.map((shape) => [...leavesOf(shape).keys()][0]);
    expect(new Set(paths).size).toBe(shapes.length);
    expect(Object.fromEntries(leavesOf({ docs: { "notes.txt": { size: 4 } } }))).toEqual({
      'docs["notes.txt"].size': 4,
    });
  });
});

describe("fieldRecall", () => {
  const truth = { id: "T-1", owner: { name: "Ada", city: "Oslo" }, tags: ["a", "b"], total: 12.5 };

  it("finds every leaf of an equal answer, with fields the real one lacks ignored", () => {
    // six leaves: id, owner.name, owner.city, tags[0], tags[1], total
    expect(fieldRecall(truth, structuredClone(truth))).toEqual({ found: 6, total: 6 });
    expect(fieldRecall(truth, { ...truth, extra: 1, owner: { ...truth.owner, phone: "1" } })).toEqual({
      found: 6,
      total: 6,
    });
  });

  it("does not count a wrong value at the right path", () => {
    expect(fieldRecall(truth, { ...truth, owner: { name: "Ada", city: "Bergen" } })).toEqual({
      found: 5,
      total: 6,
    });
    expect(fieldRecall(truth, { ...truth, total: 12.51 })).toEqual({ found: 5, total: 6 });
  });

  it("does not count a right value at the wrong path", () => {
    expect(fieldRecall({ owner: { city: "Oslo" } }, { owner: { town: "Oslo" } })).toEqual({
      found: 0,
      total: 1,
    });
    expect(fieldRecall({ owner: { city: "Oslo" } }, { city: "Oslo" })).toEqual({ found: 0, total: 1 });
    expect(fieldRecall({ "a.b": 1 }, { a: { b: 1 } })).toEqual({ found: 0, total: 1 });
    expect(fieldRecall({ items: { "0": "x" } }, { items: ["x"] })).toEqual({ found: 0, total: 1 });
  });

  it("does not count a list in another order", () => {
    expect(fieldRecall({ tags: ["a", "b", "c"] }, { tags: ["c", "b", "a"] })).toEqual({ found: 1, total: 3 });
    expect(fieldRecall([{ id: 1 }, { id: 2 }], [{ id: 2 }, { id: 1 }])).toEqual({ found: 0, total: 2 });
  });

  it("accepts the entity one level down, not two", () => {
    expect(fieldRecall({ id: "T-1", status: "open" }, { ticket: { id: "T-1", status: "open" } })).toEqual({
      found: 2,
      total: 2,
    });
    expect(fieldRecall({ id: "T-1" }, { data: { ticket: { id: "T-1" } } })).toEqual({ found: 0, total: 1 });
  });

  it("counts nothing for an error or a text where data was due", () => {
    expect(fieldRecall(truth, undefined)).toEqual({ found: 0, total: 6 });
    expect(fieldRecall(truth, "T-1 Ada Oslo a b 12.5")).toEqual({ found: 0, total: 6 });
  });

  it("finds a scalar answered alone or as a top-level field, and only there", () => {
    expect(fieldRecall("u-7", "u-7")).toEqual({ found: 1, total: 1 });
    expect(fieldRecall("u-7", { user_id: "u-7" })).toEqual({ found: 1, total: 1 });
    expect(fieldRecall("2.0", 2)).toEqual({ found: 1, total: 1 });
    expect(fieldRecall("u-7", { user: { id: "u-7" } })).toEqual({ found: 0, total: 1 });
    expect(fieldRecall("u-7", "u-8")).toEqual({ found: 0, total: 1 });
    expect(fieldRecall("", 0)).toEqual({ found: 0, total: 1 });
  });

  it("has nothing to find in an empty real answer, and finds an empty container by its place", () => {
    expect(fieldRecall({}, { anything: 1 })).toEqual({ found: 0, total: 0 });
    expect(fieldRecall([], [])).toEqual({ found: 0, total: 0 });
    expect(fieldRecall({ contents: {} }, { contents: {} })).toEqual({ found: 1, total: 1 });
    expect(fieldRecall({ contents: {} }, { contents: { "a.txt": {} } })).toEqual({ found: 0, total: 1 });
  });
});

describe("containedIn", () => {
  it("takes the given fields and ignores others stored beside them", () => {
    expect(containedIn({ city: "Oslo" }, { city: "Oslo", zip: "0150" })).toBe(true);
    expect(containedIn([{ id: 1 }], [{ id: 1, qty: 2 }])).toBe(true);
    expect(containedIn("2.0", 2)).toBe(true);
  });

  it("does not take a wrong value, a list in another order, or nothing stored", () => {
    expect(containedIn({ city: "Oslo" }, { city: "Bergen" })).toBe(false);
    expect(containedIn(["a", "b"], ["b", "a"])).toBe(false);
    expect(containedIn(["a"], ["a", "b"])).toBe(false);
    expect(containedIn({ city: "Oslo" }, undefined)).toBe(false);
    expect(containedIn({ address: { city: "Oslo" } }, { address: "Oslo" })).toBe(false);
  });
});

describe("entityIn", () => {
  it("finds the entity at the root or under one key, whichever holds the fields", () => {
    const order = { id: "O-1", status: "open" };
    expect(entityIn(order, ["status"])).toBe(order);
    expect(entityIn({ order, message: { text: "ok" } }, ["status"])).toBe(order);
    expect(entityIn({ meta: { status: "x" }, order }, ["id", "status"])).toBe(order);
    expect(entityIn({ a: 1 }, ["status"])).toEqual({ a: 1 });
    expect(entityIn("text", ["status"])).toBeUndefined();
  });
});

describe("absentLike", () => {
  it("keeps the shape of a real key and names nothing that is taken", () => {
    const taken = new Set(["ORD-1000", "ORD-1001", "ORD-1002"]);
    const absent = absentLike("ORD-1001", (key) => taken.has(key));
    expect(absent).toMatch(/^ORD-\d{4}$/);
    expect(taken.has(absent)).toBe(false);
    expect(absentLike("notes.txt", (key) => key === "notes.txa")).toMatch(/^notes\.tx[b-z]$/);
    expect(absentLike("", () => true)).toBe("0");
  });
});
