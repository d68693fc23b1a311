import {
  couldHold,
  declaredAt,
  entityIn,
  type Id,
  idFieldNames,
  idIn,
  mentions,
  namedIds,
  placedObjects,
  scalarsOf,
  shows,
} from "./answers.js";
import type { Reply } from "./mcp-client.js";
import { schemaViolation } from "./schema-check.js";
import { argumentsFor, isObject, type Schema, singular } from "./schema-values.js";
import {
  closestPartners,
  isPureRead,
  type Profile,
  partnersOf,
  stemOfIdentifier,
  wordsOf,
} from "./tool-roles.js";

/**
 * Generated call sequences and the contradictions they look for, between an answer and what
 * earlier answers established: create → read (the created thing is readable by the id the
 * create answered, and shows what was written), update → read, delete → read (not found),
 * list after create (the list holds it), any id answered → readable, and every result inside
 * the tool's advertised output schema. A sequence runs against any server through `call`,
 * so the same sequence runs on toolsim and on a real server alike.
 */

export type Kind =
  | "create-read"
  | "update-read"
  | "delete-read"
  | "list-after-create"
  | "single-call"
  | "crud-chain";

export type Contradiction =
  | "unreadable-id"
  | "missed-write"
  | "delete-still-reads"
  | "list-misses-create"
  | "outside-output-schema";

export const CONTRADICTIONS: readonly Contradiction[] = [
  "unreadable-id",
  "missed-write",
  "delete-still-reads",
  "list-misses-create",
  "outside-output-schema",
];

/** Words of a read that answers what is known about a thing, not the thing (`get_file_info`). */
const METADATA_WORDS: ReadonlySet<string> = new Set(["info", "stat", "stats", "metadata"]);

export interface Step {
  tool: string;
  args: Record<string, unknown>;
  reply: Reply;
}

export interface Check {
  kind: Contradiction;
  tool: string;
  ok: boolean;
  detail: string;
}

export interface SequenceRun {
  kind: Kind;
  label: string;
  steps: Step[];
  checks: Check[];
  /** Why the sequence stopped before its checks (a create that failed, arguments that could not be made). */
  stopped?: string;
}

/** What a sequence may know of the world before it starts: the profiles, and the state where one is readable. */
export interface World {
  profiles: readonly Profile[];
  /** The starting state (toolsim's `toolsim://session/state`), for ids that exist; absent for a real server. */
  state?: Record<string, unknown>;
  /** Every scalar of the starting state: an id found there was not invented by an answer. */
  known?: ReadonlySet<string>;
  /** Paths of a file system are made under this folder. */
  pathRoot?: string;
}

export interface Plan {
  kind: Kind;
  label: string;
  run(call: Caller, world: World, seed: number): Promise<SequenceRun>;
}

export type Caller = (tool: string, args: Record<string, unknown>) => Promise<Reply>;

/** The sequences a catalog's tools call for. */
export function plansFor(world: World, kinds: ReadonlySet<Kind>): Plan[] {
  // tools pair only within their toolset: two catalogs' get_item act on different things
  const groups = new Map<string, Profile[]>();
  for (const profile of world.profiles) {
    const members = groups.get(profile.group ?? "") ?? [];
    members.push(profile);
    groups.set(profile.group ?? "", members);
  }
  return [...groups.values()].flatMap((profiles) => groupPlans(profiles, kinds));
}

