import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Tool } from "../src/catalog/index.js";
import { lintPaths } from "../src/commands/lint.js";
import { computationEffects } from "../src/compute/index.js";
import { bash, DocRun, type Fence, fencesWhere, linesOf, readerEnv, toolsimBin } from "./support/docs.js";
import {
  connectStdio,
  type FakeOpenAI,
  type RecordedRequest,
  SHIPPED_TOOLSETS,
  startFakeOpenAI,
  tempDir,
} from "./support/index.js";

/**
 * docs/catalog.md and docs/compute.md as written: every JSON example of the catalog format
 * loads and lints clean inside a toolset (each with the arguments, documented errors and
 * earlier bindings it refers to, said below), the `toolsim infer` lines run on a shop of the
 * reader's, the computation effects shown are those the compute room gives, and the currency
 * table shown converts as its comments say.
 */
const CATALOG = "docs/catalog.md";
const COMPUTE = "docs/compute.md";
const doc = new DocRun(import.meta.filename);
const dir = tempDir("toolsim-catalog-docs-");
afterAll(() => dir.cleanup());

/** JSON values one after the other, as the examples write several effects, one per line or more. */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === "\\") i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === "{" || c === "[") {
      if (depth++ === 0) start = i;
    } else if (c === "}" || c === "]") {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return values;
}

const str = { type: "string" };
const num = { type: "number" };
const lines = { type: "array", items: { type: "object", properties: { sku: str, quantity: num } } };

/**
 * What each example refers to and leaves unsaid: the tool's arguments, its documented errors,
 * the effects that bind what it names (`$order`, `$lines`, …) and the state its targets reach.
 */
interface Setting {
  args: Record<string, unknown>;
  errors?: string[];
  before?: unknown[];
  state?: Record<string, unknown>;
}
const SETTINGS: Record<string, Setting> = {
  "Computed values": {
    args: { items: lines },
    state: { products: { "SKU-1": { sku: "SKU-1", price: 10 } }, orders: {} },
  },
  Conditions: { args: { customer_id: str, coupon: str }, state: { customers: {} } },
  Arrays: { args: { order_id: str, item_id: str }, errors: ["ITEM_NOT_IN_ORDER"], state: { orders: {} } },
  "Several entities, each": {
    args: { items: lines },
    errors: ["PRODUCT_NOT_FOUND", "OUT_OF_STOCK"],
    state: { products: {} },
  },
  Check: { args: { origin: str, destination: str }, errors: ["SAME_AIRPORT"] },
  Respond: {
    args: { order_id: str, codes: { type: "array", items: str } },
    before: [
      { kind: "read", target: "orders/{order_id}", as: "order" },
      { kind: "read", each: "codes", target: "fees/{$item}", as: "lines" },
    ],
    state: { orders: {}, fees: {} },
  },
  Let: {
    args: { return_id: str, amount: num },
    before: [
      { kind: "read", target: "returns/{return_id}", as: "ret" },
      { kind: "read", target: "orders/{$ret.order_id}", as: "order" },
    ],
    state: { returns: {}, orders: {} },
  },
  "Nested targets": {
    args: { order_id: str, text: str },
    errors: ["PAYMENT_METHOD_NOT_FOUND", "ORDER_NOT_FOUND"],
    before: [{ kind: "read", target: "orders/{order_id}", as: "order" }],
    state: { orders: {}, users: {} },
  },
  "Every shape of state": {
    args: { ticket_id: str, text: str, path: str, title: str },
    errors: ["TICKET_NOT_FOUND", "PAGE_NOT_FOUND"],
    state: {
      desk: { tickets: [{ id: "T-1", status: "open" }] },
      feed: { posts: {}, post_counter: 1 },
      site: { title: "Home", pages: [{ slug: "faq", title: "FAQ", pages: [] }] },
    },
  },
  Trees: {
    args: { source: str, destination: str },
    errors: ["NO_SUCH_FILE"],
    state: {
      disk: { root: { home: { type: "directory", contents: {} } } },
      runtime: { cwd: "/home" },
    },
  },
  Lists: {
    args: { origin: str, max_price: num, limit: { type: "integer" } },
    errors: ["NO_FLIGHTS"],
    state: { flights: {} },
  },
};

