import { describe, expect, it } from "vitest";
import { call, failure, inferred, number, text, tool, world } from "./support/infer-world.js";

/**
 * What a call moves besides the fields it is given: values kept by name inside a record, a
 * count the description says goes up, a value that must be one a list of the state holds, a
 * flag that forbids the change, a new record started from another, flags other tools throw,
 * and money kept as one number per currency or asset.
 */

type Records = Record<string, Record<string, unknown>>;

const projects = () => ({
  projects: {
    "p-1": { project_id: "p-1", name: "site", variables: { NODE_ENV: "production", REGION: "eu" } },
    "p-2": { project_id: "p-2", name: "api", variables: {} },
  },
});

describe("values kept by name inside a record", () => {
  const set = tool("set_project_variable", "Set a variable of a project.", {
    project_id: text,
    name: text,
    value: text,
  });
  const get = tool("get_project_variable", "Get a variable of a project.", { project_id: text, name: text });
  const remove = tool("delete_project_variable", "Delete a variable of a project.", {
    project_id: text,
    name: text,
  });

  it("sets one under its name and keeps the others", async () => {
    const { after, report } = await call(world(projects(), [set]), "set_project_variable", {
      project_id: "p-1",
      name: "REGION",
      value: "us",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.projects as Records)["p-1"]?.variables).toEqual({ NODE_ENV: "production", REGION: "us" });
  });

  it("reads one by name, and a name it lacks is not found", async () => {
    const toolset = world(projects(), [get]);
    const found = await call(toolset, "get_project_variable", { project_id: "p-1", name: "NODE_ENV" });
    expect(found.answer).toEqual({ name: "NODE_ENV", value: "production" });
    const absent = await call(toolset, "get_project_variable", { project_id: "p-2", name: "NODE_ENV" });
    expect(failure(absent.outcome)).toBe("VARIABLE_KEY_NOT_FOUND");
    const noProject = await call(toolset, "get_project_variable", { project_id: "p-9", name: "X" });
    expect(failure(noProject.outcome)).toBe("PROJECT_NOT_FOUND");
  });

  it("takes one out by name", async () => {
    const { after } = await call(world(projects(), [remove]), "delete_project_variable", {
      project_id: "p-1",
      name: "REGION",
    });
    expect((after.projects as Records)["p-1"]?.variables).toEqual({ NODE_ENV: "production" });
    expect(Object.keys(after.projects as Records)).toEqual(["p-1", "p-2"]);
  });
});

const cluster = () => ({
  containers: {
    c1: { container_id: "c1", image: "web:1.2", restart_count: 2, locked: false, status: "running" },
    c2: { container_id: "c2", image: "db:15", restart_count: 0, locked: true, status: "running" },
  },
  images: ["web:1.2", "web:1.3", "db:15"],
});

describe("a count the description says a call moves", () => {
  it("moves it, for a verb toolsim knows nothing else of", async () => {
    const restart = tool("restart_container", "Restart a container; its restart count goes up by one.", {
      container_id: text,
    });
    const { after, report } = await call(world(cluster(), [restart]), "restart_container", {
      container_id: "c2",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.containers as Records).c2).toMatchObject({ restart_count: 1, status: "running" });
  });

  it("leaves a verb it cannot read alone when the description names no count", async () => {
    const restart = tool("restart_container", "Restart a container.", { container_id: text });
    const { report } = inferred(world(cluster(), [restart]), "restart_container");
    expect(report.verdict).not.toBe("inferred");
  });
});

describe("a value that must be one a list of the state holds", () => {
  const deploy = tool("set_container_image", "Run a container on another image.", {
    container_id: text,
    image: text,
  });

  it("is refused when the list lacks it, and set when it holds it", async () => {
    const toolset = world(cluster(), [deploy]);
    const unknown = await call(toolset, "set_container_image", { container_id: "c1", image: "web:9" });
    expect(failure(unknown.outcome)).toBe("UNKNOWN_IMAGE");
    const known = await call(toolset, "set_container_image", { container_id: "c1", image: "web:1.3" });
    expect((known.after.containers as Records).c1).toMatchObject({ image: "web:1.3" });
  });
});

describe("a flag the description says forbids the change", () => {
  it("refuses a record with the flag set, and lets one without it through", async () => {
    const remove = tool("delete_container", "Delete a container. Locked containers cannot be deleted.", {
      container_id: text,
    });
    const toolset = world(cluster(), [remove]);
    const locked = await call(toolset, "delete_container", { container_id: "c2" });
    expect(failure(locked.outcome)).toBe("CONTAINER_LOCKED");
    const open = await call(toolset, "delete_container", { container_id: "c1" });
    expect(Object.keys(open.after.containers as Records)).toEqual(["c2"]);
  });
});

