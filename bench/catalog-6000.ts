import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolsetInput } from "../src/catalog/index.js";

/**
 * A large synthetic catalog for the scale bench: DOMAINS.length toolsets × ENTITIES.length
 * entities × 5 verbs (60 × 20 × 5 = 6,000 tools). Schemas look like real APIs: enums,
 * ranges, formats, patterns, nested objects, arrays, output schemas; entities with an even
 * index get declarative effects against a small sandbox state, the others are left to the
 * synthesizer.
 */
const DOMAINS = [
  "clinic",
  "pharmacy",
  "dental",
  "veterinary",
  "hospital",
  "insurance",
  "bank",
  "brokerage",
  "payroll",
  "tax",
  "retail",
  "grocery",
  "fashion",
  "furniture",
  "electronics",
  "marketplace",
  "logistics",
  "warehouse",
  "fleet",
  "airline",
  "hotel",
  "rental",
  "travel",
  "events",
  "ticketing",
  "restaurant",
  "catering",
  "fitness",
  "school",
  "university",
  "library",
  "museum",
  "city",
  "utility",
  "telecom",
  "energy",
  "solar",
  "farm",
  "winery",
  "brewery",
  "construction",
  "realestate",
  "property",
  "legal",
  "court",
  "recruiting",
  "staffing",
  "nonprofit",
  "church",
  "sports",
  "gaming",
  "streaming",
  "publishing",
  "newsroom",
  "podcast",
  "studio",
  "agency",
  "saas",
  "security",
  "research",
];
const ENTITIES = [
  "account",
  "invoice",
  "order",
  "ticket",
  "shipment",
  "appointment",
  "asset",
  "contract",
  "report",
  "task",
  "project",
  "vendor",
  "payment",
  "subscription",
  "document",
  "review",
  "campaign",
  "device",
  "location",
  "employee",
];
const STATUSES = ["draft", "active", "on_hold", "completed", "cancelled"];
const VERBS = ["get", "list", "create", "update", "delete"] as const;
type Verb = (typeof VERBS)[number];

export const CATALOG_TOOLSETS = DOMAINS.length;
export const CATALOG_TOOLS = DOMAINS.length * ENTITIES.length * VERBS.length;

const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

const ADDRESS = {
  type: "object",
  description: "Postal address.",
  properties: {
    line1: { type: "string", minLength: 1, maxLength: 200 },
    line2: { type: "string", maxLength: 200 },
    city: { type: "string", minLength: 1, maxLength: 100 },
    region: { type: "string", maxLength: 100 },
    postal_code: { type: "string", pattern: "^[A-Za-z0-9 -]{3,10}$" },
    country: { type: "string", pattern: "^[A-Z]{2}$", description: "ISO 3166-1 alpha-2 code." },
  },
  required: ["line1", "city", "country"],
  additionalProperties: false,
};

function entitySchema(entity: string, idProperty: string) {
  return {
    type: "object",
    properties: {
      [idProperty]: { type: "string" },
      name: { type: "string" },
      status: { type: "string", enum: STATUSES },
      priority: { type: "integer", minimum: 1, maximum: 5 },
      amount: { type: "number", minimum: 0 },
      currency: { type: "string", enum: ["USD", "EUR", "GBP", "JPY"] },
      contact_email: { type: "string", format: "email" },
      due_date: { type: "string", format: "date" },
      created_at: { type: "string", format: "date-time" },
      address: ADDRESS,
      tags: { type: "array", items: { type: "string" } },
      owner: {
        type: "object",
        properties: { user_id: { type: "string" }, display_name: { type: "string" } },
      },
    },
    required: [idProperty, "name", "status"],
    description: `A ${entity} record.`,
  };
}

interface ToolContext {
  domain: string;
  entity: string;
  collection: string;
  idProperty: string;
  effects: boolean;
}