/** A toolset around one example: one tool whose effects are the example's, after what it refers to. */
function toolsetAround(effects: unknown[], setting: Setting, extra: Record<string, unknown> = {}) {
  return {
    id: "catalog_examples",
    name: "Catalog examples",
    field: "Documentation",
    subdomain: "Examples",
    description: "A tool around one example of docs/catalog.md.",
    state: setting.state ?? {},
    tools: [
      {
        name: "run_example",
        description: "Runs one example of the effects language.",
        inputSchema: { type: "object", properties: setting.args },
        errors: (setting.errors ?? []).map((code) => ({
          code,
          status: 400,
          message: `The example answers ${code}.`,
          when: "the example's condition holds",
        })),
        effects: [...(setting.before ?? []), ...effects],
        ...extra,
      },
    ],
  };
}

async function lintErrors(name: string, toolset: unknown) {
  const file = join(dir.path, "examples", `${name}.json`);
  mkdirSync(join(dir.path, "examples"), { recursive: true });
  writeFileSync(file, JSON.stringify(toolset, null, 2));
  return (await lintPaths([file])).filter((p) => p.severity === "error");
}

describe("docs/catalog.md: its JSON examples load", () => {
  const examples = fencesWhere(CATALOG, { lang: "json" });

  it("the state example is a toolset's state", async () => {
    const [state] = examples.filter((f) => f.heading === "State");
    const value = JSON.parse(state?.code ?? "");
    expect(value.runtime.now).toBe("2026-03-02T09:00:00Z");
    const setting: Setting = { args: { order_id: str }, errors: ["ORDER_NOT_FOUND"], state: value };
    const read = { kind: "read", target: "orders/{order_id}", missing: "ORDER_NOT_FOUND", output: "order" };
    expect(await lintErrors("state", toolsetAround([read], setting))).toEqual([]);
    doc.ran(state as Fence);
  });

  it("every effect example lints clean in a tool that has what it refers to", async () => {
    const effects = examples.filter((f) => f.heading !== "State" && f.heading !== "Inference");
    expect(effects.length).toBeGreaterThanOrEqual(12);
    for (const f of effects) {
      const setting = SETTINGS[f.heading];
      expect(setting, `${f.doc}:${f.line} (${f.heading}) has a setting here`).toBeDefined();
      const values = jsonValues(f.code);
      expect(values.length, `${f.doc}:${f.line}`).toBeGreaterThan(0);
      expect(
        await lintErrors(`line-${f.line}`, toolsetAround(values, setting as Setting)),
        `${f.doc}:${f.line}`,
      ).toEqual([]);
      doc.ran(f);
    }
  });

  it("the inferred mark shown is one a tool may carry", async () => {
    const [mark] = examples.filter((f) => f.heading === "Inference");
    const { inferred } = JSON.parse(`{${mark?.code ?? ""}}`);
    expect(inferred.by).toBe("rules");
    // the tool the mark's notes describe: a pending shipment cancelled with a reason
    const setting: Setting = {
      args: { shipment_id: str, reason: str },
      errors: ["NON_PENDING_SHIPMENT_CANNOT_BE_CANCELLED"],
      state: { shipments: { "SH-1": { shipment_id: "SH-1", status: "pending" } } },
    };
    const cancel = {
      kind: "update",
      target: "shipments/{shipment_id}",
      require: [{ field: "status", in: ["pending"], error: "NON_PENDING_SHIPMENT_CANNOT_BE_CANCELLED" }],
      set: { status: "cancelled", cancel_reason: "{reason}" },
      output: "",
    };
    const outputSchema = {
      type: "object",
      properties: { shipment_id: str, status: str, refund_reference: str },
    };
    expect(
      await lintErrors("inferred", toolsetAround([cancel], setting, { inferred, outputSchema })),
    ).toEqual([]);
    doc.ran(mark as Fence);
  });
});

