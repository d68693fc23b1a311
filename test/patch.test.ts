import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  applyPatch,
  canonicalJson,
  deepEqual,
  diff,
  hashOf,
  type Patch,
  type PatchOperation,
  parsePointer,
  pointerSegments,
  readPointer,
  removeValueAt,
  setValueAt,
  toPointer,
  valueAt,
} from "../src/patch/index.js";

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
    const next = result.document as typeof doc;
    const later = applyPatch(next, [{ op: "add", path: "/x", value: 1 }]);
    expect(later.ok).toBe(true);
    if (!later.ok) return;
    const changed = later.document as typeof doc & { x: number };
    expect(changed).not.toBe(next);
    expect(changed.x).toBe(1);
    expect(changed.orders).toBe(next.orders);
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

describe("RFC 6902, operation by operation (the RFC's own examples among them)", () => {
  const apply = (document: unknown, patch: Patch) => applyPatch(document, patch);
  const applied = (document: unknown, patch: Patch) => {
    const result = apply(document, patch);
    if (!result.ok) throw new Error(result.error);
    return result.document;
  };
  const failure = (document: unknown, patch: Patch) => {
    const result = apply(document, patch);
    if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.document)}`);
    return result;
  };

  it("add: to an object, into an array (by index and at the end), nested, and replacing the root", () => {
    expect(applied({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }])).toEqual({
      foo: "bar",
      baz: "qux",
    });
    expect(applied({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }])).toEqual({
      foo: ["bar", "qux", "baz"],
    });
    expect(applied({ foo: ["bar"] }, [{ op: "add", path: "/foo/1", value: "end" }])).toEqual({
      foo: ["bar", "end"],
    });
    expect(applied({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }])).toEqual({
      foo: ["bar", ["abc", "def"]],
    });
    expect(applied({ foo: { a: [{ b: 1 }] } }, [{ op: "add", path: "/foo/a/0/c", value: 2 }])).toEqual({
      foo: { a: [{ b: 1, c: 2 }] },
    });
    expect(applied({ foo: [[1], [2]] }, [{ op: "add", path: "/foo/1/0", value: 0 }])).toEqual({
      foo: [[1], [0, 2]],
    });
    expect(applied({ foo: "bar" }, [{ op: "add", path: "/foo", value: "new" }])).toEqual({ foo: "new" });
    expect(applied({ foo: 1 }, [{ op: "add", path: "", value: [1] }])).toEqual([1]);
    expect(applied({ foo: 1 }, [{ op: "replace", path: "", value: "x" }])).toBe("x");
  });

  it("add: refuses a missing parent, an index past the end, and what is not an index", () => {
    expect(failure({ q: { bar: 2 } }, [{ op: "add", path: "/a/b", value: 1 }]).error).toBe(
      'operation 0 (add /a/b): path does not exist at "a"',
    );
    expect(failure({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/3", value: 1 }]).error).toBe(
      "operation 0 (add /foo/3): index 3 is out of bounds",
    );
    for (const index of ["01", "-1", "1e0", "x", " 1", "1 "])
      expect(failure({ foo: ["bar"] }, [{ op: "add", path: `/foo/${index}`, value: 1 }]).error).toBe(
        `operation 0 (add /foo/${index}): "${index}" is not an array index`,
      );
    expect(failure({ foo: "bar" }, [{ op: "add", path: "/foo/x", value: 1 }]).error).toBe(
      'operation 0 (add /foo/x): cannot step into a string at "x"',
    );
    expect(failure({ foo: null }, [{ op: "add", path: "/foo/x", value: 1 }]).error).toBe(
      'operation 0 (add /foo/x): cannot step into a null at "x"',
    );
    expect(failure({ foo: 5 }, [{ op: "add", path: "/foo/x", value: 1 }]).error).toBe(
      'operation 0 (add /foo/x): cannot step into a number at "x"',
    );
  });

  it("replace: a field, an array element, nested; never a missing one", () => {
    expect(applied({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }])).toEqual({
      baz: "boo",
      foo: "bar",
    });
    expect(applied({ a: [1, 2] }, [{ op: "replace", path: "/a/1", value: 9 }])).toEqual({ a: [1, 9] });
    expect(applied({ a: [[1, 2]] }, [{ op: "replace", path: "/a/0/1", value: 9 }])).toEqual({ a: [[1, 9]] });
    expect(failure({ a: 1 }, [{ op: "replace", path: "/b", value: 1 }]).error).toBe(
      'operation 0 (replace /b): cannot replace missing "b"',
    );
    expect(failure({ a: [1, 2] }, [{ op: "replace", path: "/a/2", value: 1 }]).error).toBe(
      "operation 0 (replace /a/2): index 2 is out of bounds",
    );
    expect(failure({ a: [1, 2] }, [{ op: "replace", path: "/a/-", value: 1 }]).error).toBe(
      'operation 0 (replace /a/-): "-" is not an array index',
    );
  });

  it("remove: a field, an array element (shifting the rest), nested; never a missing one or the root", () => {
    expect(applied({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }])).toEqual({ foo: "bar" });
    expect(applied({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }])).toEqual({
      foo: ["bar", "baz"],
    });
    expect(applied({ a: [{ b: 1, c: 2 }] }, [{ op: "remove", path: "/a/0/c" }])).toEqual({ a: [{ b: 1 }] });
    expect(applied({ a: { b: { c: 1, d: 2 } } }, [{ op: "remove", path: "/a/b/c" }])).toEqual({
      a: { b: { d: 2 } },
    });
    expect(failure({ a: 1 }, [{ op: "remove", path: "/b" }]).error).toBe(
      'operation 0 (remove /b): path does not exist at "b"',
    );
    expect(failure({ a: [1] }, [{ op: "remove", path: "/a/1" }]).error).toBe(
      "operation 0 (remove /a/1): index 1 is out of bounds",
    );
    expect(failure({ a: 1 }, [{ op: "remove", path: "" }]).error).toBe(
      "operation 0 (remove ): cannot remove the whole document",
    );
  });

  it("move and copy: the value goes (or is copied) from one place to another", () => {
    expect(
      applied({ foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } }, [
        { op: "move", from: "/foo/waldo", path: "/qux/thud" },
      ]),
    ).toEqual({ foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } });
    expect(
      applied({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]),
    ).toEqual({
      foo: ["all", "cows", "eat", "grass"],
    });
    const source = { a: { deep: [1] } };
    const copied = applied(source, [{ op: "copy", from: "/a", path: "/b" }]) as {
      a: unknown;
      b: { deep: number[] };
    };
    expect(copied).toEqual({ a: { deep: [1] }, b: { deep: [1] } });
    expect(copied.b).not.toBe(source.a);
    expect(failure({ a: 1 }, [{ op: "move", from: "/x", path: "/y" }]).error).toBe(
      'operation 0 (move /y): path does not exist at "x"',
    );
    expect(failure({ a: [1] }, [{ op: "copy", from: "/a/1", path: "/y" }]).error).toBe(
      "operation 0 (copy /y): index 1 is out of bounds",
    );
  });

  it("test: deep equality of the value, arrays in order, objects by their keys", () => {
    const doc = { a: [1, { b: "x" }], n: null, o: { p: 1, q: [2] } };
    const holds = (path: string, value: unknown) => apply(doc, [{ op: "test", path, value }]).ok;
    expect(holds("/a", [1, { b: "x" }])).toBe(true);
    expect(holds("/a", [{ b: "x" }, 1])).toBe(false);
    expect(holds("/a", [1])).toBe(false);
    expect(holds("/a", [1, { b: "x" }, 2])).toBe(false);
    expect(holds("/a", { 0: 1, 1: { b: "x" } })).toBe(false);
    expect(holds("/o", { q: [2], p: 1 })).toBe(true);
    expect(holds("/o", { p: 1 })).toBe(false);
    expect(holds("/o", { p: 1, q: [2], r: undefined })).toBe(false);
    expect(holds("/o", { p: 1, r: [2] })).toBe(false);
    expect(holds("/o", { p: "1", q: [2] })).toBe(false);
    expect(holds("/n", null)).toBe(true);
    expect(holds("/n", {})).toBe(false);
    expect(holds("/a/1/b", "x")).toBe(true);
    expect(holds("/a/0", "1")).toBe(false);
    expect(failure(doc, [{ op: "test", path: "/a/5", value: 1 }]).error).toBe(
      "operation 0 (test /a/5): index 5 is out of bounds",
    );
    expect(failure(doc, [{ op: "test", path: "/zz", value: 1 }]).error).toBe(
      'operation 0 (test /zz): path does not exist at "zz"',
    );
    expect(failure(doc, [{ op: "test", path: "/a/0", value: 2 }]).error).toBe(
      "operation 0 (test /a/0): test failed",
    );
  });

  it("names the failing operation by its index, and refuses an unknown op or a pointer without a slash", () => {
    const result = failure({ a: 1 }, [
      { op: "add", path: "/b", value: 2 },
      { op: "remove", path: "/c" },
    ]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      error: 'operation 1 (remove /c): path does not exist at "c"',
    });
    expect(failure({}, [{ op: "frob", path: "/a" } as unknown as PatchOperation])).toEqual({
      ok: false,
      index: 0,
      error: 'operation 0 (frob /a): unknown op "frob"',
    });
    expect(failure({}, [{ op: "add", path: "a", value: 1 }]).error).toBe(
      'operation 0 (add a): JSON pointer "a" must start with "/"',
    );
  });

  it("escapes ~ and / in pointers both ways", () => {
    const doc = { "a/b": { "m~n": 1 }, "~1": 2 };
    expect(toPointer(["a/b", "m~n"])).toBe("/a~1b/m~0n");
    expect(toPointer(["~1", 3])).toBe("/~01/3");
    expect(parsePointer("/a~1b/m~0n")).toEqual(["a/b", "m~n"]);
    expect(parsePointer("/~01")).toEqual(["~1"]);
    expect(parsePointer("")).toEqual([]);
    expect(parsePointer("/")).toEqual([""]);
    expect(readPointer(doc, "/a~1b/m~0n")).toBe(1);
    expect(readPointer(doc, "/~01")).toBe(2);
    expect(readPointer(doc, "/missing/x")).toBeUndefined();
    expect(readPointer([10, 20], "/1")).toBe(20);
    expect(readPointer({ a: [1] }, "/a/1")).toBeUndefined();
    expect(readPointer(doc, "no-slash")).toBeUndefined();
    expect(pointerSegments("/x~1y")).toEqual({ ok: true, segments: ["x/y"] });
    expect(pointerSegments("x")).toEqual({ ok: false, error: 'JSON pointer "x" must start with "/"' });
  });

  it("steps by segments: set, remove and read without a pointer", () => {
    expect(setValueAt({ a: [1, 2] }, ["a", "1"], 9, "replace")).toEqual({ ok: true, value: { a: [1, 9] } });
    expect(setValueAt({ a: [1, 2] }, ["a", "-"], 3, "add")).toEqual({ ok: true, value: { a: [1, 2, 3] } });
    expect(setValueAt({ a: {} }, ["a", "b", "c"], 1, "add")).toEqual({
      ok: false,
      error: 'path does not exist at "b"',
    });
    expect(removeValueAt({ a: [1, 2] }, ["a", "0"])).toEqual({ ok: true, value: { a: [2] } });
    expect(removeValueAt({ a: 1 }, [])).toEqual({ ok: false, error: "cannot remove the whole document" });
    expect(valueAt({ a: [{ b: 2 }] }, ["a", "0", "b"])).toEqual({ ok: true, value: 2 });
    expect(valueAt({ a: [] }, ["a", "0"])).toEqual({ ok: false, error: "index 0 is out of bounds" });
    expect(valueAt({ a: Object.create({ inherited: 1 }) }, ["a", "inherited"])).toEqual({
      ok: false,
      error: 'path does not exist at "inherited"',
    });
  });

  it("copies each container once per patch and never the ones it did not touch", () => {
    const doc = { wide: { a: 1, b: 2 }, other: { x: [1] } };
    const result = applied(doc, [
      { op: "replace", path: "/wide/a", value: 10 },
      { op: "replace", path: "/wide/b", value: 20 },
      { op: "add", path: "/wide/c", value: 30 },
    ]) as typeof doc & { wide: Record<string, number> };
    expect(result.wide).toEqual({ a: 10, b: 20, c: 30 });
    expect(doc.wide).toEqual({ a: 1, b: 2 });
    expect(result.other).toBe(doc.other);
    // a caller's own set of owned containers lets the next patch change them in place
    const owned = new WeakSet<object>();
    const first = applyPatch(doc, [{ op: "replace", path: "/wide/a", value: 5 }], owned);
    const firstDoc = (first.ok ? first.document : undefined) as typeof doc;
    const second = applyPatch(firstDoc, [{ op: "replace", path: "/wide/b", value: 6 }], owned);
    expect(second.ok && (second.document as typeof doc).wide).toBe(firstDoc.wide);
    const fresh = applyPatch(firstDoc, [{ op: "replace", path: "/wide/b", value: 7 }]);
    expect(fresh.ok && (fresh.document as typeof doc).wide).not.toBe(firstDoc.wide);
    expect(firstDoc.wide).toEqual({ a: 5, b: 6 });
  });
});

describe("deepEqual and diff", () => {
  it("deepEqual: values, arrays in order, objects by own keys", () => {
    expect(deepEqual(1, 1)).toBe(true);
    expect(deepEqual(1, "1")).toBe(false);
    expect(deepEqual(null, null)).toBe(true);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual({}, null)).toBe(false);
    expect(deepEqual([1, [2]], [1, [2]])).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual([1], [1, 1])).toBe(false);
    expect(deepEqual([1, 2], [1, 3])).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual({}, [])).toBe(false);
    expect(deepEqual({ a: 1, b: [1] }, { b: [1], a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 1 })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(deepEqual({ a: undefined }, { b: undefined })).toBe(false);
    expect(deepEqual({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
  });

  it("diff: removes, adds and replaces, descending into objects; arrays and other values whole", () => {
    expect(diff({ a: 1 }, { a: 1 })).toEqual([]);
    const same = { x: [1] };
    expect(diff(same, same)).toEqual([]);
    expect(diff({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
    expect(diff({ a: 1, b: { c: 1, d: 2 }, l: [1] }, { b: { c: 1, e: 3 }, l: [1, 2], f: null })).toEqual([
      { op: "remove", path: "/a" },
      { op: "remove", path: "/b/d" },
      { op: "add", path: "/b/e", value: 3 },
      { op: "replace", path: "/l", value: [1, 2] },
      { op: "add", path: "/f", value: null },
    ]);
    expect(diff({ "a/b": 1 }, { "a/b": 2 })).toEqual([{ op: "replace", path: "/a~1b", value: 2 }]);
    expect(diff([1], { a: 1 })).toEqual([{ op: "replace", path: "", value: { a: 1 } }]);
    expect(diff({ a: { b: 1 } }, { a: "flat" })).toEqual([{ op: "replace", path: "/a", value: "flat" }]);
  });
});

describe("hashes", () => {
  /** The documented format: each part's text (a string as is, anything else as canonical JSON) and a NUL. */
  const expected = (...texts: string[]) => {
    const hash = createHash("sha256");
    for (const text of texts) hash.update(text).update("\u0000");
    return hash.digest("hex");
  };

  it("are stable: stored hashes keep matching across releases", () => {
    expect(hashOf("abc")).toBe(expected("abc"));
    expect(hashOf("abc", { b: [2], a: 1 })).toBe(expected("abc", '{"a":1,"b":[2]}'));
    expect(hashOf(7, null, [true])).toBe(expected("7", "null", "[true]"));
  });

  it("keep parts apart: two parts are not their concatenation", () => {
    expect(hashOf("ab", "c")).not.toBe(hashOf("a", "bc"));
    expect(hashOf("abc")).not.toBe(hashOf(["abc"]));
  });
});