function tool(verb: Verb, ctx: ToolContext): ToolsetInput["tools"][number] {
  const { domain, entity, collection, idProperty } = ctx;
  const name = `${domain}_${verb}_${entity}`;
  const idSchema = {
    type: "string",
    pattern: `^${entity.slice(0, 3).toUpperCase()}-[0-9]{5}$`,
    description: `Id of the ${entity}.`,
  };
  const notFound = {
    code: "NOT_FOUND",
    status: 404,
    message: `No ${entity} {${idProperty}}.`,
    when: `the ${entity} id is unknown`,
  };
  const entityOut = entitySchema(entity, idProperty);
  const system = `${title(domain)} back office`;
  switch (verb) {
    case "get":
      return {
        name,
        title: `Get ${entity}`,
        description: `Fetch one ${entity} of the ${system} by its id, with its status, amounts, contact and address.`,
        usage: `Use when you know the ${entity} id; to find ids, call ${domain}_list_${entity}.`,
        inputSchema: {
          type: "object",
          properties: {
            [idProperty]: idSchema,
            include: {
              type: "array",
              items: { type: "string", enum: ["history", "attachments", "notes"] },
              uniqueItems: true,
              description: "Related data to include.",
            },
          },
          required: [idProperty],
          additionalProperties: false,
        },
        outputSchema: entityOut,
        errors: [notFound],
        annotations: { readOnlyHint: true },
        effects: ctx.effects
          ? [{ kind: "read", target: `${collection}/{${idProperty}}`, missing: "NOT_FOUND", output: "" }]
          : [],
      };
    case "list":
      return {
        name,
        title: `List ${entity}s`,
        description: `List the ${entity}s of the ${system}, filtered by status and creation date, newest first.`,
        inputSchema: {
          type: "object",
          properties: {
            status: { type: "string", enum: STATUSES, description: "Only this status." },
            created_after: {
              type: "string",
              format: "date",
              description: "Only those created after this day.",
            },
            owner_email: { type: "string", format: "email" },
            sort: { type: "string", enum: ["created_at", "due_date", "amount"], default: "created_at" },
            limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
            cursor: { type: "string", description: "Cursor from a previous page." },
          },
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: {
            items: { type: "array", items: entityOut },
            next_cursor: { type: "string" },
          },
          required: ["items"],
        },
        annotations: { readOnlyHint: true },
        effects: ctx.effects
          ? [
              {
                kind: "list",
                target: collection,
                where: { status: "{status}" },
                limit: "{limit}",
                output: "items",
              },
            ]
          : [],
      };
    case "create":
      return {
        name,
        title: `Create ${entity}`,
        description: `Create a ${entity} in the ${system}. The new ${entity} starts as a draft unless a status is given.`,
        usage: `Returns the new ${entity} with its id.`,
        inputSchema: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 120 },
            status: { type: "string", enum: STATUSES, default: "draft" },
            priority: { type: "integer", minimum: 1, maximum: 5 },
            amount: { type: "number", minimum: 0, multipleOf: 0.01 },
            currency: { type: "string", enum: ["USD", "EUR", "GBP", "JPY"] },
            contact_email: { type: "string", format: "email" },
            website: { type: "string", format: "uri" },
            due_date: { type: "string", format: "date" },
            address: ADDRESS,
            tags: {
              type: "array",
              items: { type: "string", maxLength: 40 },
              maxItems: 10,
              uniqueItems: true,
            },
          },
          required: ["name", "contact_email"],
          additionalProperties: false,
        },
        outputSchema: entityOut,
        errors: [
          {
            code: "DUPLICATE",
            status: 409,
            message: `A ${entity} named {name} already exists.`,
            when: `another ${entity} has the same name`,
          },
        ],
        effects: ctx.effects
          ? [
              {
                kind: "create",
                target: collection,
                id: { prefix: `${entity.slice(0, 3).toUpperCase()}-`, width: 5, field: idProperty },
                set: {
                  name: "{name}",
                  status: "{status}",
                  priority: "{priority}",
                  amount: "{amount}",
                  contact_email: "{contact_email}",
                  due_date: "{due_date}",
                  address: "{address}",
                  created_at: "{$now}",
                },
                output: "",
              },
            ]
          : [],
      };
    case "update":
      return {
        name,
        title: `Update ${entity}`,
        description: `Change the status, priority, amount or address of a ${entity} in the ${system}.`,
        inputSchema: {
          type: "object",
          properties: {
            [idProperty]: idSchema,
            status: { type: "string", enum: STATUSES },
            priority: { type: "integer", minimum: 1, maximum: 5 },
            amount: { type: "number", minimum: 0, multipleOf: 0.01 },
            notes: { type: "string", maxLength: 2000 },
            address: ADDRESS,
          },
          required: [idProperty],
          additionalProperties: false,
        },
        outputSchema: entityOut,
        errors: [
          notFound,
          {
            code: "CLOSED",
            status: 409,
            message: `The ${entity} {${idProperty}} is closed.`,
            when: `the ${entity} is completed or cancelled`,
          },
        ],
        effects: ctx.effects
          ? [
              {
                kind: "update",
                target: `${collection}/{${idProperty}}`,
                missing: "NOT_FOUND",
                require: [{ field: "status", notIn: ["completed", "cancelled"], error: "CLOSED" }],
                set: { status: "{status}", priority: "{priority}", amount: "{amount}", address: "{address}" },
                output: "",
              },
            ]
          : [],
      };
    case "delete":
      return {
        name,
        title: `Delete ${entity}`,
        description: `Delete a ${entity} from the ${system}. This cannot be undone.`,
        inputSchema: {
          type: "object",
          properties: {
            [idProperty]: idSchema,
            reason: { type: "string", enum: ["duplicate", "created_in_error", "customer_request", "other"] },
            confirm: { const: true, description: "Must be true." },
          },
          required: [idProperty, "confirm"],
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: { deleted: { type: "boolean" }, [idProperty]: { type: "string" } },
          required: ["deleted"],
        },
        errors: [notFound],
        annotations: { destructiveHint: true },
        effects: ctx.effects
          ? [{ kind: "delete", target: `${collection}/{${idProperty}}`, missing: "NOT_FOUND" }]
          : [],
      };
  }
}