function groupPlans(profiles: readonly Profile[], kinds: ReadonlySet<Kind>): Plan[] {
  const plans: Plan[] = [];
  const plan = (kind: Kind, profile: Profile, body: (run: Runner) => Promise<void>) =>
    planOf(kind, profile, profiles, body);
  const readers = profiles.filter(isPureRead);
  for (const profile of profiles) {
    const reads = partnersOf(profile, readers, "read");
    if (profile.role === "create" && kinds.has("create-read") && reads.length > 0)
      plans.push(
        plan("create-read", profile, (r) => createRead(r, profile, closestPartners(profile, reads))),
      );
    if (profile.role === "create" && kinds.has("list-after-create")) {
      const list = partnersOf(profile, profiles, "list").find((l) => listable(l, profile));
      if (list) plans.push(plan("list-after-create", profile, (r) => listAfterCreate(r, profile, list)));
    }
    if (profile.role === "update" && profile.idArg && kinds.has("update-read") && reads[0])
      plans.push(plan("update-read", profile, (r) => updateRead(r, profile, reads[0] as Profile)));
    if (profile.role === "delete" && profile.idArg && kinds.has("delete-read") && reads[0])
      plans.push(plan("delete-read", profile, (r) => deleteRead(r, profile, reads[0] as Profile)));
    if (profile.role === "delete" && !profile.idArg && kinds.has("delete-read")) {
      const create = partnersOf(profile, profiles, "create").find((c) => sharedRecords(profile, c));
      const list = create && partnersOf(create, profiles, "list").find((l) => listable(l, create));
      const field = create && sharedRecords(profile, create);
      if (create && list && field)
        plans.push(plan("delete-read", profile, (r) => deleteRecords(r, create, profile, list, field)));
    }
    if (profile.role === "create" && kinds.has("crud-chain")) {
      const chain = chainOf(profile, profiles);
      if (chain) plans.push(plan("crud-chain", profile, (r) => crudChain(r, chain)));
    }
    if (kinds.has("single-call")) plans.push(plan("single-call", profile, (r) => singleCall(r, profile)));
  }
  return plans;
}

/** A plan whose sequences see only the tools of its own toolset. */
function planOf(
  kind: Kind,
  profile: Profile,
  scope: readonly Profile[],
  body: (run: Runner) => Promise<void>,
): Plan {
  const label = `${kind} ${profile.tool.name}`;
  return {
    kind,
    label,
    async run(call, world, seed) {
      const runner = new Runner(call, { ...world, profiles: scope }, seed, kind, label);
      try {
        await body(runner);
      } catch (error) {
        if (!(error instanceof Stop)) throw error;
        runner.record.stopped = error.message;
      }
      await runner.readAnsweredIds();
      return runner.record;
    },
  };
}

class Stop extends Error {}

/** One sequence being run: its calls, the ids it made, the checks it found. */
class Runner {
  readonly record: SequenceRun;
  /** Ids made earlier in this sequence, by subject. */
  private readonly made = new Map<string, Id>();
  private calls = 0;

  constructor(
    private readonly caller: Caller,
    readonly world: World,
    private readonly seed: number,
    kind: Kind,
    label: string,
  ) {
    this.record = { kind, label, steps: [], checks: [] };
  }

  check(kind: Contradiction, tool: string, ok: boolean, detail: string): void {
    this.record.checks.push({ kind, tool, ok, detail });
  }

  /** Calls a tool and checks its result against the advertised output schema. */
  async call(profile: Profile, args: Record<string, unknown>): Promise<Reply> {
    const reply = await this.caller(profile.tool.name, args);
    this.record.steps.push({ tool: profile.tool.name, args, reply });
    const schema = profile.tool.outputSchema;
    if (schema && !reply.isError) {
      const problem =
        reply.structured === undefined ? "no structured content" : schemaViolation(schema, reply.structured);
      this.check("outside-output-schema", profile.tool.name, !problem, problem ?? "");
    }
    return reply;
  }

  /** Arguments for a tool: valid against its schema, naming ids that exist or that this sequence made. */
  argumentsFor(
    profile: Profile,
    fixed: Record<string, unknown> = {},
    optional = false,
  ): Record<string, unknown> {
    const schema = profile.tool.inputSchema as Schema;
    const related = this.related(profile);
    const generated = argumentsFor(schema, {
      seed: this.seed * 101 + ++this.calls,
      optional,
      hint: (name, property) =>
        name in fixed ? fixed[name] : name in related ? related[name] : this.hint(profile, name, property),
    });
    const args = { ...(generated.value as Record<string, unknown>), ...fixed };
    const invalid = generated.invalid ?? schemaViolation(schema, args);
    if (invalid) throw new Stop(`no valid arguments for ${profile.tool.name}: ${invalid}`);
    return args;
  }

