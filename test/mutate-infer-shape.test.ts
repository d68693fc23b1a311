import { describe, expect, it } from "vitest";
import type { Toolset } from "../src/catalog/index.js";
import { type CollectionShape, type Part, type StateShape, shapeOf } from "../src/infer/index.js";
import {
  dig,
  type FieldShape,
  type ListShape,
  outline,
  partTarget,
  reindexed,
  shapeOfCollections,
  type TreeShape,
  type ValuesShape,
} from "../src/infer/shape.js";
import { call, text, tool, world } from "./support/infer-world.js";

/**
 * The shape of a world read from its example states (docs/inference.md): which parts are
 * records, collections, maps of values, lists and trees; the fields of each, their keys and
 * key formats, the fields that hold another collection's keys, and the counters that mint ids.
 * The worlds are an orchard cooperative's: its yards, crates, pickers and sheds.
 */

const kinds = (shape: StateShape) => Object.fromEntries(shape.parts.map((p) => [p.path.join("/"), p.kind]));
const part = (shape: StateShape, path: string) => shape.parts.find((p) => p.path.join("/") === path);
const collection = (shape: StateShape, path: string) => part(shape, path) as CollectionShape;
const field = (shape: StateShape, path: string, name: string) =>
  (part(shape, path) as { fields: Map<string, FieldShape> }).fields.get(name) as FieldShape;
const names = (index: Map<string, CollectionShape[]>) =>
  Object.fromEntries([...index].map(([key, shapes]) => [key, shapes.map((s) => s.name)]));
/** Thirteen names of one kind: one more than a record is taken to have. */
const FRUIT = [
  "apple",
  "pear",
  "plum",
  "fig",
  "quince",
  "cherry",
  "peach",
  "apricot",
  "medlar",
  "sloe",
  "damson",
  "grape",
  "lime",
];
const crates = (count: number, extra: (n: number) => Record<string, unknown> = () => ({})) =>
  Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `C-${i + 1}`,
      { crate_id: `C-${i + 1}`, apples: i, ...extra(i) },
    ]),
  );

describe("the parts of a world", () => {
  it("leaves the runtime out, and starts with the root record", () => {
    const shape = shapeOf([{ runtime: { now: "2026-03-02T09:00:00Z" }, orchard: { name: "Hill Orchard" } }]);
    expect(kinds(shape)).toEqual({ "": "record", orchard: "record" });
    expect(shape.root).toBe(shape.parts[0]);
    expect(shape.root).toMatchObject({ kind: "record", path: [], name: "" });
    expect([...shape.root.fields.keys()]).toEqual(["orchard"]);
    expect(part(shape, "orchard")).toMatchObject({ name: "orchard" });
  });

  it("reads the fields of a record from every state, and only the values a state has", () => {
    const shape = shapeOf([{ shed: { ladders: 3 } }, { shed: { keeper: "Ines" } }]);
    expect([...field(shape, "shed", "ladders").types]).toEqual(["number"]);
    expect([...field(shape, "shed", "keeper").types]).toEqual(["string"]);
    expect(field(shape, "shed", "keeper").samples).toEqual(["Ines"]);
  });

  it("walks eight levels down; deeper values are fields of the record above", () => {
    const words = ["hill", "row", "bed", "plot", "patch", "corner", "stake", "tag", "mark", "dot"];
    let value: Record<string, unknown> = { colour: "red" };
    for (const word of [...words].reverse()) value = { [word]: value };
    const shape = shapeOf([value]);
    const records = shape.parts.filter((p) => p.kind === "record").map((p) => p.path.length);
    expect(Math.max(...records)).toBe(8);
    expect([...field(shape, words.slice(0, 8).join("/"), "mark").types]).toEqual(["object"]);
  });

  it("reads an array of plain values as a list: its item type from the first that is not null, fifty items kept", () => {
    const numbers = Array.from({ length: 60 }, (_, i) => i);
    const shape = shapeOf([
      {
        yard: {
          labels: ["ripe", "sweet"],
          weights: numbers,
          grades: [null, 4],
          empty_bins: [],
          gate: "north",
        },
      },
    ]);
    expect(part(shape, "yard/labels")).toEqual({
      kind: "list",
      path: ["yard", "labels"],
      name: "labels",
      itemType: "string",
      items: ["ripe", "sweet"],
    });
    expect((part(shape, "yard/weights") as ListShape).items).toEqual(numbers.slice(0, 50));
    expect((part(shape, "yard/weights") as ListShape).itemType).toBe("number");
    expect((part(shape, "yard/grades") as ListShape).itemType).toBe("number");
    // an empty list is still a list, of text until something says otherwise
    expect(part(shape, "yard/empty_bins")).toMatchObject({ kind: "list", itemType: "string", items: [] });
    // a plain value is a field, no part
    expect(part(shape, "yard/gate")).toBeUndefined();
  });

  it("reads an array as a collection when at least half its items are records", () => {
    const shape = shapeOf([
      {
        yard: {
          half: [{ crate_id: "C-1" }, "loose"],
          fewer: [{ crate_id: "C-1" }, "loose", "spare"],
        },
      },
    ]);
    expect(kinds(shape)["yard/half"]).toBe("collection");
    expect(collection(shape, "yard/half")).toMatchObject({ size: 1, keyField: "crate_id", keys: ["C-1"] });
    expect([...collection(shape, "yard/half").fields.keys()]).toEqual(["crate_id"]);
    expect(kinds(shape)["yard/fewer"]).toBe("list");
  });

  it("takes an array where states disagree evenly between an array and an object", () => {
    const shape = shapeOf([
      { bins: [{ bin_id: "B-1", fruit: "pear" }] },
      { bins: { "B-2": { bin_id: "B-2", fruit: "plum" } } },
    ]);
    expect(collection(shape, "bins").container).toBe("array");
    const more = shapeOf([
      { bins: [{ bin_id: "B-1", fruit: "pear" }] },
      { bins: { "B-2": { bin_id: "B-2", fruit: "plum" } } },
      { bins: { "B-3": { bin_id: "B-3", fruit: "fig" } } },
    ]);
    expect(collection(more, "bins")).toMatchObject({ container: "map", keys: ["B-2", "B-3"] });
  });

  it("takes an empty object at the top for a collection waiting for its first record, and deeper for a field", () => {
    const shape = shapeOf([{ crates: {}, yard: { pallets: {} } }]);
    expect(collection(shape, "crates")).toMatchObject({
      kind: "collection",
      container: "map",
      keys: [],
      size: 0,
      numericKeys: false,
    });
    expect(collection(shape, "crates").keyFormat).toBeUndefined();
    expect(part(shape, "yard/pallets")).toBeUndefined();
    expect([...field(shape, "yard", "pallets").types]).toEqual(["object"]);
  });
});

