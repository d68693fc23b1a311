import { describe, expect, it } from "vitest";
import { call, failure, text, tool, world } from "./support/infer-world.js";

/**
 * Records re-linked to others and given others' keys: a change named for what a record is moved
 * to acts on the record, and takes what the description says it shares with its new link; a
 * role-like value granted, revoked and listed by; an item that sets its holder's field; the
 * most recent item of a list.
 */

type Records = Record<string, Record<string, unknown>>;

const saas = () => ({
  tiers: { free: { tier_id: "free", limit: 3 }, plus: { tier_id: "plus", limit: 50 } },
  accounts: { A1: { account_id: "A1", owner: "ida", tier_id: "free", limit: 3 } },
  permissions: {
    read: { permission: "read" },
    write: { permission: "write" },
    billing: { permission: "billing" },
  },
  members: {
    M1: { member_id: "M1", name: "Ida", permissions: ["read"] },
    M2: { member_id: "M2", name: "Jon", permissions: ["read", "write"] },
  },
});

describe("a change named for what a record is moved to", () => {
  const change = tool("change_tier", "Move an account to another tier; it gets that tier's limit.", {
    account_id: text,
    tier_id: text,
  });

  it("moves the record and takes the field the description names from its new link", async () => {
    const { after, report } = await call(world(saas(), [change]), "change_tier", {
      account_id: "A1",
      tier_id: "plus",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.accounts as Records).A1).toEqual({
      account_id: "A1",
      owner: "ida",
      tier_id: "plus",
      limit: 50,
    });
    expect(after.tiers).toEqual(saas().tiers);
  });

  it("refuses a link to nothing", async () => {
    const { outcome } = await call(world(saas(), [change]), "change_tier", {
      account_id: "A1",
      tier_id: "gold",
    });
    expect(failure(outcome)).toBe("TIER_NOT_FOUND");
  });
});

describe("a value of another kind given to and taken from a record's list", () => {
  const grant = tool("grant_permission", "Grant a permission to a member.", {
    member_id: text,
    permission: text,
  });
  const revoke = tool("revoke_permission", "Revoke a permission from a member.", {
    member_id: text,
    permission: text,
  });
  const holders = tool("list_members_with_permission", "List the members who hold a permission.", {
    permission: text,
  });

  it("is granted once it names a record of its kind, and revoked", async () => {
    const toolset = world(saas(), [grant, revoke]);
    const granted = await call(toolset, "grant_permission", { member_id: "M1", permission: "billing" });
    expect((granted.after.members as Records).M1?.permissions).toEqual(["read", "billing"]);
    expect(Object.keys(granted.after.permissions as Records)).toHaveLength(3);
    const unknown = await call(toolset, "grant_permission", { member_id: "M1", permission: "root" });
    expect(failure(unknown.outcome)).toBe("PERMISSION_NOT_FOUND");
    const revoked = await call(toolset, "revoke_permission", { member_id: "M2", permission: "write" });
    expect((revoked.after.members as Records).M2?.permissions).toEqual(["read"]);
    // without a documented error, taking out what the list lacks changes nothing
    const absent = await call(toolset, "revoke_permission", { member_id: "M1", permission: "write" });
    expect((absent.after.members as Records).M1?.permissions).toEqual(["read"]);
  });

  it("lists the records whose list holds it", async () => {
    const { answer } = await call(world(saas(), [holders]), "list_members_with_permission", {
      permission: "read",
    });
    expect((answer as { member_id: string }[]).map((m) => m.member_id)).toEqual(["M1", "M2"]);
  });
});

const orders = () => ({
  orders: {
    O1: {
      order_id: "O1",
      status: "packed",
      updates: [
        { status: "placed", note: "Paid", at: "2026-03-01T10:00:00Z" },
        { status: "packed", note: "Boxed", at: "2026-03-01T15:00:00Z" },
      ],
    },
  },
  log: [
    { entry: "started", at: "2026-03-01T09:00:00Z" },
    { entry: "synced", at: "2026-03-01T12:00:00Z" },
    { entry: "paused", at: "2026-03-01T11:00:00Z" },
  ],
});

describe("items of a record's list", () => {
  it("set the holder's field the description says it takes", async () => {
    const post = tool(
      "post_order_update",
      "Record an update of an order. The order takes the update's status.",
      {
        order_id: text,
        status: { type: "string", enum: ["placed", "packed", "shipped"] },
        note: text,
      },
    );
    const { after } = await call(world(orders(), [post]), "post_order_update", {
      order_id: "O1",
      status: "shipped",
      note: "Left the depot",
    });
    const order = (after.orders as Records).O1 as { status: string; updates: unknown[] };
    expect(order.status).toBe("shipped");
    expect(order.updates).toHaveLength(3);
  });

  it("answer the most recent one by their time, nested or at the top", async () => {
    const latest = tool("get_latest_order_update", "Get the latest update of an order.", { order_id: text });
    const newest = tool("get_newest_log_entry", "Get the newest log entry.", {});
    const toolset = world(orders(), [latest, newest]);
    const update = await call(toolset, "get_latest_order_update", { order_id: "O1" });
    expect(update.answer).toMatchObject({ status: "packed", note: "Boxed" });
    const entry = await call(toolset, "get_newest_log_entry", {});
    expect(entry.answer).toMatchObject({ entry: "synced" });
  });
});