  private hint(profile: Profile, name: string, schema: Schema): unknown {
    const list = schema.type === "array";
    const wrap = (id: Id | undefined) => (id === undefined ? undefined : list ? [id] : id);
    if (this.world.pathRoot && isPathName(name)) return wrap(this.path(profile, name));
    const stem =
      stemOfIdentifier(name) ??
      (name === profile.idArg || name in profile.keys ? profile.subjects[0] : undefined);
    if (!stem) return undefined;
    const itemType = list && isObject(schema.items) ? schema.items.type : schema.type;
    const made = this.made.get(stem);
    if (made !== undefined) return wrap(typed(made, itemType));
    const collection = profile.keys[name] ?? (name === profile.idArg ? profile.collection : undefined);
    const existing = this.existing(stem, collection);
    return wrap(existing === undefined ? undefined : typed(existing, itemType));
  }

  private path(profile: Profile, name: string): string {
    const made = this.made.get("path");
    if (made !== undefined && !/destination|target|new/i.test(name)) return String(made);
    const folder = wordsOf(profile.tool.name).some((w) => ["directory", "dir", "folder"].includes(w));
    const token = `item${this.seed}-${this.calls}`;
    return `${this.world.pathRoot}/${folder ? token : `${token}.txt`}`;
  }

  /** An id the starting state holds for a subject (its collection's keys), chosen by the seed. */
  existing(subject: string, collection?: string): Id | undefined {
    return this.existingEntity(subject, collection)?.key;
  }

  private existingEntity(subject: string, collection?: string): { key: string; entity: unknown } | undefined {
    const state = this.world.state;
    if (!state) return undefined;
    const names = collection
      ? [collection]
      : Object.keys(state).filter((name) => singular(name) === subject || name === subject);
    for (const name of names) {
      const entities = state[name];
      if (!isObject(entities)) continue;
      const keys = Object.keys(entities);
      const key = keys[this.seed % Math.max(1, keys.length)];
      if (key !== undefined) return { key, entity: entities[key] };
    }
    return undefined;
  }

  /**
   * Ids that belong together: when the entity picked for one argument names another
   * argument's value (an order's `customer_id`), that value is taken, so a call about an order
   * and its customer names the order's own customer.
   */
  private related(profile: Profile): Record<string, unknown> {
    const properties = isObject(profile.tool.inputSchema.properties)
      ? profile.tool.inputSchema.properties
      : {};
    const picks: Array<[string, unknown]> = [];
    for (const name of Object.keys(properties)) {
      const stem = stemOfIdentifier(name);
      if (!stem || this.made.has(stem)) continue;
      const picked = this.existingEntity(stem, profile.keys[name]);
      if (picked) picks.push([name, picked.entity]);
    }
    const related: Record<string, unknown> = {};
    for (const [name] of picks)
      for (const [other, entity] of picks)
        if (
          other !== name &&
          isObject(entity) &&
          (typeof entity[name] === "string" || typeof entity[name] === "number")
        )
          related[name] = entity[name];
    return related;
  }

  remember(subject: string, id: Id): void {
    this.made.set(subject, id);
    if (typeof id === "string" && this.world.pathRoot && id.startsWith(this.world.pathRoot))
      this.made.set("path", id);
  }

  /** Creates what a create needs first (the parent its arguments name), when the state has none. */
  async prerequisites(profile: Profile): Promise<void> {
    const properties = isObject(profile.tool.inputSchema.properties)
      ? profile.tool.inputSchema.properties
      : {};
    const nested = Object.entries(properties).flatMap(([name, schema]) =>
      isObject(schema) &&
      schema.type === "array" &&
      isObject(schema.items) &&
      isObject(schema.items.properties)
        ? Object.keys(schema.items.properties)
        : [name],
    );
    for (const name of nested) {
      const stem = stemOfIdentifier(name);
      if (!stem || this.made.has(stem) || this.existing(stem) !== undefined) continue;
      if (profile.subjects.includes(stem)) continue;
      const creator = this.world.profiles.find((p) => p.role === "create" && p.subjects.includes(stem));
      if (!creator || creator === profile) continue;
      const args = this.argumentsFor(creator, {}, true);
      const reply = await this.call(creator, args);
      if (reply.isError) continue;
      const field = wordsOf(singular(name)).at(-1) ?? "id";
      const id = idIn(reply.value, [field, "id", `${stem}_id`]) ?? idIn(args, [field, "id", `${stem}_id`]);
      if (id !== undefined) this.remember(stem, id);
    }
  }