describe("maps of records and maps of values", () => {
  it("keys a map of records by its data keys, a stray record under a word key aside", () => {
    const shape = shapeOf([
      { crates: { "C-1": { apples: 4 }, "C-2": { apples: 9 }, summary: { apples: 13, crates: 2 } } },
    ]);
    expect(collection(shape, "crates").keys).toEqual(["C-1", "C-2"]);
    expect(collection(shape, "crates").size).toBe(2);
  });

  it("reads records alike under word keys as a map keyed by those words", () => {
    const shape = shapeOf([{ beds: { north: { rows: 4, crop: "kale" }, south: { rows: 6, crop: "leek" } } }]);
    expect(collection(shape, "beds")).toMatchObject({ container: "map", keys: ["north", "south"], size: 2 });
  });

  it("takes records alike when they share at least 60% of the fields any of them has", () => {
    const shape = shapeOf([
      {
        sheds: {
          east: { a: 1, b: 2, c: 3, d: 4, e: 5 },
          west: { a: 1, b: 2, c: 3 },
        },
        tools: {
          spade: { a: 1, b: 2, c: 3, d: 4, e: 5 },
          rake: { a: 1, b: 2 },
        },
      },
    ]);
    expect(kinds(shape).sheds).toBe("collection");
    expect(kinds(shape).tools).toBe("record");
    expect(kinds(shape)["tools/spade"]).toBe("record");
  });

  it("reads one record under a word key, or records of nothing, as records", () => {
    const shape = shapeOf([
      { office: { manager: { name: "Ines", phone: "555" } }, mail: { inbox: {}, outbox: {} } },
    ]);
    expect(kinds(shape)).toEqual({
      "": "record",
      office: "record",
      "office/manager": "record",
      mail: "record",
    });
  });

  it("keeps a map of records beside a few named values, up to as many values as records", () => {
    const shape = shapeOf([
      {
        trades: { "7001": { qty: 2 }, "7002": { qty: 5 }, kind: "buy" },
        swaps: { "S-1": { qty: 1 }, side: "left", kind: "even" },
        loans: { "L-1": { qty: 1 }, side: "left", kind: "even", due: "soon" },
      },
    ]);
    expect(collection(shape, "trades").keys).toEqual(["7001", "7002"]);
    expect(collection(shape, "swaps").keys).toEqual(["S-1"]);
    expect(kinds(shape).loans).toBe("record");
  });

  it("takes records under words for a map when any key is data", () => {
    const shape = shapeOf([
      { bins: { "B-1": { pear: 1 }, alpha: { plum: 2 }, beta: { fig: 3 }, gamma: { quince: 4 } } },
    ]);
    expect(collection(shape, "bins").keys).toEqual(["B-1"]);
  });

  it("tells data keys from field names", () => {
    const read = (key: string) => kinds(shapeOf([{ box: { [key]: "x" } }])).box;
    for (const key of ["ripe", "r", "ripeNow", "ripe_now", "ripe_Now", "ripe_now_and_then"])
      expect(read(key), key).toBe("record");
    for (const key of ["Ripe", "7", "ripe7", "ripe_7", "ripe__now", "ripe_", "ripe.now", "_ripe", "ripe now"])
      expect(read(key), key).toBe("values");
  });

  it("reads a map of values: its keys and values, two hundred kept, and their type", () => {
    const prices = Object.fromEntries(Array.from({ length: 210 }, (_, i) => [`V${i}`, i]));
    const shape = shapeOf([{ prices }]);
    const values = part(shape, "prices") as ValuesShape;
    expect(values).toMatchObject({ kind: "values", name: "prices", valueType: "number" });
    expect(values.keys).toEqual(Object.keys(prices).slice(0, 200));
    expect(values.values).toEqual(Object.values(prices).slice(0, 200));
  });

  it("takes more than twelve named values of one type for a map of values, twelve for a record", () => {
    const named = (count: number) => Object.fromEntries(FRUIT.slice(0, count).map((k, i) => [k, i]));
    expect(kinds(shapeOf([{ stock: named(13) }])).stock).toBe("values");
    expect(kinds(shapeOf([{ stock: named(12) }])).stock).toBe("record");
  });

  it("takes lists under data keys for values, under named fields for a record's lists", () => {
    const fruit = FRUIT;
    const shape = shapeOf([
      {
        comments: { "P-1": ["crisp"], "P-2": [] },
        shelves: { top: ["jam"], bottom: ["cider"] },
        rows: Object.fromEntries(fruit.map((f) => [f, [f]])),
        // thirteen records of nothing alike are no map of values either
        drawers: Object.fromEntries(fruit.map((f) => [f, { [`${f}_count`]: 1 }])),
      },
    ]);
    expect(part(shape, "comments")).toMatchObject({
      kind: "values",
      valueType: "array",
      keys: ["P-1", "P-2"],
    });
    expect(kinds(shape).shelves).toBe("record");
    expect(kinds(shape)["shelves/top"]).toBe("list");
    expect(kinds(shape).rows).toBe("record");
    expect(kinds(shape).drawers).toBe("record");
  });

  it("reads data keys with values of several types as a record", () => {
    const shape = shapeOf([{ tallies: { A1: 1, A2: "two" } }]);
    expect(kinds(shape).tallies).toBe("record");
  });

  it("reads a few values under data keys and field names alike as a record", () => {
    const shape = shapeOf([{ tallies: { A1: 1, total: 2 }, picks: { "P-1": ["crisp"], mine: ["soft"] } }]);
    expect(kinds(shape).tallies).toBe("record");
    expect(kinds(shape).picks).toBe("record");
  });
});