function toolset(domain: string): ToolsetInput {
  const tools: ToolsetInput["tools"] = [];
  const state: Record<string, Record<string, unknown>> = {};
  ENTITIES.forEach((entity, index) => {
    const ctx: ToolContext = {
      domain,
      entity,
      collection: `${domain}_${entity}s`,
      idProperty: `${entity}_id`,
      effects: index % 2 === 0,
    };
    for (const verb of VERBS) tools.push(tool(verb, ctx));
    if (!ctx.effects) return;
    const rows: Record<string, unknown> = {};
    for (let n = 1; n <= 2; n++) {
      const id = `${entity.slice(0, 3).toUpperCase()}-${String(n).padStart(5, "0")}`;
      rows[id] = {
        [ctx.idProperty]: id,
        name: `${title(entity)} ${n}`,
        status: n === 1 ? "active" : "completed",
        priority: n,
        amount: 100 * n,
        currency: "USD",
        created_at: "2026-02-01T10:00:00Z",
      };
    }
    state[ctx.collection] = rows;
  });
  return {
    id: `bench_${domain}`,
    name: `${title(domain)} back office`,
    field: "Benchmark",
    subdomain: title(domain),
    description: `Records of a ${domain} business: ${ENTITIES.join(", ")}.`,
    state,
    tools,
  };
}

/** Writes the catalog's toolset files into `dir` (created if needed) and returns the folder. */
export function writeCatalog(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const domain of DOMAINS) {
    writeFileSync(join(dir, `bench_${domain}.json`), JSON.stringify(toolset(domain), null, 2));
  }
  return dir;
}