describe("people kept by address inside a record, each with a role", () => {
  const folders = () => ({
    folders: {
      F1: { folder_id: "F1", name: "Plans", members: { "ann@team.test": "reader" } },
      F2: { folder_id: "F2", name: "Specs", members: {} },
    },
  });
  const add = tool("add_folder_member", "Give someone a role on a folder.", {
    folder_id: text,
    email: { type: "string", format: "email" },
    role: { type: "string", enum: ["reader", "writer"] },
  });
  const remove = tool("remove_folder_member", "Take someone off a folder.", { folder_id: text, email: text });

  it("are read as a collection whose records keep them, not as a tree of files", async () => {
    const { after, report } = await call(world(folders(), [add]), "add_folder_member", {
      folder_id: "F2",
      email: "bob@team.test",
      role: "writer",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.folders as Records).F2?.members).toEqual({ "bob@team.test": "writer" });
  });

  it("change the role of one already there, and are taken off only where there", async () => {
    const toolset = world(folders(), [add, remove]);
    const again = await call(toolset, "add_folder_member", {
      folder_id: "F1",
      email: "ann@team.test",
      role: "writer",
    });
    expect((again.after.folders as Records).F1?.members).toEqual({ "ann@team.test": "writer" });
    const gone = await call(toolset, "remove_folder_member", { folder_id: "F1", email: "ann@team.test" });
    expect((gone.after.folders as Records).F1?.members).toEqual({});
    const absent = await call(toolset, "remove_folder_member", { folder_id: "F2", email: "ann@team.test" });
    expect(failure(absent.outcome)).toBe("MEMBER_KEY_NOT_FOUND");
  });
});

const rota = () => ({
  desks: {
    D1: { desk_id: "D1", floor: 2, occupant: "ria" },
    D2: { desk_id: "D2", floor: 3, occupant: "sam" },
    D3: { desk_id: "D3", floor: 3, occupant: null },
  },
});

describe("two records of a kind, and a field left empty", () => {
  it("swap the field the description names", async () => {
    const swap = tool("swap_desks", "Swap the occupants of two desks.", {
      first_desk_id: text,
      second_desk_id: text,
    });
    const toolset = world(rota(), [swap]);
    const { after } = await call(toolset, "swap_desks", { first_desk_id: "D1", second_desk_id: "D2" });
    expect((after.desks as Records).D1).toMatchObject({ occupant: "sam", floor: 2 });
    expect((after.desks as Records).D2).toMatchObject({ occupant: "ria", floor: 3 });
    const none = await call(toolset, "swap_desks", { first_desk_id: "D1", second_desk_id: "D9" });
    expect(failure(none.outcome)).toBe("DESK_NOT_FOUND");
  });

  it("is set only while empty where the description says so, and emptied by its undoing", async () => {
    const assign = tool("assign_desk", "Assign a desk that nobody sits at yet.", {
      desk_id: text,
      occupant: text,
    });
    const free = tool("vacate_desk", "Leave a desk without an occupant.", { desk_id: text });
    const toolset = world(rota(), [assign, free]);
    const taken = await call(toolset, "assign_desk", { desk_id: "D1", occupant: "tom" });
    expect(failure(taken.outcome)).toBe("DESK_ALREADY_ASSIGNED");
    const given = await call(toolset, "assign_desk", { desk_id: "D3", occupant: "tom" });
    expect((given.after.desks as Records).D3).toMatchObject({ occupant: "tom" });
    const vacated = await call(toolset, "vacate_desk", { desk_id: "D2" });
    expect((vacated.after.desks as Records).D2).toMatchObject({ occupant: null });
  });

  it("is set whatever it holds where the description says the call may replace it", async () => {
    const assign = tool(
      "assign_desk",
      "Gives a desk to an occupant; it replaces the current occupant, if any. Answers previous_occupant, null if the desk was unassigned.",
      { desk_id: text, occupant: text },
    );
    const moved = await call(world(rota(), [assign]), "assign_desk", { desk_id: "D1", occupant: "tom" });
    expect(moved.outcome.status).toBe("applied");
    expect((moved.after.desks as Records).D1).toMatchObject({ occupant: "tom" });
  });
});