describe("collections", () => {
  it("finds a map's key field, its numeric keys and key format", () => {
    const shape = shapeOf([
      {
        crates: crates(3),
        plots: { "0": { plot_no: 0 }, "7": { plot_no: 7 }, "12": { plot_no: 12 } },
        lockers: { "007": { size: 1 }, "008": { size: 2 } },
        gates: { A7: { wide: true }, B9: { wide: false } },
        hooks: { "7a": { wide: true }, "9b": { wide: false } },
        bays: { "3": { width: 2 }, "8": { width: 3 } },
        stalls: { "3": { width: 2 }, "3B": { width: 3 } },
      },
    ]);
    expect(collection(shape, "crates")).toMatchObject({
      container: "map",
      keyField: "crate_id",
      keys: ["C-1", "C-2", "C-3"],
      numericKeys: false,
      keyFormat: { prefix: "C-", digits: 1, length: 3 },
      size: 3,
    });
    expect(collection(shape, "plots")).toMatchObject({ keyField: "plot_no", numericKeys: true });
    expect(collection(shape, "lockers").numericKeys).toBe(false);
    expect(collection(shape, "gates").numericKeys).toBe(false);
    expect(collection(shape, "hooks").numericKeys).toBe(false);
    // a map's keys are numbers by themselves, whatever its records hold
    expect(collection(shape, "bays")).toMatchObject({ keys: ["3", "8"], numericKeys: true });
    expect(collection(shape, "stalls")).toMatchObject({ keys: ["3", "3B"], numericKeys: false });
  });

  it("keys an array's records by their distinct field: an id first, then a field named like an id, then a natural key", () => {
    const shape = shapeOf([
      {
        jobs: [
          { name: "prune", job_ref: "J-1", id: 11 },
          { name: "graft", job_ref: "J-2", id: 12 },
        ],
        pickers: [
          { name: "Ana", picker_id: "P-1" },
          { name: "Ben", picker_id: "P-2" },
        ],
        buyers: [
          { note: "early", email: "a@hill.example" },
          { note: "late", email: "b@hill.example" },
        ],
        carts: [
          { cartId: 1, load: 3 },
          { cartId: 2, load: 3 },
        ],
        ladders: [
          { ID: "L1", rungs: 8 },
          { ID: "L2", rungs: 8 },
        ],
        baskets: [
          { id: 1, sku: "B-S" },
          { id: 1, sku: "B-M" },
        ],
        sacks: [{ label: "x" }, { label: "y" }],
        // an array's keys are numbers when every key field holds a number, not text of digits
        tickets: [{ id: "1" }, { id: "2" }],
        trays: [{ id: 1 }, { id: "T2" }],
        switches: [
          { id: "S0", code: "S1" },
          { id: false, code: "S2" },
        ],
        rings: [
          { keyring: "R1", passkey: "x1", name: "brass" },
          { keyring: "R2", passkey: "x2", name: "steel" },
        ],
        plots: [
          { plot_idea: "pond", bin_key: "K1" },
          { plot_idea: "hedge", bin_key: "K2" },
        ],
        rows: [{ row_uuid: "u1" }, { row_uuid: "u2" }],
        nicks: [{ nickname: "Bo" }, { nickname: "Cy" }],
        words: [{ codeword: "pear" }, { codeword: "plum" }],
      },
    ]);
    expect(collection(shape, "jobs")).toMatchObject({
      container: "array",
      keyField: "id",
      keys: ["11", "12"],
      numericKeys: true,
    });
    expect(collection(shape, "pickers")).toMatchObject({
      keyField: "picker_id",
      keys: ["P-1", "P-2"],
      numericKeys: false,
    });
    expect(collection(shape, "buyers").keyField).toBe("email");
    expect(collection(shape, "carts").keyField).toBe("cartId");
    expect(collection(shape, "ladders").keyField).toBe("ID");
    expect(collection(shape, "baskets").keyField).toBe("sku");
    expect(collection(shape, "sacks")).toMatchObject({ keys: [], numericKeys: false });
    expect(collection(shape, "tickets")).toMatchObject({
      keyField: "id",
      keys: ["1", "2"],
      numericKeys: false,
    });
    expect(collection(shape, "switches").keyField).toBe("code");
    expect(collection(shape, "rings").keyField).toBe("name");
    expect(collection(shape, "plots").keyField).toBe("bin_key");
    expect(collection(shape, "rows").keyField).toBe("row_uuid");
    expect(collection(shape, "nicks").keyField).toBeUndefined();
    expect(collection(shape, "words").keyField).toBeUndefined();
    expect(collection(shape, "trays")).toMatchObject({
      keyField: "id",
      keys: ["1", "T2"],
      numericKeys: false,
    });
    expect(collection(shape, "sacks").keyField).toBeUndefined();
    expect(collection(shape, "sacks").keyFormat).toBeUndefined();
  });

  it("tells an array's records apart within each example state, and across the holders of records inside a collection", () => {
    const jobs = [
      { job_id: "J-1", task: "prune" },
      { job_id: "J-2", task: "graft" },
    ];
    const shape = shapeOf([{ jobs }, { jobs: [{ job_id: "J-1", task: "spray" }, ...jobs.slice(1)] }]);
    expect(collection(shape, "jobs")).toMatchObject({
      keyField: "job_id",
      keys: ["J-1", "J-2", "J-1", "J-2"],
    });
    // one state with a key twice has no key field
    expect(collection(shapeOf([{ jobs: [...jobs, jobs[0]] }]), "jobs").keyField).toBeUndefined();
    // cards numbered within each list are not told apart by their number alone
    const lists = {
      "L-1": { list_id: "L-1", cards: [{ card_id: 1 }, { card_id: 2 }] },
      "L-2": { list_id: "L-2", cards: [{ card_id: 1 }] },
    };
    expect(collection(shapeOf([{ lists }]), "lists/*/cards").keyField).toBeUndefined();
  });

  it("reads and deletes the record an id names where a task starts from the same records", async () => {
    const state = {
      jobs: [
        { job_id: "J-1", task: "prune" },
        { job_id: "J-2", task: "graft" },
      ],
    };
    const own = world(state, [
      tool("get_job", "Get a job by its id.", { job_id: text }),
      tool("delete_job", "Delete a job.", { job_id: text }),
    ]);
    const task = {
      id: "t1",
      description: "Graft the pears.",
      difficulty: "simple",
      valid: true,
      solution: [],
      checklist: [],
    };
    const orchard = { ...own, tasks: [{ ...task, state: structuredClone(state) }] } as unknown as Toolset;
    const read = await call(orchard, "get_job", { job_id: "J-2" });
    expect(read.answer).toEqual({ job_id: "J-2", task: "graft" });
    expect(read.report.notes).toContain("reads jobs/[job_id=…] by job_id");
    const deleted = await call(orchard, "delete_job", { job_id: "J-2" });
    expect(deleted.after).toEqual({ jobs: [{ job_id: "J-1", task: "prune" }] });
  });

  it("takes a map's key field from nine records in ten, the most often right, by name on a tie", () => {
    const ten = (make: (i: number) => Record<string, unknown>) =>
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`T-${i}`, make(i)]));
    const shape = shapeOf([
      {
        nine: ten((i) => ({ tag: i === 3 ? "other" : `T-${i}` })),
        eight: ten((i) => ({ tag: i < 2 ? "other" : `T-${i}` })),
        most: ten((i) => ({ tag: i === 3 ? "other" : `T-${i}`, slot: `T-${i}` })),
        tie: ten((i) => ({ ref: `T-${i}`, code: `T-${i}` })),
        // only text and numbers are keys
        answers: { true: { said: true }, false: { said: false } },
      },
    ]);
    expect(collection(shape, "nine").keyField).toBe("tag");
    expect(collection(shape, "eight").keyField).toBeUndefined();
    expect(collection(shape, "most").keyField).toBe("slot");
    expect(collection(shape, "tie").keyField).toBe("code");
    expect(collection(shape, "answers")).toMatchObject({ keys: ["true", "false"] });
    expect(collection(shape, "answers").keyField).toBeUndefined();
  });

  it("samples four hundred records spread over the whole of a large collection", () => {
    const many = crates(1000, (i) => (i === 997 ? { bruised: true } : i === 999 ? { wormy: true } : {}));
    const shape = shapeOf([{ crates: many }]);
    const crates1000 = collection(shape, "crates");
    expect(crates1000.size).toBe(1000);
    expect(crates1000.keys).toHaveLength(1000);
    expect(crates1000.fields.has("bruised")).toBe(true);
    expect(crates1000.fields.has("wormy")).toBe(false);
  });

  it("reads an array of one-key records as a list of pairs, a stray record in ten aside", () => {
    const pairs = (singles: number, strays: number) => [
      ...Array.from({ length: singles }, (_, i) => ({ [`USR${i}`]: `hello ${i}` })),
      ...Array.from({ length: strays }, (_, i) => ({ [`USR${i}`]: "hi", seen: true })),
    ];
    const shape = shapeOf([
      {
        notes: pairs(9, 1),
        chats: pairs(8, 2),
        memos: [{ note: "prune" }, { note: "spray" }],
        boxes: { X1: { K9: 1 }, X2: { K8: 2 } },
      },
    ]);
    expect(collection(shape, "notes").pairs).toEqual({});
    expect(collection(shape, "notes").fields.size).toBe(0);
    expect(collection(shape, "chats").pairs).toBeUndefined();
    expect(collection(shape, "chats").fields.has("seen")).toBe(true);
    expect(collection(shape, "memos").pairs).toBeUndefined();
    expect(collection(shape, "memos").fields.has("note")).toBe(true);
    expect(collection(shape, "boxes").pairs).toBeUndefined();
    expect(collection(shape, "boxes").fields.has("K9")).toBe(true);
  });

  it("finds collections inside the records of another, and inside those, each with its holder", () => {
    const shape = shapeOf([
      {
        pickers: {
          "P-1": {
            picker_id: "P-1",
            tags: ["fast"],
            // records kept in a plain object of a record are that record's too
            home: { town: "Vale", sheds: { "S-1": { size: 2 }, "S-2": { size: 3 } } },
            baskets: {
              "K-1": {
                basket_id: "K-1",
                fills: {
                  "F-1": { kg: 3, marks: ["bruised"], by: { hand: "left" } },
                  "F-2": { kg: 4, marks: [] },
                },
              },
            },
          },
          "P-2": { picker_id: "P-2", tags: [], home: { town: "Ford" }, baskets: {} },
        },
      },
    ]);
    expect(shape.parts.map((p) => `${p.kind} ${p.path.join("/")}`)).toEqual([
      "record ",
      "collection pickers",
      "collection pickers/*/home/sheds",
      "collection pickers/*/baskets",
      "collection pickers/*/baskets/*/fills",
    ]);
    expect(collection(shape, "pickers/*/home/sheds")).toMatchObject({
      parent: "pickers",
      keys: ["S-1", "S-2"],
    });
    expect(collection(shape, "pickers/*/baskets")).toMatchObject({ parent: "pickers", keys: ["K-1"] });
    expect(collection(shape, "pickers/*/baskets/*/fills")).toMatchObject({
      parent: "baskets",
      keys: ["F-1", "F-2"],
    });
    expect(collection(shape, "pickers").parent).toBeUndefined();
    expect(shape.nested.get("baskets")?.path).toEqual(["pickers", "*", "baskets"]);
    expect(shape.collections.has("baskets")).toBe(false);
    expect(collection(shape, "pickers").fields.has("home.town")).toBe(true);
  });

  it("looks for collections inside a collection's records down to the eighth level only", () => {
    const nest = (levels: number) => {
      let value: Record<string, unknown> = {
        lots: {
          "L-1": {
            bags: { "B-1": { kg: 1, pockets: { "Q-1": { g: 5 }, "Q-2": { g: 6 } } }, "B-2": { kg: 2 } },
          },
          "L-2": { bags: {} },
        },
      };
      for (const word of ["hill", "row", "bed", "plot", "patch", "corner", "stake"]
        .slice(0, levels)
        .reverse())
        value = { [word]: value };
      return value;
    };
    const at = (levels: number) => shapeOf([nest(levels)]).parts.map((p) => p.path.join("/"));
    expect(at(6)).toContain("hill/row/bed/plot/patch/corner/lots/*/bags");
    expect(at(6)).not.toContain("hill/row/bed/plot/patch/corner/lots/*/bags/*/pockets");
    expect(at(4)).toContain("hill/row/bed/plot/lots/*/bags/*/pockets");
    expect(at(5)).not.toContain("hill/row/bed/plot/patch/lots/*/bags/*/pockets");
    expect(at(7)).toContain("hill/row/bed/plot/patch/corner/stake/lots");
    expect(at(7)).not.toContain("hill/row/bed/plot/patch/corner/stake/lots/*/bags");
  });
});