const stages = () => ({
  releases: { r1: { release_id: "r1", version: "1.0" }, r2: { release_id: "r2", version: "1.1" } },
  environments: {
    prod: { name: "prod", release: "r1", frozen: true },
    staging: { name: "staging", release: "r2", frozen: false },
  },
});

describe("a new record started from another of its kind", () => {
  const create = tool("create_environment", "Create an environment that runs what another runs.", {
    name: text,
    from_environment: text,
  });
  const freeze = tool("freeze_environment", "Freeze an environment.", { name: text });

  it("points where the source points, and starts unflagged by what another tool flags", async () => {
    const { after, report } = await call(world(stages(), [create, freeze]), "create_environment", {
      name: "qa",
      from_environment: "prod",
    });
    expect(report.verdict).toBe("inferred");
    expect((after.environments as Records).qa).toEqual({ name: "qa", release: "r1", frozen: false });
  });

  it("answers the source's not-found error for a source that does not exist", async () => {
    const { outcome, after } = await call(world(stages(), [create]), "create_environment", {
      name: "qa",
      from_environment: "dev",
    });
    expect(failure(outcome)).toBe("ENVIRONMENT_NOT_FOUND");
    expect(Object.keys(after.environments as Records)).toEqual(["prod", "staging"]);
  });
});

const exchange = () => ({
  account: { holder: "Ines", funds: { BTC: 0.5, ETH: 2.25, USDC: 0 } },
  quotes: {
    BTC: { ETH: 16, USDC: 60000 },
    ETH: { BTC: 0.0625, USDC: 3750 },
    USDC: { BTC: 0.0000166, ETH: 0.00026 },
  },
});
type Funds = { account: { funds: Record<string, number> } };