  /** Runs a create; stops the sequence when it is not answered with success. */
  async create(profile: Profile): Promise<{ args: Record<string, unknown>; reply: Reply }> {
    await this.prerequisites(profile);
    const args = this.argumentsFor(profile, {}, true);
    const reply = await this.call(profile, args);
    if (reply.rejected) throw new Stop(`the create was rejected (${reply.rejected.join(", ")})`);
    if (reply.isError) throw new Stop(`the create answered an error: ${errorOf(reply)}`);
    return { args, reply };
  }

  /** The id of what a create made, as a read asks for it: from the answer, else from what the create was given. */
  createdId(created: { args: Record<string, unknown>; reply: Reply }, read: Profile): Id | undefined {
    const fields = idFieldNames(read.idArg, read.subjects);
    return idIn(created.reply.value, fields) ?? idIn(created.args, fields);
  }

  async read(read: Profile, id: Id): Promise<Reply> {
    const value = read.idList ? [id] : id;
    return this.call(read, this.argumentsFor(read, { [read.idArg as string]: value }));
  }

  /** A read found the thing: no error, and a read of a list of ids answers that id. */
  found(read: Profile, reply: Reply, id: Id): boolean {
    if (reply.isError) return false;
    return read.idList ? mentions(reply.value, id) : true;
  }

  /**
   * A create that answers no id although its own output schema promises one: the thing it
   * made can be read by no id.
   */
  missingId(create: Profile, read: Profile, reply: Reply): void {
    const fields = idFieldNames(read.idArg, read.subjects);
    const declared = [...declaredAt(create.tool.outputSchema, []).keys()];
    const promised = fields.find((f) => declared.includes(f));
    if (!promised) return;
    this.check(
      "unreadable-id",
      read.tool.name,
      false,
      `${create.tool.name} answered no ${promised} (its output schema declares one): ${short(reply.value)}`,
    );
  }

  /**
   * An update or a delete of an id a create just answered must find it: a not-found answer
   * (status 404, a `…NOT_FOUND` code, "not found") says the id names nothing. Other errors
   * (a guard, another argument) say nothing about the id.
   */
  foundBy(create: Profile, tool: Profile, reply: Reply, id: Id): void {
    if (reply.rejected) return;
    const lost = reply.isError && notFound(reply);
    this.check(
      "unreadable-id",
      tool.tool.name,
      !lost,
      `${create.tool.name} made ${short(id)}; ${tool.tool.name} answered ${lost ? `not found: ${errorOf(reply)}` : "for it"}`,
    );
  }

  /** The thing a write made or changed is found by a read of its id. */
  readBack(writer: Profile, read: Profile, reply: Reply, id: Id, did: string): void {
    const found = this.found(read, reply, id);
    const outcome = found
      ? "found it"
      : reply.isError
        ? `answered an error: ${errorOf(reply)}`
        : `answered without it: ${short(reply.value)}`;
    this.check(
      "unreadable-id",
      read.tool.name,
      found,
      `${writer.tool.name} ${did} ${short(id)}; ${read.tool.name} ${outcome}`,
    );
  }

  /** What was written shows in what a read answered: each written field the read answers or declares. */
  compareWritten(
    written: Record<string, unknown>,
    read: Profile,
    reply: Reply,
    id: Id,
    writer: string,
  ): void {
    // a read of what is known about a thing (`get_file_info`, `stat`) answers no field it was given
    if (reply.isError || wordsOf(read.tool.name).some((w) => METADATA_WORDS.has(w))) return;
    const fields = idFieldNames(read.idArg, read.subjects);
    const found = entityIn(reply.value, id, fields);
    if (!found) return;
    const { entity } = found;
    const declared = declaredAt(read.tool.outputSchema, found.path);
    for (const [field, value] of Object.entries(record(written))) {
      if (fields.includes(field) || value === null || value === undefined) continue;
      const schema = declared.get(field);
      if (!(field in entity) && !schema) continue;
      // a field of the same name that holds another kind of value is another thing (file metadata, not its text)
      if (schema && !couldHold(schema, value)) continue;
      const ok = field in entity && shows(value, entity[field]);
      this.check(
        "missed-write",
        read.tool.name,
        ok,
        `${writer} wrote ${field} = ${short(value)}; ${read.tool.name} answered ${field in entity ? short(entity[field]) : "no such field"}`,
      );
    }
  }