describe("key formats", () => {
  const format = (keys: string[]) =>
    collection(shapeOf([{ bins: Object.fromEntries(keys.map((k) => [k, { full: true }])) }]), "bins")
      .keyFormat;

  it("reads a prefix and the digits after it, the longest key's", () => {
    expect(format(["CUST-001", "CUST-002", "CUST-104"])).toEqual({ prefix: "CUST-", digits: 3, length: 8 });
    expect(format(["#K9", "#K12"])).toEqual({ prefix: "#K", digits: 2, length: 4 });
    expect(format(["B-12", "B-7"])).toEqual({ prefix: "B-", digits: 2, length: 4 });
  });

  it("keeps the digits a prefix ends in with the numbers", () => {
    expect(format(["100", "101"])).toEqual({ prefix: "", digits: 3, length: 3 });
    expect(format(["K1A100", "K1A101"])).toEqual({ prefix: "K1A", digits: 3, length: 6 });
  });

  it("reads only a prefix and a length where keys are not prefix and digits", () => {
    expect(format(["Apple", "Apricot"])).toEqual({ prefix: "Ap", length: 7 });
    expect(format(["A-1", "A-2x"])).toEqual({ prefix: "A-", length: 4 });
    expect(format(["A-1", "A-x1"])).toEqual({ prefix: "A-", length: 4 });
  });
});

