import { describe, expect, it } from "vitest";
import { applyPatch, canonicalJson, type Patch, type PatchOperation } from "../src/patch/index.js";
import { indexKeys, looselyEqual, numberLike, probeKeys, State, valueAtPath } from "../src/state/index.js";

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

const KEYS = ["a", "b", "c", "ORD-0001", "ORD-0002", "x~y", "s/l"];

function randomValue(next: () => number, depth = 0): unknown {
  const roll = next();
  if (depth > 2 || roll < 0.3) return pick(next, [1, "two", true, null, 3.5, "Open"]);
  if (roll < 0.6) return [randomValue(next, depth + 1), randomValue(next, depth + 1)];
  const out: Record<string, unknown> = {};
  for (let i = 0; i < 3; i++) out[pick(next, KEYS)] = randomValue(next, depth + 1);
  return out;
}

function randomPath(next: () => number, document: unknown): string {
  const segments: string[] = [];
  let current = document;
  const depth = Math.floor(next() * 4);
  for (let i = 0; i < depth; i++) {
    if (Array.isArray(current)) {
      const index = Math.floor(next() * (current.length + 1));
      segments.push(next() < 0.1 ? "-" : String(index));
      current = current[index];
    } else if (current && typeof current === "object") {
      const keys = Object.keys(current);
      const key = keys.length && next() < 0.8 ? pick(next, keys) : pick(next, KEYS);
      segments.push(key);
      current = (current as Record<string, unknown>)[key];
    } else {
      segments.push(pick(next, KEYS));
      break;
    }
  }
  return segments.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function randomOperation(next: () => number, document: unknown): PatchOperation {
  const op = pick(next, ["add", "add", "replace", "remove", "move", "copy", "test"] as const);
  // a state stays an object (plain JSON Patch may replace the root with anything; the state refuses)
  const path = randomPath(next, document) || "/count";
  switch (op) {
    case "add":
    case "replace":
    case "test":
      return { op, path, value: randomValue(next) };
    case "remove":
      return { op, path };
    default:
      return { op, path, from: randomPath(next, document) };
  }
}

describe("State: a persistent state with the semantics of JSON Patch", () => {
  it("applies any patch exactly as applyPatch does on the plain document (2,000 random patches)", () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const document = {
        orders: { "ORD-0001": { status: "open", items: [1, 2] }, "ORD-0002": { status: "paid" } },
        runtime: { now: "2026-03-02T09:00:00Z" },
        tags: ["x", "y"],
        count: 3,
      } as Record<string, unknown>;
      const patch: Patch = [];
      let plain: unknown = document;
      for (let i = 0; i < 4; i++) {
        const operation = randomOperation(next, plain);
        patch.push(operation);
        const stepped = applyPatch(plain, [operation]);
        if (stepped.ok) plain = stepped.document;
      }
      const expected = applyPatch(structuredClone(document), patch);
      const actual = State.fromDocument(structuredClone(document)).apply(patch);
      expect({ seed, ok: actual.ok }).toEqual({ seed, ok: expected.ok });
      if (actual.ok && expected.ok) {
        expect(canonicalJson(actual.state.toJSON())).toBe(canonicalJson(expected.document));
      }
      if (!actual.ok && !expected.ok)
        expect({ seed, patch, error: actual.error }).toEqual({ seed, patch, error: expected.error });
    }
  });

  it("leaves the version it came from untouched and shares what a change did not touch", () => {
    const before = State.fromDocument({ orders: { A: { n: 1 } }, users: { U: { name: "x" } } });
    const after = before.apply([{ op: "replace", path: "/orders/A/n", value: 2 }]);
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    expect(before.entity("orders", "A")).toEqual({ n: 1 });
    expect(after.state.entity("orders", "A")).toEqual({ n: 2 });
    expect(after.state.collection("users")).toBe(before.collection("users"));
  });

  it("iterates a collection in key order, from a key on", () => {
    const state = State.fromDocument({ c: { b: 2, a: 1, d: 4, c: 3 } });
    expect([...state.collection("c")!.entries()].map(([k]) => k)).toEqual(["a", "b", "c", "d"]);
    expect([...state.collection("c")!.keys()].slice(0, 2)).toEqual(["a", "b"]);
    expect([...state.collection("c")!.entries("c")].map(([k]) => k)).toEqual(["c", "d"]);
  });

  it("finds entities by a field through an index that follows every change", () => {
    const users: Record<string, unknown> = {};
    for (let i = 0; i < 500; i++) {
      const key = `U${String(i).padStart(4, "0")}`;
      users[key] = { email: `user${i % 50}@example.com`, address: { zip: String(10000 + (i % 7)) } };
    }
    let state = State.fromDocument({ users });
    const byEmail = (s: State, email: string) => [...s.collection("users")!.matching("email", [email])];
    expect(byEmail(state, "USER7@example.com").map(([k]) => k)).toEqual(
      Object.keys(users).filter((k) => (users[k] as { email: string }).email === "user7@example.com"),
    );
    const changed = state.apply([
      { op: "replace", path: "/users/U0007/email", value: "new@example.com" },
      { op: "add", path: "/users/U9999", value: { email: "user7@example.com" } },
      { op: "remove", path: "/users/U0057" },
    ]);
    expect(changed.ok).toBe(true);
    if (!changed.ok) return;
    const old = byEmail(state, "user7@example.com").map(([k]) => k);
    state = changed.state;
    const now = byEmail(state, "user7@example.com").map(([k]) => k);
    expect(now).toEqual([...old.filter((k) => k !== "U0007" && k !== "U0057"), "U9999"]);
    expect(byEmail(state, "new@example.com").map(([k]) => k)).toEqual(["U0007"]);
    // nested fields and numbers given as strings
    // several values: one merged walk in key order, each entity once, stopping when the caller stops
    const wanted = ["user8@example.com", "USER9@example.com", "user8@example.com"];
    const several = [...state.collection("users")!.matching("email", wanted)].map(([k]) => k);
    const expectedSeveral = [...state.collection("users")!.entries()]
      .filter(([, u]) => ["user8@example.com", "user9@example.com"].includes((u as { email: string }).email))
      .map(([k]) => k);
    expect(several).toEqual(expectedSeveral);
    const firstTwo: string[] = [];
    for (const [key] of state.collection("users")!.matching("email", wanted)) {
      if (firstTwo.push(key) === 2) break;
    }
    expect(firstTwo).toEqual(expectedSeveral.slice(0, 2));
    const zips = [...state.collection("users")!.matching("address.zip", [10003])].map(([k]) => k);
    const expectedZips = [...state.collection("users")!.entries()]
      .filter(([, u]) => (u as { address?: { zip: string } }).address?.zip === "10003")
      .map(([k]) => k);
    expect(zips.length).toBeGreaterThan(0);
    expect(zips).toEqual(expectedZips);
  });

  it("knows the highest numbered key per prefix and follows adds and removes", () => {
    let state = State.fromDocument({ o: { "ORD-0007": {}, "ORD-0012": {}, "X-99": {}, ORDER: {} } });
    expect(state.collection("o")!.highestNumbered("ORD-")).toBe(12);
    const added = state.apply([{ op: "add", path: "/o/ORD-0040", value: {} }]);
    if (!added.ok) throw new Error(added.error);
    state = added.state;
    expect(state.collection("o")!.highestNumbered("ORD-")).toBe(40);
    const removed = state.apply([{ op: "remove", path: "/o/ORD-0040" }]);
    if (!removed.ok) throw new Error(removed.error);
    expect(removed.state.collection("o")!.highestNumbered("ORD-")).toBe(12);
    expect(removed.state.collection("o")!.highestNumbered("Y-")).toBe(0);
  });

  it("keeps the state an object", () => {
    const state = State.fromDocument({ a: { x: 1 } });
    expect(state.apply([{ op: "replace", path: "", value: [1] }])).toEqual({
      ok: false,
      index: 0,
      error: "operation 0 (replace ): the state must stay a JSON object",
    });
    expect(state.apply([{ op: "remove", path: "" }])).toMatchObject({ ok: false });
    const replaced = state.apply([{ op: "replace", path: "", value: { b: { y: 2 } } }]);
    expect(replaced.ok && replaced.state.toJSON()).toEqual({ b: { y: 2 } });
  });
});