  /** Ids that answers named and that no one gave: each is read once, where a read of its kind exists. */
  async readAnsweredIds(): Promise<void> {
    const known = this.world.known ?? new Set<string>();
    const given = scalarsOf(this.record.steps.map((s) => s.args));
    const readers = this.world.profiles.filter((p) => isPureRead(p) && !p.idList);
    const seen = new Set<string>();
    for (const step of [...this.record.steps]) {
      if (step.reply.isError) continue;
      const profile = this.world.profiles.find((p) => p.tool.name === step.tool);
      if (!profile || profile.role === "read") continue;
      for (const { field, stem, id } of namedIds(step.reply.value)) {
        const key = `${stem}:${id}`;
        if (seen.has(key) || known.has(String(id)) || given.has(String(id))) continue;
        seen.add(key);
        const read = readers.find((r) => r.idArg === field) ?? readers.find((r) => r.subjects[0] === stem);
        if (!read) continue;
        const reply = await this.read(read, id).catch(() => undefined);
        if (!reply || reply.rejected) continue;
        this.check(
          "unreadable-id",
          read.tool.name,
          !reply.isError,
          `${step.tool} answered ${field} = ${short(id)}; ${read.tool.name} ${reply.isError ? `answered an error: ${errorOf(reply)}` : "found it"}`,
        );
        if (seen.size >= 3) return;
      }
    }
  }
}

/** The record a create or an update wrote: its arguments, or the one item of a batch (`entities: [{...}]`). */
function record(args: Record<string, unknown>): Record<string, unknown> {
  const entries = Object.entries(args);
  if (entries.length === 1) {
    const only = entries[0]?.[1];
    if (Array.isArray(only) && only.length === 1 && isObject(only[0])) return only[0];
    if (isObject(only)) return only;
  }
  return args;
}

// ── the sequences ───────────────────────────────────────────────────────────

async function createRead(run: Runner, create: Profile, reads: readonly Profile[]): Promise<void> {
  const created = await run.create(create);
  for (const read of reads) {
    const id = run.createdId(created, read);
    if (id === undefined) {
      run.missingId(create, read, created.reply);
      continue;
    }
    const reply = await run.read(read, id);
    if (reply.rejected) continue;
    run.readBack(create, read, reply, id, "made");
    if (run.found(read, reply, id)) run.compareWritten(created.args, read, reply, id, create.tool.name);
  }
}

async function listAfterCreate(run: Runner, create: Profile, list: Profile): Promise<void> {
  const created = await run.create(create);
  const id =
    idIn(created.reply.value, idFieldNames(undefined, create.subjects.slice(0, 1))) ??
    createdPath(run, created.args);
  const args = listCall(run, list, created.args, id);
  const reply = await run.call(list, args);
  if (reply.rejected) return;
  if (paged(reply.value, args)) return;
  const written = listedFields(scalarFields(record(created.args)), list, reply.value);
  // without an id, the list is judged by the fields of the record its items show or declare
  if (id === undefined && Object.keys(written).length === 0) return;
  const ok =
    !reply.isError && (id !== undefined ? mentions(reply.value, id) : containsRecord(reply.value, written));
  run.check(
    "list-misses-create",
    list.tool.name,
    ok,
    `${create.tool.name} made ${id !== undefined ? short(id) : short(scalarFields(written))}; ${list.tool.name} ${reply.isError ? `answered an error: ${errorOf(reply)}` : "did not list it"}`,
  );
}

/**
 * A list's arguments: every filter named like a field the create wrote, with the value it
 * wrote (a folder is listed by its parent's path), limits at their largest; when those break
 * the list's schema together (one filter of several allowed), the required ones alone.
 */