describe("fields", () => {
  it("keeps twenty samples of text and numbers, and no other values", () => {
    const shape = shapeOf([{ crates: crates(30, (i) => ({ sealed: i % 2 === 0 })) }]);
    expect(collection(shape, "crates").fields.get("apples")?.samples).toEqual(
      Array.from({ length: 20 }, (_, i) => i),
    );
    expect(collection(shape, "crates").fields.get("sealed")?.samples).toEqual([]);
    expect([...(collection(shape, "crates").fields.get("sealed")?.types ?? [])]).toEqual(["boolean"]);
  });

  it("counts the distinct texts of a field up to twenty-four; past that the field is open", () => {
    const grades = (count: number) => crates(count, (i) => ({ grade: `g${i}` }));
    const shape = shapeOf([
      { crates: grades(24), bins: grades(30), sorted: crates(4, (i) => ({ grade: i < 3 ? "A" : "B" })) },
    ]);
    expect(collection(shape, "crates").fields.get("grade")).toMatchObject({ open: false });
    expect(collection(shape, "crates").fields.get("grade")?.values.size).toBe(24);
    expect(collection(shape, "bins").fields.get("grade")?.open).toBe(true);
    expect(collection(shape, "bins").fields.get("grade")?.values.size).toBe(25);
    expect([...(collection(shape, "sorted").fields.get("grade")?.values ?? [])]).toEqual([
      ["A", 3],
      ["B", 1],
    ]);
    expect(collection(shape, "sorted").fields.get("apples")?.values.size).toBe(0);
  });

  it("reads the types of a field, the fields of objects in its arrays and the texts in them", () => {
    const shape = shapeOf([
      {
        crates: {
          "C-1": {
            crate_id: "C-1",
            note: null,
            stops: [{ row: 1, tree: "a" }, "skip"],
            pickers: ["P-1", "P-2"],
            tags: [],
            sizes: [3, 4],
          },
          "C-2": { crate_id: "C-2", note: "dented", stops: [{ row: 2, kg: 3 }], pickers: ["P-2"], tags: [] },
        },
      },
    ]);
    const fields = collection(shape, "crates").fields;
    expect([...(fields.get("note")?.types ?? [])]).toEqual(["null", "string"]);
    expect([...(fields.get("stops")?.types ?? [])]).toEqual(["array"]);
    expect([...(fields.get("stops")?.itemFields ?? [])]).toEqual(["row", "tree", "kg"]);
    expect([...(fields.get("stops")?.elements ?? [])]).toEqual(["skip"]);
    expect([...(fields.get("pickers")?.elements ?? [])]).toEqual(["P-1", "P-2"]);
    expect(fields.get("pickers")?.itemFields).toBeUndefined();
    expect(fields.get("tags")?.elements.size).toBe(0);
    expect(fields.get("sizes")?.elements.size).toBe(0);
  });

  it("reads twenty items of each array and keeps two hundred texts", () => {
    const shape = shapeOf([
      {
        crates: crates(15, (i) => ({ seen_by: Array.from({ length: 25 }, (_, j) => `W${i}-${j}`) })),
      },
    ]);
    const elements = collection(shape, "crates").fields.get("seen_by")?.elements ?? new Set();
    expect(elements.size).toBe(200);
    expect(elements.has("W0-19")).toBe(true);
    expect(elements.has("W0-20")).toBe(false);
  });

  it("reads the fields of objects in a record three levels down, not maps keyed by data", () => {
    const shape = shapeOf([
      {
        crates: {
          "C-1": {
            crate_id: "C-1",
            size: { outer: { box: { wall: { mm: 3 } } } },
            stock: { "B-1": { qty: 1 } },
            mixed: { "B-1": { qty: 1 }, note: "x" },
            partly: { "B-1": { qty: 1 }, spare: { qty: 2 } },
            bare: {},
          },
        },
      },
    ]);
    const fields = [...collection(shape, "crates").fields.keys()];
    expect(fields).toEqual(
      expect.arrayContaining([
        "size",
        "size.outer",
        "size.outer.box",
        "size.outer.box.wall",
        "stock",
        "mixed",
        "mixed.note",
        "bare",
      ]),
    );
    expect(fields).not.toContain("size.outer.box.wall.mm");
    expect(fields).not.toContain("stock.B-1");
    expect(fields).not.toContain("partly.B-1");
    // a key of records kept beside a stray value is the nested collection's, not a field
    expect(fields).not.toContain("mixed.B-1");
  });
});