describe("money kept as one number per currency or asset", () => {
  const deposit = tool("deposit", "Deposit an asset.", { asset: text, amount: number });
  const withdraw = tool("withdraw", "Withdraw an asset.", { asset: text, amount: number });
  const swap = tool("convert", "Convert an amount of one asset into another at the quoted rate.", {
    from_asset: text,
    to_asset: text,
    amount: number,
  });

  it("adds under the key given, starting a key it lacks at zero, and answers the new balance", async () => {
    const toolset = world(exchange(), [deposit]);
    const more = await call(toolset, "deposit", { asset: "ETH", amount: 1 });
    expect((more.after as Funds).account.funds.ETH).toBe(3.25);
    expect(more.answer).toEqual({ asset: "ETH", fund: 3.25 });
    const first = await call(toolset, "deposit", { asset: "SOL", amount: 4 });
    expect((first.after as Funds).account.funds).toMatchObject({ SOL: 4, BTC: 0.5 });
  });

  it("takes away, refusing more than there is", async () => {
    const toolset = world(exchange(), [withdraw]);
    const short = await call(toolset, "withdraw", { asset: "BTC", amount: 1 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_FUNDS");
    const taken = await call(toolset, "withdraw", { asset: "BTC", amount: 0.25 });
    expect((taken.after as Funds).account.funds.BTC).toBe(0.25);
  });

  it("exchanges at the rate the state's cross-rate table gives for the pair", async () => {
    const { after, answer, report } = await call(world(exchange(), [swap]), "convert", {
      from_asset: "ETH",
      to_asset: "USDC",
      amount: 2,
    });
    expect(report.verdict).toBe("inferred");
    expect((after as Funds).account.funds).toMatchObject({ ETH: 0.25, USDC: 7500, BTC: 0.5 });
    expect(answer).toEqual({ to_asset: "USDC", amount: 7500 });
  });

  it("refuses a pair the table has no rate for, and more than there is", async () => {
    const toolset = world(exchange(), [swap]);
    const noRate = await call(toolset, "convert", { from_asset: "ETH", to_asset: "DOGE", amount: 1 });
    expect(failure(noRate.outcome)).toBe("RATE_NOT_FOUND");
    const short = await call(toolset, "convert", { from_asset: "BTC", to_asset: "ETH", amount: 2 });
    expect(failure(short.outcome)).toBe("INSUFFICIENT_FUNDS");
  });
});

const market = () => ({
  listings: {
    LS1: { listing_id: "LS1", title: "Bike", status: "active", best_offer: 120, offer_count: 1 },
    LS2: { listing_id: "LS2", title: "Desk", status: "sold", best_offer: 80, offer_count: 3 },
  },
  offers: [{ offer_id: 1, listing_id: "LS1", buyer: "kim", price: 120 }],
});

describe("what a create's description says of the record it is made on", () => {
  const offer = tool(
    "make_offer",
    "Make an offer on an active listing. An offer must be higher than the listing's best offer; it becomes the best offer.",
    { listing_id: text, buyer: text, price: number },
  );

  it("files the record and moves the field it becomes", async () => {
    const { after, report } = await call(world(market(), [offer]), "make_offer", {
      listing_id: "LS1",
      buyer: "lee",
      price: 150,
    });
    expect(report.verdict).toBe("inferred");
    expect((after.listings as Records).LS1).toMatchObject({ best_offer: 150, offer_count: 2 });
    expect(after.offers).toHaveLength(2);
  });

  it("refuses an amount that does not compare as said, and a record not in the status named", async () => {
    const toolset = world(market(), [offer]);
    const low = await call(toolset, "make_offer", { listing_id: "LS1", buyer: "lee", price: 100 });
    expect(failure(low.outcome)).toBe("PRICE_TOO_LOW");
    const sold = await call(toolset, "make_offer", { listing_id: "LS2", buyer: "lee", price: 500 });
    expect(failure(sold.outcome)).toBe("LISTING_NOT_ACTIVE");
    expect(sold.after.offers).toHaveLength(1);
  });
});

const kiln = () => ({
  batches: {
    B1: { batch_id: "B1", file: "gear.stl", status: "failed", retries: 2, queued_at: "2026-03-01T08:00:00Z" },
    B2: { batch_id: "B2", file: "hook.stl", status: "queued", retries: 0, queued_at: "2026-03-01T09:00:00Z" },
  },
});
const batchTools = () => [
  tool("list_batches", "List batches with a status.", {
    status: { type: "string", enum: ["queued", "firing", "done", "failed"] },
  }),
  tool("add_batch", "Add a batch to the queue.", { file: text }),
];

describe("statuses the description names", () => {
  it("marks a record with a status only an enum of the API shows, from the one it must be in", async () => {
    const finish = tool("finish_batch", "Mark a firing batch done.", { batch_id: text });
    const toolset = world(
      { batches: { ...kiln().batches, B3: { ...kiln().batches.B2, batch_id: "B3", status: "firing" } } },
      [finish, ...batchTools()],
    );
    const done = await call(toolset, "finish_batch", { batch_id: "B3" });
    expect((done.after.batches as Records).B3).toMatchObject({ status: "done" });
    const queued = await call(toolset, "finish_batch", { batch_id: "B2" });
    expect(failure(queued.outcome)).toBe("BATCH_NOT_FIRING");
  });

  it("reads a verb it does not know by the description's own verb, guarded as the description says", async () => {
    const revive = tool("revive_batch", "Queue a failed batch again. Only failed batches can be revived.", {
      batch_id: text,
    });
    const toolset = world(kiln(), [revive, ...batchTools()]);
    const revived = await call(toolset, "revive_batch", { batch_id: "B1" });
    expect(revived.report.verdict).toBe("inferred");
    expect((revived.after.batches as Records).B1).toMatchObject({ status: "queued" });
    const refused = await call(toolset, "revive_batch", { batch_id: "B2" });
    expect(failure(refused.outcome)).toBe("BATCH_NOT_FAILED");
  });

  it("starts a new record's counts at zero and stamps when it entered its first status", async () => {
    const { after } = await call(world(kiln(), batchTools()), "add_batch", { file: "clip.stl" });
    expect((after.batches as Records).B3).toMatchObject({
      file: "clip.stl",
      status: "queued",
      retries: 0,
      queued_at: "2026-03-02T09:00:00Z",
    });
  });
});

const claims = () => ({
  teams: { T1: { team_id: "T1", name: "Design", budget_left: 500 } },
  claims: {
    C1: { claim_id: "C1", team_id: "T1", amount: 120, status: "pending" },
    C2: { claim_id: "C2", team_id: "T1", amount: 900, status: "pending" },
  },
});

describe("a number of another record the description says a change takes from", () => {
  const approve = tool(
    "approve_expense_claim",
    "Approve a pending claim. The amount is taken from the team's budget left.",
    { claim_id: text },
  );
  const file = tool("file_expense_claim", "File a claim for a team.", { team_id: text, amount: number });

  it("takes the record's own amount when the change is made, and not when the record is filed", async () => {
    const toolset = world(claims(), [approve, file]);
    const approved = await call(toolset, "approve_expense_claim", { claim_id: "C1" });
    expect((approved.after.teams as Records).T1?.budget_left).toBe(380);
    expect((approved.after.claims as Records).C1?.status).toBe("approved");
    const filed = await call(toolset, "file_expense_claim", { team_id: "T1", amount: 50 });
    expect((filed.after.teams as Records).T1?.budget_left).toBe(500);
  });

  it("refuses more than there is, and a claim no longer pending", async () => {
    const toolset = world(claims(), [approve, file]);
    const over = await call(toolset, "approve_expense_claim", { claim_id: "C2" });
    expect(failure(over.outcome)).toBe("INSUFFICIENT_BUDGET_LEFT");
    const state = claims();
    (state.claims.C1 as Record<string, unknown>).status = "approved";
    const again = await call(toolset, "approve_expense_claim", { claim_id: "C1" }, state);
    expect(failure(again.outcome)).toBe("CLAIM_NOT_PENDING");
  });
});