describe("docs/catalog.md: the toolsim infer lines", () => {
  let model: FakeOpenAI;
  const work = join(dir.path, "infer");
  const bin = toolsimBin(join(dir.path, "bin"));
  /** What the model writes for the one tool it is scripted for; nothing usable for the others. */
  const RECEIPT = [
    {
      kind: "update",
      target: "return_requests/{return_id}",
      missing: "RETURN_NOT_FOUND",
      require: [{ field: "status", in: ["in_transit"], error: "RETURN_NOT_IN_TRANSIT" }],
      set: { status: "received", condition: "{condition}" },
      output: "return_request",
    },
  ];
  const writes = (request: RecordedRequest) => {
    if (request.responseFormat?.json_schema?.name !== "tool_effects")
      return { kind: "status" as const, status: 500, message: "only effects are scripted here" };
    const asked = request.messages.map((m) => m.content).join("\n");
    const effects = asked.includes("record_return_receipt")
      ? RECEIPT
      : [{ kind: "read", target: "nowhere/{nothing}" }];
    return { kind: "json" as const, value: { effects } };
  };

  beforeAll(async () => {
    model = await startFakeOpenAI({ respond: writes });
    // the reader's shop: the shipped returns desk as another catalog would bring it, without effects
    const shop = JSON.parse(readFileSync(join(SHIPPED_TOOLSETS, "ecommerce_returns.json"), "utf8"));
    shop.id = "shop";
    for (const tool of shop.tools) delete tool.effects;
    delete shop.tasks;
    mkdirSync(join(work, "toolsets"), { recursive: true });
    writeFileSync(join(work, "toolsets", "shop.json"), JSON.stringify(shop, null, 2));
  });
  afterAll(() => model?.close());

  it("report, report as JSON, write, and write what the rules left with a model", async () => {
    const [block] = fencesWhere(CATALOG, { heading: "Inference", lang: "sh" });
    const [report, asJson, write, withModel] = linesOf(block as Fence);
    // a model at OpenAI's endpoint, reached through OPENAI_BASE_URL
    const env = readerEnv(bin, join(dir.path, "home"), {
      OPENAI_API_KEY: "sk-docs",
      OPENAI_BASE_URL: model.url,
    });
    const run = async (line: string | undefined) => {
      const ran = await bash(line ?? "", work, env);
      expect(ran.code, `${line}\n${ran.stderr}`).toBe(0);
      return ran.stdout;
    };
    expect(await run(report)).toMatch(/^shop\/get_order: inferred$/m);
    expect(JSON.parse(await run(asJson))).toBeTypeOf("object");
    expect(await run(write)).toContain("wrote toolsets/shop.json");
    const written = () => JSON.parse(readFileSync(join(work, "toolsets", "shop.json"), "utf8"));
    expect(written().tools.find((t: { name: string }) => t.name === "get_order").inferred.by).toBe("rules");
    await run(withModel);
    const receipt = written().tools.find((t: { name: string }) => t.name === "record_return_receipt");
    expect(receipt.inferred).toMatchObject({ by: "model", model: "gpt-4.1-mini" });
    expect(receipt.effects).toEqual(RECEIPT);
    expect(await lintErrors("shop-after", written())).toEqual([]);
    doc.ran(block as Fence);
  }, 120_000);
});