describe("trees", () => {
  const node = (type: string, more: Record<string, unknown> = {}) => ({ type, ...more });

  it("reads a root folder itself, its folders and files told apart by a field, and the files' content", () => {
    const shape = shapeOf([
      {
        disk: node("directory", {
          children: {
            "plan.txt": node("file", { size: 4, body: "prune" }),
            "log.txt": node("file", { size: "1KB" }),
            docs: node("directory", { children: {} }),
          },
        }),
      },
    ]);
    expect(part(shape, "disk")).toEqual({
      kind: "tree",
      path: ["disk"],
      name: "disk",
      nodes: {
        children: "children",
        kind: { field: "type", folder: "directory", file: "file" },
        content: "body",
      },
    });
  });

  it("reads a map of names to nodes, by a field every node has", () => {
    const shape = shapeOf([
      {
        drive: {
          home: {
            label: "home",
            type: "dir",
            entries: { "a.txt": { type: "file" }, sub: { type: "dir", entries: {} } },
          },
        },
      },
    ]);
    expect((part(shape, "drive") as TreeShape).nodes).toEqual({
      children: "entries",
      kind: { field: "type", folder: "dir", file: "file" },
    });
  });

  it("takes folders only for a tree, and a lone empty folder only under a name that says so", () => {
    const shape = shapeOf([
      {
        vault: { root: node("dir", { children: { sub: node("dir", { children: {} }) } }) },
        lone: { root: node("dir", { children: {} }) },
        odd: { root: node("dir", { subs: {} }) },
        full: { root: node("dir", { subs: { "a.txt": node("file") } }) },
        wider: { root: node("dir", { subs_children: {} }) },
        older: { root: node("dir", { children_old: {} }) },
      },
    ]);
    expect((part(shape, "vault") as TreeShape).nodes).toEqual({
      children: "children",
      kind: { field: "type", folder: "dir", file: "file" },
    });
    expect(kinds(shape).lone).toBe("tree");
    expect(kinds(shape).odd).toBe("record");
    expect((part(shape, "full") as TreeShape).nodes).toEqual({
      children: "subs",
      kind: { field: "type", folder: "dir", file: "file" },
    });
    expect(kinds(shape)["odd/root"]).toBe("record");
    expect(kinds(shape).wider).toBe("record");
    expect(kinds(shape).older).toBe("record");
  });

  it("is no tree where folders or files have two kinds, or both the same", () => {
    const tree = (a: string, b: string, c: string) =>
      kinds(
        shapeOf([
          { drive: { root: node(a, { children: { x: node(b, { children: {} }), "y.txt": node(c) } }) } },
        ]),
      ).drive;
    expect(tree("dir", "dir", "file")).toBe("tree");
    expect(tree("dir", "folder", "file")).not.toBe("tree");
    expect(tree("node", "node", "node")).not.toBe("tree");
    const files = kinds(
      shapeOf([
        { drive: { root: node("dir", { children: { "x.txt": node("file"), "y.lnk": node("link") } }) } },
      ]),
    ).drive;
    expect(files).not.toBe("tree");
  });

  it("takes no record with a tree among other fields for a tree, but finds the tree inside it", () => {
    const shape = shapeOf([
      { drive: { home: node("dir", { children: { "a.txt": node("file") } }), quota: 5 } },
    ]);
    expect(kinds(shape).drive).toBe("record");
    expect(kinds(shape)["drive/home"]).toBe("tree");
  });

  it("passes over fields that hold no children and entries that are no nodes", () => {
    const meta = { owner: "Ines" };
    const shape = shapeOf([
      {
        disk: node("dir", { meta, children: { "a.txt": node("file", { body: "x" }), "b.txt": "raw" } }),
        drive: { home: { meta, type: "dir", entries: { "a.txt": { type: "file" } } } },
      },
    ]);
    expect((part(shape, "disk") as TreeShape).nodes).toEqual({
      children: "children",
      kind: { field: "type", folder: "dir", file: "file" },
      content: "body",
    });
    expect((part(shape, "drive") as TreeShape).nodes).toEqual({
      children: "entries",
      kind: { field: "type", folder: "dir", file: "file" },
    });
  });

  it("looks at five hundred nodes", () => {
    const children = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [`f${i}.txt`, i < 499 ? node("file") : { size: i }]),
    );
    expect(kinds(shapeOf([{ drive: node("dir", { children }) }])).drive).toBe("tree");
  });

  it("reads nested objects with text under file names as a tree of plain files", () => {
    const shape = shapeOf([
      {
        notes: {
          home: { "todo.txt": "prune", "plan.md": "graft", owner: "Ana" },
          work: { "rows.csv": "1,2", "archive.tar.gz": "…" },
        },
        box: { docs: { "a.txt": "hi" }, count: 2 },
        shelf: { top: { readme: "hi" } },
      },
    ]);
    expect(part(shape, "notes")).toEqual({ kind: "tree", path: ["notes"], name: "notes", nodes: {} });
    expect(kinds(shape).box).toBe("record");
    expect(kinds(shape)["box/docs"]).toBe("values");
    expect(kinds(shape).shelf).not.toBe("tree");
  });

  it("reads plain folders six levels down, not seven", () => {
    const chain = (depth: number) => {
      let value: Record<string, unknown> = { "deep.txt": "x" };
      for (let i = depth; i > 0; i--) value = { [`f${i}`]: value };
      return value;
    };
    expect(kinds(shapeOf([{ drive: chain(6) }])).drive).toBe("tree");
    expect(kinds(shapeOf([{ drive: chain(7) }])).drive).not.toBe("tree");
  });

  it("names names that look like files: one dot, an extension of up to eight letters or digits", () => {
    const plain = (file: string) => kinds(shapeOf([{ drive: { docs: { [file]: "x" } } }])).drive;
    expect(plain("plan.txt")).toBe("tree");
    expect(plain("plan.markdown")).toBe("tree");
    for (const file of [".bashrc", "plan.verylongext", "plan", "plan.t-t", "plan.txt.", "a/b.txt"])
      expect(plain(file), file).not.toBe("tree");
  });

  it("keeps the current folder beside a tree, named as such and holding absolute paths", () => {
    const disk = node("dir", { children: { "a.txt": node("file") } });
    const cwd = (state: Record<string, unknown>[]) => (part(shapeOf(state), "shell/disk") as TreeShape).cwd;
    for (const name of [
      "cwd",
      "pwd",
      "current_dir",
      "working_directory",
      "currentFolder",
      "working_path",
      "current_location",
    ])
      expect(cwd([{ shell: { [name]: "/home", disk } }]), name).toEqual(["shell", name]);
    for (const name of ["directory", "current_user", "working_hours", "current_dirt", "working_subdir"])
      expect(cwd([{ shell: { [name]: "/home", disk } }]), name).toBeUndefined();
    expect(cwd([{ shell: { cwd: "home", disk } }])).toBeUndefined();
    expect(cwd([{ shell: { cwd: null, disk } }])).toBeUndefined();
    expect(cwd([{ shell: { cwd: "/home", disk } }, { shell: { cwd: "tmp", disk } }])).toBeUndefined();
    expect(cwd([{ shell: { cwd: "/home", disk } }, { shell: { cwd: 3, disk } }])).toBeUndefined();
    // a tree deeper down keeps its own, and so does a tree beside the record
    const deeper = shapeOf([{ shell: { cwd: "/", backup: { owner: "Ana", disk } } }]);
    expect((part(deeper, "shell/backup/disk") as TreeShape).cwd).toBeUndefined();
    const beside = shapeOf([
      { store: { owner: "Ana", disk }, shell: { cwd: "/", jobs: [{ job_id: 1 }, { job_id: 2 }] } },
    ]);
    expect((part(beside, "store/disk") as TreeShape).cwd).toBeUndefined();
    // only a tree keeps a current folder
    expect(part(beside, "shell/jobs")).not.toHaveProperty("cwd");
  });
});

describe("references", () => {
  it("finds the collection whose keys a field's texts are, in four values of five", () => {
    const shape = shapeOf([
      {
        pickers: { "P-1": { name: "Ana" }, "P-2": { name: "Ben" } },
        crates: {
          "C-1": { picked_by: "P-1", helpers: ["P-2"], loader: "P-1", grade: "A" },
          "C-2": { picked_by: "P-2", helpers: ["P-1", "P-2"], loader: "P-2", grade: "B" },
          "C-3": { picked_by: "P-1", helpers: [], loader: "P-1", grade: "A" },
          "C-4": { picked_by: "P-2", helpers: [], loader: "P-9", grade: "A" },
          "C-5": { picked_by: "P-1", helpers: [], loader: "P-8", grade: "A" },
        },
      },
    ]);
    const fields = collection(shape, "crates").fields;
    expect(fields.get("picked_by")?.refersTo).toBe("pickers");
    expect(fields.get("helpers")?.refersTo).toBe("pickers");
    // four values, one of them no picker's ("P-9"): three in four
    expect(fields.get("loader")?.refersTo).toBeUndefined();
    expect(fields.get("grade")?.refersTo).toBeUndefined();
    // five distinct values, four of them pickers: four in five
    const five = shapeOf([
      {
        pickers: Object.fromEntries(["P-1", "P-2", "P-3", "P-4"].map((k) => [k, { name: k }])),
        crates: Object.fromEntries(
          ["P-1", "P-2", "P-3", "P-4", "P-7"].map((p, i) => [`C-${i}`, { loader: p }]),
        ),
      },
    ]);
    expect(collection(five, "crates").fields.get("loader")?.refersTo).toBe("pickers");
  });

  it("takes numbers for keys only where the field is named for the collection", () => {
    const shape = shapeOf([
      {
        rows: { "3": { length: 40 }, "7": { length: 55 }, "12": { length: 30 } },
        stalls: { "3B": { roof: true }, "7A": { roof: false } },
        payment_card_list: { "5": { bank: "Vale" }, "6": { bank: "Ford" } },
        crates: {
          "C-1": {
            row_id: 3,
            row_ref: "12",
            apples: 7,
            card_id: "5",
            spot: "7",
            cards: ["5"],
            stand: "3B",
            follows: null,
          },
          "C-2": {
            row_id: 7,
            apples: 3,
            card_id: "6",
            spot: "12",
            cards: ["5", "6"],
            stand: "7A",
            follows: "C-1",
          },
        },
      },
    ]);
    const fields = collection(shape, "crates").fields;
    expect(fields.get("row_id")?.refersTo).toBe("rows");
    expect(fields.get("row_ref")?.refersTo).toBe("rows");
    expect(fields.get("card_id")?.refersTo).toBe("payment_card_list");
    expect(fields.get("cards")?.refersTo).toBe("payment_card_list");
    expect(fields.get("apples")?.refersTo).toBeUndefined();
    expect(fields.get("spot")?.refersTo).toBeUndefined();
    // text that starts with a digit is text
    expect(fields.get("stand")?.refersTo).toBe("stalls");
    // a record names another of its own collection without the collection referring to itself
    expect(fields.get("follows")?.refersTo).toBeUndefined();
  });

  it("takes the first collection whose keys fit, and never a collection's own key field", () => {
    const shape = shapeOf([
      {
        stock: { "SKU-1": { sku: "SKU-1", qty: 3 }, "SKU-2": { sku: "SKU-2", qty: 1 } },
        prices: { "SKU-1": { sku: "SKU-1", cents: 20 }, "SKU-2": { sku: "SKU-2", cents: 35 } },
        orders: { "O-1": { item: "SKU-1" }, "O-2": { item: "SKU-2" } },
      },
    ]);
    expect(collection(shape, "orders").fields.get("item")?.refersTo).toBe("stock");
    expect(collection(shape, "stock").fields.get("sku")?.refersTo).toBeUndefined();
    expect(collection(shape, "prices").fields.get("sku")?.refersTo).toBeUndefined();
  });
});