describe("loose equality", () => {
  const values: unknown[] = [
    5,
    "5",
    " 5",
    "5.0",
    "abc",
    "ABC",
    "",
    0,
    true,
    "true",
    null,
    [1],
    ["1"],
    { a: 1 },
    undefined,
    "1e3",
    1000,
  ];
  it("an index finds a value exactly when it is loosely equal to what is wanted", () => {
    for (const wanted of values) {
      for (const actual of values) {
        const filed = new Set(indexKeys(actual));
        const found = probeKeys(wanted).some((key) => filed.has(key));
        expect({ wanted, actual, found }).toEqual({ wanted, actual, found: looselyEqual(actual, wanted) });
      }
    }
  });
});

describe("loose equality: the rule itself", () => {
  it("ignores case between strings and compares a number with a string that spells it", () => {
    expect(looselyEqual("Open", "OPEN")).toBe(true);
    expect(looselyEqual("5", 5)).toBe(true);
    expect(looselyEqual(5, " 5 ")).toBe(true);
    expect(looselyEqual(1000, "1e3")).toBe(true);
    expect(looselyEqual({ a: [1, "x"] }, { a: [1, "x"] })).toBe(true);
  });

  it("keeps text apart from numbers where a user would", () => {
    expect(looselyEqual("007", "7")).toBe(false);
    expect(looselyEqual("5", "5.0")).toBe(false);
    expect(looselyEqual("", 0)).toBe(false);
    expect(looselyEqual("  ", 0)).toBe(false);
    expect(looselyEqual(true, 1)).toBe(false);
    expect(looselyEqual(null, 0)).toBe(false);
    expect(looselyEqual("abc", "abd")).toBe(false);
    expect(looselyEqual(5, 6)).toBe(false);
    expect(looselyEqual(Number.NaN, "NaN")).toBe(false);
  });

  it("reads a number only from a finite number or a string that spells one", () => {
    expect(numberLike(42)).toBe(42);
    expect(numberLike(" 4.5 ")).toBe(4.5);
    expect(numberLike("-3")).toBe(-3);
    expect(numberLike("")).toBeUndefined();
    expect(numberLike("   ")).toBeUndefined();
    expect(numberLike("4 apples")).toBeUndefined();
    expect(numberLike("Infinity")).toBeUndefined();
    expect(numberLike(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(numberLike(true)).toBeUndefined();
    expect(numberLike(null)).toBeUndefined();
  });
});

describe("valueAtPath", () => {
  it("follows dotted paths through objects and arrays", () => {
    const entity = { address: { zip: "10003" }, items: [{ status: "open" }] };
    expect(valueAtPath(entity, "address.zip")).toBe("10003");
    expect(valueAtPath(entity, "items.0.status")).toBe("open");
    expect(valueAtPath(entity, "address")).toEqual({ zip: "10003" });
  });

  it("reads nothing past a missing field, a null or a plain value, nor what every object inherits", () => {
    expect(valueAtPath({ a: null }, "a.b")).toBeUndefined();
    expect(valueAtPath({ a: "text" }, "a.length")).toBeUndefined();
    expect(valueAtPath({ a: {} }, "a.b.c")).toBeUndefined();
    expect(valueAtPath(null, "a")).toBeUndefined();
    expect(valueAtPath({}, "toString")).toBeUndefined();
    expect(valueAtPath({ a: 0 }, "a")).toBe(0);
  });
});

describe("State: reading", () => {
  // made inside each test, so that what a test checks is made while it runs
  const reading = () =>
    State.fromDocument({
      orders: { B: { n: 2 }, A: { n: 1 } },
      runtime: { now: "2026-03-02T09:00:00Z", user_id: "U-1" },
      tags: ["x"],
      count: 3,
    });

  it("lists top-level keys sorted, also after one is added or removed", () => {
    const state = reading();
    expect(state.keys()).toEqual(["count", "orders", "runtime", "tags"]);
    const added = state.apply([
      { op: "add", path: "/zeta", value: 1 },
      { op: "add", path: "/alpha", value: {} },
      { op: "add", path: "/m", value: {} },
    ]);
    expect(added.ok && added.state.keys()).toEqual([
      "alpha",
      "count",
      "m",
      "orders",
      "runtime",
      "tags",
      "zeta",
    ]);
    const removed = state.apply([{ op: "remove", path: "/orders" }]);
    expect(removed.ok && removed.state.keys()).toEqual(["count", "runtime", "tags"]);
    expect(removed.ok && removed.state.has("orders")).toBe(false);
    expect(state.has("orders")).toBe(true);
  });

  it("gives collections for objects only, and entities by key", () => {
    const state = reading();
    expect(state.collection("orders")?.size).toBe(2);
    expect(state.collection("tags")).toBeUndefined();
    expect(state.collection("count")).toBeUndefined();
    expect(state.collection("nothing")).toBeUndefined();
    expect(state.entity("orders", "A")).toEqual({ n: 1 });
    expect(state.entity("orders", "Z")).toBeUndefined();
    expect(state.entity("tags", "0")).toBeUndefined();
  });

  it("reads the runtime, or an empty one", () => {
    const state = reading();
    expect(state.runtime).toEqual({ now: "2026-03-02T09:00:00Z", user_id: "U-1" });
    expect(State.fromDocument({ orders: {} }).runtime).toEqual({});
    expect(State.fromDocument({ runtime: "not an object" }).runtime).toEqual({});
  });

  it("reads any path, and nothing where there is nothing", () => {
    const state = reading();
    expect(state.get([])).toEqual(state.toJSON());
    expect(state.get(["orders"])).toEqual({ A: { n: 1 }, B: { n: 2 } });
    expect(state.get(["orders", "B", "n"])).toBe(2);
    expect(state.get(["tags", "0"])).toBe("x");
    expect(state.get(["count"])).toBe(3);
    expect(state.get(["orders", "C"])).toBeUndefined();
    expect(state.get(["missing"])).toBeUndefined();
    expect(state.get(["orders", "A", "missing"])).toBeUndefined();
  });

  it("names the operation that failed and applies none of the patch", () => {
    const state = reading();
    const result = state.apply([
      { op: "replace", path: "/count", value: 4 },
      { op: "remove", path: "/orders/C" },
    ]);
    expect(result).toEqual({
      ok: false,
      index: 1,
      error: 'operation 1 (remove /orders/C): path does not exist at "C"',
    });
    expect(state.get(["count"])).toBe(3);
  });
});

describe("Collection: finding by a field", () => {
  /** `count` entities whose `code` cycles through a few spellings of five and other values. */
  function codes(count: number): State {
    const spellings = [5, "5", "5.0", "FIVE", "five", 6, null, undefined];
    const items: Record<string, unknown> = {};
    for (let i = 0; i < count; i++)
      items[`K${String(i).padStart(3, "0")}`] = { code: spellings[i % spellings.length] };
    return State.fromDocument({ items });
  }
  const found = (state: State, wanted: unknown[]) =>
    [...state.collection("items")!.matching("code", wanted)].map(([key]) => key);
  const expected = (state: State, wanted: unknown[]) =>
    [...state.collection("items")!.entries()]
      .filter(([, entity]) => wanted.some((w) => looselyEqual((entity as { code: unknown }).code, w)))
      .map(([key]) => key);

  // small collections are scanned, large ones indexed: both must answer the same
  for (const size of [10, 63, 64, 300]) {
    it(`finds each loosely equal entity once, in key order (${size} entities)`, () => {
      const state = codes(size);
      for (const wanted of [[5], ["5"], ["5", 5], ["five"], [null], [undefined], ["5.0", "FIVE"], [7], []]) {
        const keys = found(state, wanted);
        expect({ wanted, keys }).toEqual({ wanted, keys: expected(state, wanted) });
        expect(new Set(keys).size).toBe(keys.length);
      }
      expect(found(state, [5]).length).toBeGreaterThan(0);
    });
  }

  it("keeps its index right through changes of an indexed field", () => {
    let state = codes(100);
    expect(found(state, ["five"]).length).toBeGreaterThan(0);
    const changed = state.apply([
      { op: "replace", path: "/items/K003/code", value: 5 },
      { op: "replace", path: "/items/K000/code", value: "five" },
      { op: "add", path: "/items/K999", value: { code: "5" } },
      { op: "remove", path: "/items/K004" },
    ]);
    if (!changed.ok) throw new Error(changed.error);
    state = changed.state;
    for (const wanted of [[5], ["five"], ["5"], [undefined]])
      expect(found(state, wanted)).toEqual(expected(state, wanted));
    expect(found(state, ["five"])).toContain("K000");
    expect(found(state, [5])).toContain("K999");
    expect(found(state, ["five"])).not.toContain("K004");
  });
});

describe("Collection: numbered keys", () => {
  it("counts only keys with the prefix and a number after it", () => {
    const state = State.fromDocument({
      o: {
        "ORD-0007": {},
        "ORD-12x": {},
        "ORD-": {},
        "ORD-1e3": {},
        "ORD- 50": {},
        "ORD-0x1F": {},
        "PAY-0099": {},
      },
    });
    expect(state.collection("o")!.highestNumbered("ORD-")).toBe(7);
    // numbers compare as numbers, not as the text of the keys ("10" sorts before "9")
    const unpadded = State.fromDocument({ o: { "T-9": {}, "T-10": {}, "T-2": {} } });
    expect(unpadded.collection("o")!.highestNumbered("T-")).toBe(10);
    expect(state.collection("o")!.highestNumbered("PAY-")).toBe(99);
  });

  it("keeps the highest through adds and removes of lower or unnumbered keys", () => {
    const start = State.fromDocument({ o: { "ORD-0003": {}, "ORD-0012": {}, "ORD-0020": {} } });
    expect(start.collection("o")!.highestNumbered("ORD-")).toBe(20);
    const changed = start.apply([
      { op: "add", path: "/o/ORD-0005", value: {} },
      { op: "add", path: "/o/ORD-draft", value: {} },
      { op: "remove", path: "/o/ORD-0003" },
      { op: "add", path: "/o/X-0100", value: {} },
    ]);
    if (!changed.ok) throw new Error(changed.error);
    expect(changed.state.collection("o")!.highestNumbered("ORD-")).toBe(20);
    const highestGone = changed.state.apply([{ op: "remove", path: "/o/ORD-0020" }]);
    if (!highestGone.ok) throw new Error(highestGone.error);
    expect(highestGone.state.collection("o")!.highestNumbered("ORD-")).toBe(12);
    expect(start.collection("o")!.highestNumbered("ORD-")).toBe(20);
  });
});

describe("State: patches it refuses, as applyPatch does", () => {
  const document = { orders: { A: { n: 1 } }, count: 1 };
  const cases: PatchOperation[] = [
    { op: "add", path: "orders/B", value: {} },
    { op: "copy", path: "/orders/B", from: "orders/A" },
    { op: "move", path: "/orders/B", from: "/orders/Z" },
    { op: "frobnicate", path: "/orders/A" } as unknown as PatchOperation,
  ];
  for (const operation of cases)
    it(`refuses ${JSON.stringify(operation)} with applyPatch's reason`, () => {
      const expected = applyPatch(structuredClone(document), [operation]);
      const actual = State.fromDocument(structuredClone(document)).apply([operation]);
      expect(expected.ok).toBe(false);
      expect(actual).toEqual({ ok: false, index: 0, error: !expected.ok && expected.error });
    });
});