describe("docs/compute.md", () => {
  it("the effects shown are those computationEffects gives the tools the comments describe", () => {
    const [shown] = fencesWhere(COMPUTE, { heading: "What a recognised tool looks like" });
    const tool = (
      name: string,
      description: string,
      properties: Record<string, unknown>,
      extra: Partial<Tool> = {},
    ) =>
      ({
        name,
        description,
        inputSchema: { type: "object", properties, required: Object.keys(properties) },
        errors: [],
        effects: [],
        ...extra,
      }) as Tool;
    const described: Record<string, Tool> = {
      calculator: tool(
        "calculator",
        "Calculate the result of a mathematical expression.",
        { expression: str },
        {
          errors: [
            {
              code: "INVALID_CHARACTERS_IN_EXPRESSION",
              status: 400,
              message: "Error: invalid characters in expression",
              when: "the expression has characters that are not arithmetic",
            },
          ],
        },
      ),
      loan_installment: tool("loan_installment", "The monthly installment of a loan.", {
        loan_amount: { type: "number", description: "The amount borrowed." },
        annual_rate: { type: "number", description: "The yearly interest rate, as a percentage." },
        years: { type: "integer", description: "The term in years." },
      }),
      convert_length: tool(
        "convert_length",
        "Convert a length between units.",
        { value: num, from_unit: str, to_unit: str },
        { outputSchema: { type: "object", properties: { converted_value: num, unit: str } } },
      ),
    };
    const rows = linesOf(shown as Fence);
    let seen = 0;
    for (let i = 0; i < rows.length; i += 2) {
      const name = /^\/\/ ([a-z_]+)\(/.exec(rows[i] ?? "")?.[1] ?? "";
      expect(described[name], rows[i]).toBeDefined();
      expect(computationEffects(described[name] as Tool), name).toEqual(JSON.parse(rows[i + 1] ?? ""));
      seen++;
    }
    expect(seen).toBe(3);
    doc.ran(shown as Fence);
  });

  it("the rates shown in a state convert as the comments say", async () => {
    const [shown] = fencesWhere(COMPUTE, { heading: "Currencies" });
    const parsed = ts.parseConfigFileTextToJson("state.jsonc", shown?.code ?? "");
    expect(parsed.error).toBeUndefined();
    const file = join(dir.path, "rates.json");
    writeFileSync(
      file,
      JSON.stringify({
        id: "rates_example",
        name: "Rates example",
        field: "Documentation",
        subdomain: "Examples",
        description: "Converts amounts with the rates of docs/compute.md.",
        state: parsed.config,
        tools: [
          {
            name: "convert_amount",
            description: "Converts an amount of money from one currency to another.",
            inputSchema: {
              type: "object",
              properties: { amount: num, from: str, to: str },
              required: ["amount", "from", "to"],
            },
            effects: [{ kind: "respond", value: { $expr: "$convert(amount, from, to)" } }],
          },
        ],
      }),
    );
    const { client } = await connectStdio(["--toolsets", file, "--db", join(dir.path, "rates.db")]);
    try {
      const convert = async (amount: number, from: string, to: string) => {
        const result = await client.callTool({ name: "convert_amount", arguments: { amount, from, to } });
        expect(result.isError, JSON.stringify(result)).toBeFalsy();
        return Number((result.content as Array<{ text: string }>)[0]?.text);
      };
      expect(await convert(100, "USD", "EUR")).toBeCloseTo(92, 9); // code → units per one USD
      expect(await convert(300, "JPY", "USD")).toBeCloseTo(2, 9); // {rate, base}
      expect(await convert(10, "EUR", "GBP")).toBeCloseTo(8.6, 9); // pair A/B: units of B per one A
      expect(await convert(2, "CHF", "SEK")).toBeCloseTo(23.8, 9); // explicit from/to
      expect(await convert(10, "NOK", "ISK")).toBeCloseTo(129, 9); // a row of a cross-rate table
    } finally {
      await client.close();
    }
    doc.ran(shown as Fence);
  }, 60_000);

  it("runs every block it claims", () => {
    expect(doc.missing()).toEqual([]);
  });
});