describe("counters", () => {
  const counter = (states: Record<string, unknown>[], path = "yard/crates") =>
    collection(shapeOf(states), path).counter;
  const two = { "C-1": { crate_id: "C-1" }, "C-2": { crate_id: "C-2" } };

  it("finds a counter named after the collection, holding the next id or the last", () => {
    for (const name of [
      "crate_counter",
      "crate_count",
      "crate_seq",
      "crate_sequence",
      "next_crate",
      "last_crate_id",
    ])
      expect(counter([{ yard: { [name]: 3, crates: two } }]), name).toEqual({
        path: ["yard", name],
        holds: "next",
      });
    expect(counter([{ yard: { crate_counter: 2, crates: two } }])).toEqual({
      path: ["yard", "crate_counter"],
      holds: "last",
    });
    expect(counter([{ yard: { crate_counter: 1, crates: two } }])?.holds).toBe("next");
  });

  it("takes bare counters for records at the top of their holder", () => {
    for (const name of ["counter", "next_id", "last_id", "id_counter"])
      expect(counter([{ yard: { [name]: 3, crates: two } }]), name).toEqual({
        path: ["yard", name],
        holds: "next",
      });
  });

  it("takes no number without a counter's word, name or type", () => {
    expect(counter([{ yard: { crate_total: 3, crates: two } }])).toBeUndefined();
    expect(counter([{ yard: { bin_counter: 3, crates: two } }])).toBeUndefined();
    expect(counter([{ yard: { crate_counter: "3", crates: two } }])).toBeUndefined();
    expect(
      counter([{ yard: { crate_counter: 3, crates: two } }, { yard: { crate_counter: null, crates: two } }]),
    ).toBeUndefined();
    expect(counter([{ yard: { counting: 3, crates: two } }])).toBeUndefined();
    expect(counter([{ yard: { sequence_id: 3, crates: two } }])).toBeUndefined();
  });

  it("names a counter by the key field's noun too, and takes the first that fits", () => {
    const slots = { "S-1": { slot_id: "S-1" }, "S-4": { slot_id: "S-4" } };
    expect(counter([{ yard: { slot_counter: 5, delivery_slots: slots } }], "yard/delivery_slots")).toEqual({
      path: ["yard", "slot_counter"],
      holds: "next",
    });
    expect(
      counter([{ yard: { delivery_seq: 4, delivery_slots: slots } }], "yard/delivery_slots")?.holds,
    ).toBe("last");
    // the key field's `id` names nothing
    expect(counter([{ yard: { seq_id: 4, delivery_slots: slots } }], "yard/delivery_slots")).toBeUndefined();
    expect(counter([{ yard: { crate_seq: 2, next_crate: 9, crates: two } }])).toEqual({
      path: ["yard", "crate_seq"],
      holds: "last",
    });
  });

  it("looks for the counter in the record that holds the collection only", () => {
    expect(counter([{ shed: { crate_counter: 5 }, yard: { crates: two } }])).toBeUndefined();
    expect(counter([{ crate_counter: 5, yard: { crates: two } }])).toBeUndefined();
    const top = shapeOf([{ crate_counter: 3, crates: two }]);
    expect(collection(top, "crates").counter).toEqual({ path: ["crate_counter"], holds: "next" });
  });

  it("reads each state against its own ids; where they disagree evenly, the name says", () => {
    const one = { "C-1": { crate_id: "C-1" } };
    expect(
      counter([{ yard: { crate_counter: 3, crates: two } }, { yard: { crate_counter: 1, crates: one } }])
        ?.holds,
    ).toBe("next");
    expect(
      counter([{ yard: { last_crate: 3, crates: two } }, { yard: { last_crate: 1, crates: one } }])?.holds,
    ).toBe("last");
    expect(
      counter([
        { yard: { crate_counter: 3, crates: two } },
        { yard: { crate_counter: 1, crates: one } },
        { yard: { crate_counter: 2, crates: two } },
      ])?.holds,
    ).toBe("last");
    expect(
      counter([
        { yard: { crate_counter: 2, crates: two } },
        { yard: { crate_counter: 2, crates: one } },
        { yard: { crate_counter: 3, crates: two } },
      ])?.holds,
    ).toBe("next");
    // a state without ids says nothing: the name does
    expect(counter([{ crate_counter: 0, crates: {} }], "crates")?.holds).toBe("next");
    expect(counter([{ last_crate: 0, crates: {} }], "crates")?.holds).toBe("last");
    expect(
      counter([
        {
          yard: { crate_counter: 0, crates: { north: { crate_id: "north" }, south: { crate_id: "south" } } },
        },
      ])?.holds,
    ).toBe("next");
  });

  it("reads a state's ids by the number they end in, and skips a state without the holder or without numbered ids", () => {
    expect(
      counter([{ yard: { crate_counter: 1, crates: { "C-1": { w: 1 }, north: { w: 2 } } } }])?.holds,
    ).toBe("last");
    expect(
      counter([{ yard: { crate_counter: 2, crates: { "2-north": { w: 1 }, "2-south": { w: 2 } } } }])?.holds,
    ).toBe("next");
    expect(counter([{ yard: { crate_counter: 2, crates: two } }, { yard: null }])?.holds).toBe("last");
    // a state whose collection is null or missing says nothing either
    for (const crates of [null, undefined])
      expect(
        counter([{ yard: { crate_counter: 2, crates: two } }, { yard: { crate_counter: 0, crates } }])?.holds,
      ).toBe("last");
    const nine = { "C-9": { w: 1 }, "C-10": { w: 2 } };
    expect(counter([{ yard: { crate_counter: 10, crates: nine } }])?.holds).toBe("last");
    expect(
      counter([{ yard: { crate_counter: 2, crates: two } }, { yard: { crate_counter: 0, crates: {} } }])
        ?.holds,
    ).toBe("last");
  });

  it("reads the ids of records kept in an array by their key field", () => {
    const jobs = (...ids: number[]) => ids.map((job_id) => ({ job_id, task: "prune" }));
    expect(counter([{ yard: { job_seq: 2, jobs: jobs(1, 2) } }], "yard/jobs")?.holds).toBe("last");
    expect(counter([{ yard: { job_seq: 3, jobs: jobs(1, 2) } }], "yard/jobs")?.holds).toBe("next");
    expect(
      counter([{ yard: { job_seq: 2, jobs: [...jobs(1), null, ...jobs(2)] } }], "yard/jobs")?.holds,
    ).toBe("last");
    expect(
      counter([{ yard: { last_job: 9, jobs: [{ task: "a" }, { task: "b" }] } }], "yard/jobs")?.holds,
    ).toBe("last");
    expect(
      counter([{ yard: { job_seq: 9, jobs: [{ task: "a" }, { task: "b" }] } }], "yard/jobs")?.holds,
    ).toBe("next");
  });

  it("numbers records kept inside others by a counter at the top, against every key", () => {
    const lists = {
      "L-1": { list_id: "L-1", cards: { "K-4": { title: "a" } } },
      "L-2": { list_id: "L-2", cards: { "K-9": { title: "b" } } },
    };
    const nested = (state: Record<string, unknown>) =>
      collection(shapeOf([state]), "board/lists/*/cards").counter;
    expect(nested({ board: { lists }, next_card_id: 10 })).toEqual({ path: ["next_card_id"], holds: "next" });
    expect(nested({ board: { lists }, next_card_id: 9 })).toEqual({ path: ["next_card_id"], holds: "last" });
    expect(nested({ board: { lists }, counter: 10 })).toBeUndefined();
    expect(nested({ board: { lists, next_card_id: 10 } })).toBeUndefined();
    const unnumbered = { "L-1": { list_id: "L-1", cards: { north: { title: "a" }, south: { title: "b" } } } };
    expect(nested({ board: { lists: unnumbered }, card_seq: 1 })).toEqual({
      path: ["card_seq"],
      holds: "next",
    });
  });
});