function listCall(
  run: Runner,
  list: Profile,
  given: Record<string, unknown>,
  id: Id | undefined,
): Record<string, unknown> {
  const schema = list.tool.inputSchema;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const written = { ...given, ...record(given) };
  const all: Record<string, unknown> = {};
  const needed: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    if (/^(limit|page_?size|per_?page|max_?results|max|top|count|size)$/i.test(name) && !required.has(name)) {
      const max = typeof property.maximum === "number" ? property.maximum : 100;
      all[name] = Math.min(max, 1000);
      needed[name] = all[name];
      continue;
    }
    if (!(name in written)) continue;
    const value = written[name];
    if (typeof value === "object" && value !== null) continue;
    all[name] = typeof id === "string" && value === id && id.includes("/") ? parentOf(id) : value;
    if (required.has(name)) needed[name] = all[name];
  }
  try {
    return run.argumentsFor(list, all);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    return run.argumentsFor(list, needed);
  }
}

/**
 * A list that can show what a create made: every argument it requires is one the create also
 * takes (its parent, its folder). A list that needs a search text the create never had is a
 * search, and may rightly not find it.
 */
function listable(list: Profile, create: Profile): boolean {
  const required = Array.isArray(list.tool.inputSchema.required)
    ? list.tool.inputSchema.required.map(String)
    : [];
  const given = isObject(create.tool.inputSchema.properties) ? create.tool.inputSchema.properties : {};
  return required.every((name) => name in given);
}

function createdPath(run: Runner, args: Record<string, unknown>): Id | undefined {
  const root = run.world.pathRoot;
  if (!root) return undefined;
  const path = Object.values(args).find((v) => typeof v === "string" && v.startsWith(root));
  return typeof path === "string" ? path : undefined;
}

function parentOf(path: string): string {
  const at = path.replace(/\/+$/, "").lastIndexOf("/");
  return at <= 0 ? "/" : path.slice(0, at);
}

/** A full page (as many items as the limit asked for, or a next cursor): what is missing may be on a later page. */
function paged(value: unknown, args: Record<string, unknown>): boolean {
  const limit = Object.entries(args).find(([name]) => /limit|size|per_?page|max|top|count/i.test(name))?.[1];
  const lists = Object.values(isObject(value) ? value : { value }).filter(Array.isArray);
  if (typeof limit === "number" && lists.some((l) => l.length >= limit)) return true;
  if (!isObject(value)) return false;
  return Object.entries(value).some(
    ([k, v]) => /^(next|next_?cursor|next_?page(_?token)?|cursor)$/i.test(k) && v !== null && v !== "",
  );
}

function scalarFields(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).filter(([, v]) => typeof v === "string" || typeof v === "number"),
  );
}

/** The fields of a written record that a list's items carry (in its answer, or in its output schema). */
function listedFields(
  record: Record<string, unknown>,
  list: Profile,
  answer: unknown,
): Record<string, unknown> {
  const names = new Set<string>();
  for (const object of placedObjects(answer)) for (const key of Object.keys(object.object)) names.add(key);
  const visit = (node: unknown, depth: number) => {
    if (!isObject(node) || depth > 8) return;
    if (isObject(node.properties))
      for (const [key, child] of Object.entries(node.properties)) {
        names.add(key);
        visit(child, depth + 1);
      }
    visit(node.items, depth + 1);
  };
  visit(list.tool.outputSchema, 0);
  return Object.fromEntries(Object.entries(record).filter(([key]) => names.has(key)));
}

function containsRecord(value: unknown, wanted: Record<string, unknown>): boolean {
  if (Object.keys(wanted).length === 0) return true;
  const visit = (node: unknown, depth: number): boolean => {
    if (depth > 6) return false;
    if (Array.isArray(node)) return node.some((item) => visit(item, depth + 1));
    if (!isObject(node)) return false;
    if (shows(wanted, node)) return true;
    return Object.values(node).some((child) => visit(child, depth + 1));
  };
  return visit(value, 0);
}

/** An id for an update or a delete: one the state holds, else one a create of the same thing makes. */
async function targetOf(run: Runner, profile: Profile, read: Profile): Promise<Id> {
  const existing = run.existing(profile.subjects[0] ?? "", profile.collection);
  if (existing !== undefined) return existing;
  const creator = partnersOf(profile, run.world.profiles, "create")[0];
  if (!creator) throw new Stop("nothing to act on: the state has none and no create makes one");
  const created = await run.create(creator);
  const id = run.createdId(created, read) ?? run.createdId(created, profile);
  if (id === undefined) {
    run.missingId(creator, read, created.reply);
    throw new Stop(`${creator.tool.name} answered no id`);
  }
  return id;
}