describe("the indexes of a shape", () => {
  it("indexes collections by name (the first of a name), nested ones apart, by noun, key field and suffix", () => {
    const shape = shapeOf([
      {
        shop: { items: [{ item_id: "I-1" }] },
        cart: { items: [{ item_id: "I-2" }] },
        delivery_slots: { "S-1": { slot_id: "S-1" } },
        payment_card_list: { "K-1": { card_id: "K-1", charges: { "X-1": { cents: 5 } } } },
      },
    ]);
    expect(shape.collections.get("items")?.path).toEqual(["shop", "items"]);
    expect([...shape.collections.keys()]).toEqual(["items", "delivery_slots", "payment_card_list"]);
    expect([...shape.nested.keys()]).toEqual(["charges"]);
    expect(names(shape.byNoun)).toEqual({
      item: ["items"],
      delivery_slot: ["delivery_slots"],
      payment_card_list: ["payment_card_list"],
      charge: ["charges"],
    });
    expect(names(shape.byKeyField)).toEqual({
      item_id: ["items"],
      slot_id: ["delivery_slots"],
      card_id: ["payment_card_list"],
    });
    expect(names(shape.bySuffix)).toEqual({
      slot: ["delivery_slots"],
      list: ["payment_card_list"],
      card_list: ["payment_card_list"],
      card: ["payment_card_list"],
    });
  });

  it("indexes a collection by the nouns of what it keeps, however many", () => {
    const shape = shapeOf([{ bee_hive_frame_list: { "F-1": { frame_id: "F-1" } } }]);
    expect(names(shape.bySuffix)).toEqual({
      list: ["bee_hive_frame_list"],
      frame_list: ["bee_hive_frame_list"],
      hive_frame_list: ["bee_hive_frame_list"],
      frame: ["bee_hive_frame_list"],
      hive_frame: ["bee_hive_frame_list"],
    });
  });

  it("builds a shape of collections known from elsewhere, and rebuilds one's indexes", () => {
    const known: CollectionShape = {
      kind: "collection",
      path: ["seed_packets"],
      name: "seed_packets",
      container: "map",
      keys: [],
      keyField: "packet_id",
      numericKeys: false,
      fields: new Map(),
      size: 0,
    };
    const list: Part = { kind: "list", path: ["tags"], name: "tags", itemType: "string", items: [] };
    const shape = shapeOfCollections([known], [list]);
    expect(shape.root).toEqual({ kind: "record", path: [], name: "", fields: new Map() });
    expect(shape.parts).toEqual([shape.root, known, list]);
    expect(shape.collections.get("seed_packets")).toBe(known);
    expect(names(shape.byKeyField)).toEqual({ packet_id: ["seed_packets"] });
    expect(names(shape.bySuffix)).toEqual({ packet: ["seed_packets"] });
    expect(shapeOfCollections([known]).parts).toEqual([shape.root, known]);
    const again = reindexed([shape.root, known], shape.root);
    expect(again.root).toBe(shape.root);
    expect(again.collections.get("seed_packets")).toBe(known);
    expect(names(again.byNoun)).toEqual({ seed_packet: ["seed_packets"] });
  });
});

describe("helpers", () => {
  it("outlines a value: digits as 9, letters as a", () => {
    expect(outline("INV-000123")).toBe("aaa-999999");
    expect(outline("#k7 Zz")).toBe("#a9 aa");
  });

  it("digs a dotted path, and nothing through a value that is no object", () => {
    expect(dig({ crate: { lid: { colour: "green" } } }, "crate.lid.colour")).toBe("green");
    expect(dig({ crate: { lid: "green" } }, "crate.lid.colour")).toBeUndefined();
    expect(dig({ crate: [{ lid: 1 }] }, "crate.0")).toBeUndefined();
    expect(dig(null, "crate")).toBeUndefined();
  });

  it("fills a part's path with the keys given, in order", () => {
    const fills = { path: ["pickers", "*", "baskets", "*", "fills"] };
    expect(partTarget(fills, ["P-1", "K-2"])).toBe("pickers/P-1/baskets/K-2/fills");
    expect(partTarget(fills, ["P-1"])).toBe("pickers/P-1/baskets/*/fills");
    expect(partTarget(fills)).toBe("pickers/*/baskets/*/fills");
    expect(partTarget({ path: [] })).toBe(".");
  });
});

describe("a natural key needs more than one record a state", () => {
  it("a name unique only within each state's single record keys nothing; an id repeated across states still does", () => {
    const traded = shapeOf([
      { history: [{ symbol: "ACME", qty: 1 }] },
      { history: [{ symbol: "ACME", qty: 2 }] },
    ]);
    expect(collection(traded, "history").keyField).toBeUndefined();
    const copied = shapeOf([{ jobs: [{ id: "j1", title: "a" }] }, { jobs: [{ id: "j1", title: "a" }] }]);
    expect(collection(copied, "jobs").keyField).toBe("id");
    const named = shapeOf([{ crews: [{ name: "North" }, { name: "South" }] }, { crews: [{ name: "East" }] }]);
    expect(collection(named, "crews").keyField).toBe("name");
  });
});