async function updateRead(run: Runner, update: Profile, read: Profile): Promise<void> {
  const id = await targetOf(run, update, read);
  run.remember(update.subjects[0] ?? "", id);
  const idValue = update.idList ? [id] : id;
  const args = run.argumentsFor(update, { [update.idArg as string]: idValue }, true);
  const reply = await run.call(update, args);
  if (reply.rejected) throw new Stop(`the update was rejected (${reply.rejected.join(", ")})`);
  if (reply.isError) throw new Stop(`the update answered an error: ${errorOf(reply)}`);
  const after = await run.read(read, id);
  if (after.rejected) return;
  run.readBack(update, read, after, id, "changed");
  const written = { ...args };
  delete written[update.idArg as string];
  run.compareWritten(written, read, after, id, update.tool.name);
}

async function deleteRead(run: Runner, remove: Profile, read: Profile): Promise<void> {
  const id = await targetOf(run, remove, read);
  run.remember(remove.subjects[0] ?? "", id);
  const args = run.argumentsFor(remove, { [remove.idArg as string]: remove.idList ? [id] : id });
  const reply = await run.call(remove, args);
  if (reply.rejected) throw new Stop(`the delete was rejected (${reply.rejected.join(", ")})`);
  if (reply.isError) throw new Stop(`the delete answered an error: ${errorOf(reply)}`);
  const after = await run.read(read, id);
  if (after.rejected) return;
  run.check(
    "delete-still-reads",
    read.tool.name,
    !run.found(read, after, id),
    `${remove.tool.name} deleted ${short(id)}; ${read.tool.name} still answered ${short(after.value)}`,
  );
}

/** One call with generated arguments: its result against the output schema, the ids it names readable. */
async function singleCall(run: Runner, profile: Profile): Promise<void> {
  if (profile.role !== "read" && profile.role !== "list") await run.prerequisites(profile);
  await run.call(profile, run.argumentsFor(profile, {}, false));
}

/**
 * A delete that takes the records themselves (`relations: [{from, to, type}]`) rather than
 * ids: create records, delete the same records, and the list no longer holds them.
 */
async function deleteRecords(
  run: Runner,
  create: Profile,
  remove: Profile,
  list: Profile,
  field: string,
): Promise<void> {
  const created = await run.create(create);
  const records = created.args[field];
  const reply = await run.call(remove, run.argumentsFor(remove, { [field]: records }));
  if (reply.rejected) throw new Stop(`the delete was rejected (${reply.rejected.join(", ")})`);
  if (reply.isError) throw new Stop(`the delete answered an error: ${errorOf(reply)}`);
  const args = listCall(run, list, {}, undefined);
  const after = await run.call(list, args);
  if (after.rejected || after.isError || paged(after.value, args)) return;
  const written = record({ [field]: records });
  run.check(
    "delete-still-reads",
    list.tool.name,
    !containsRecord(after.value, scalarFields(written)),
    `${remove.tool.name} deleted ${short(scalarFields(written))}; ${list.tool.name} still listed it`,
  );
}

/** The list-of-records argument a delete shares, by name and item fields, with a create. */
function sharedRecords(remove: Profile, create: Profile): string | undefined {
  const fieldsOf = (profile: Profile, name: string): string | undefined => {
    const properties = isObject(profile.tool.inputSchema.properties)
      ? profile.tool.inputSchema.properties
      : {};
    const schema = properties[name];
    if (!isObject(schema) || schema.type !== "array" || !isObject(schema.items)) return undefined;
    const items = schema.items.properties;
    return isObject(items) ? Object.keys(items).sort().join(",") : undefined;
  };
  const properties = isObject(remove.tool.inputSchema.properties) ? remove.tool.inputSchema.properties : {};
  return Object.keys(properties).find((name) => {
    const mine = fieldsOf(remove, name);
    return mine !== undefined && mine === fieldsOf(create, name);
  });
}

interface Chain {
  create: Profile;
  read?: Profile;
  update?: Profile;
  list?: Profile;
  remove?: Profile;
}

/** The tools of one thing's life: its create and whichever read, update, list and delete act on it. */
function chainOf(create: Profile, profiles: readonly Profile[]): Chain | undefined {
  const byId = profiles.filter((p) => p.idArg);
  const chain: Chain = { create };
  const read = partnersOf(create, profiles.filter(isPureRead), "read")[0];
  const update = partnersOf(create, byId, "update")[0];
  const list = partnersOf(create, profiles, "list").find((l) => listable(l, create));
  const remove = partnersOf(create, byId, "delete")[0];
  if (read) chain.read = read;
  if (update) chain.update = update;
  if (list) chain.list = list;
  if (remove) chain.remove = remove;
  return read || update || remove ? chain : undefined;
}

/**
 * create → read → update → read → list → delete → read, on one thing. Where an API has no
 * read by id, the update and the delete are what must find the id the create answered: a
 * not-found answer from them is that id unreadable.
 */
async function crudChain(run: Runner, chain: Chain): Promise<void> {
  const created = await run.create(chain.create);
  const taker = (chain.read ?? chain.update ?? chain.remove) as Profile;
  const id = run.createdId(created, taker);
  if (id === undefined) {
    run.missingId(chain.create, taker, created.reply);
    throw new Stop(`${chain.create.tool.name} answered no id ${taker.tool.name} could take`);
  }
  run.remember(taker.subjects[0] ?? "", id);
  const { read } = chain;
  if (read) {
    const first = await run.read(read, id);
    run.readBack(chain.create, read, first, id, "made");
    run.compareWritten(created.args, read, first, id, chain.create.tool.name);
  }
  if (chain.update) {
    const update = chain.update;
    const args = run.argumentsFor(update, { [update.idArg as string]: update.idList ? [id] : id }, true);
    const reply = await run.call(update, args);
    run.foundBy(chain.create, update, reply, id);
    if (!reply.isError && read) {
      const after = await run.read(read, id);
      const written = { ...args };
      delete written[update.idArg as string];
      run.compareWritten(written, read, after, id, update.tool.name);
    }
  }
  if (chain.list) {
    const args = listCall(run, chain.list, created.args, id);
    const reply = await run.call(chain.list, args);
    if (!reply.rejected && !paged(reply.value, args))
      run.check(
        "list-misses-create",
        chain.list.tool.name,
        !reply.isError && mentions(reply.value, id),
        `${chain.create.tool.name} made ${short(id)}; ${chain.list.tool.name} ${reply.isError ? `answered an error: ${errorOf(reply)}` : "did not list it"}`,
      );
  }
  if (chain.remove) {
    const remove = chain.remove;
    const reply = await run.call(
      remove,
      run.argumentsFor(remove, { [remove.idArg as string]: remove.idList ? [id] : id }),
    );
    run.foundBy(chain.create, remove, reply, id);
    if (!reply.isError && read) {
      const after = await run.read(read, id);
      if (!after.rejected)
        run.check(
          "delete-still-reads",
          read.tool.name,
          !run.found(read, after, id),
          `${remove.tool.name} deleted ${short(id)}; ${read.tool.name} still answered ${short(after.value)}`,
        );
    }
  }
}

function isPathName(name: string): boolean {
  return /^(path|paths|source|destination|file|filename|file_path|filepath|directory|dir|folder)$/i.test(
    name,
  );
}

/** An id as the argument's type wants it: a numeric key for an integer argument. */
function typed(id: Id, type: unknown): Id {
  if ((type === "integer" || type === "number") && typeof id === "string" && /^-?\d+(\.\d+)?$/.test(id))
    return Number(id);
  if (type === "string" && typeof id === "number") return String(id);
  return id;
}

/** An error answer that says the thing does not exist. */
export function notFound(reply: Reply): boolean {
  const value = reply.value;
  const error = isObject(value) && isObject(value.error) ? value.error : undefined;
  if (error && (error.status === 404 || /NOT_FOUND/i.test(String(error.code ?? "")))) return true;
  return /not found|no such|does not exist|doesn't exist|unknown id/i.test(reply.text);
}

/** An error answer in a few words: its code where it has one (`{"error": {"code": …}}`), else its text. */
export function errorOf(reply: Reply): string {
  const value = reply.value;
  const error = isObject(value) ? value.error : undefined;
  if (isObject(error) && typeof error.code === "string") return error.code;
  return reply.text.slice(0, 80);
}

export function short(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
