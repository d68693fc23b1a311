import { describe, expect, it } from "vitest";
import {
  type Answer,
  expectError,
  expectGrounded,
  expectOk,
  expectRecord,
  fieldsOf,
  useDomain,
} from "./support/domain-session.js";

/**
 * A freight forwarder's API in the OAuth 2.0 client-credentials style: an API client
 * requests a bearer token with its id and secret, and passes it as `access_token` to every
 * call on its billing accounts and shipments; locations, service levels and tracking are
 * public. Served without effects; inference must mint the token, keep the one last issued
 * where the state keeps it, refuse any other (or an expired one) before anything changes,
 * and forget it when it is revoked.
 */

const freight = useDomain("freight.json");

const CLIENT = {
  grant_type: "client_credentials",
  client_id: "kf_cli_harbour",
  client_secret: "hb-7741-quay-secret",
};
const BOOKING = {
  origin: "PTLIS",
  destination: "FRLEH",
  service_level: "economy",
  weight_kg: 200,
  price: 120,
  billing_account_id: "BA-2001",
  reference: "PO-6002",
};

/** A part of the session's state, through the control tool a harness uses. */
const stateAt = async (path: string): Promise<unknown> => {
  const result = await freight.client.callTool({ name: "sim_get_state", arguments: { path } });
  const text = (result.content as Array<{ type: string; text?: string }>).find(
    (c) => c.type === "text",
  )?.text;
  const answer = (result.structuredContent ?? (text === undefined ? undefined : JSON.parse(text))) as {
    value?: unknown;
  };
  return answer?.value;
};

const signIn = async (): Promise<string> => {
  const token = expectOk(await freight.call("request_access_token", CLIENT)).access_token;
  expect.soft(typeof token, "request_access_token answers a token").toBe("string");
  return String(token);
};

const balances = async (): Promise<unknown> => {
  const accounts = await stateAt("/billing_accounts");
  return accounts !== null && typeof accounts === "object"
    ? Object.fromEntries(
        Object.values(accounts as Record<string, { billing_account_id: string; balance: number }>).map(
          (a) => [a.billing_account_id, a.balance],
        ),
      )
    : accounts;
};
const shipmentIds = async (): Promise<string[]> =>
  Object.keys((await stateAt("/shipments")) as Record<string, unknown>).sort();

const STARTING_BALANCES = { "BA-2001": 2500, "BA-2002": 80 };
const STARTING_SHIPMENTS = ["SHP-10001", "SHP-10002", "SHP-10003"];

/** Asserts a call was refused for its token, with the catalog's 401 error. */
const expectUnauthorized = (answer: Answer) => expectError(answer, "UNAUTHORIZED");

describe("freight: an access token minted by the token endpoint, kept, and taken back by every private call", () => {
  it("requesting a token keeps it in the state's auth record and answers the same token, its type and lifetime", async () => {
    const answer = await freight.call("request_access_token", CLIENT);
    const fields = expectOk(answer);
    const token = fields.access_token;
    expect.soft(token).toEqual(expect.any(String));
    expect.soft(String(token).length).toBeGreaterThanOrEqual(8);
    expect.soft(fields).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "shipments billing" });
    expectGrounded(answer, ["access_token", "token_type", "expires_in", "scope"]);
    // the clock starts at 09:00 and the token lives an hour
    expect.soft(await stateAt("/auth")).toEqual({
      access_token: token,
      token_type: "Bearer",
      expires_at: "2026-03-02T10:00:00Z",
      scope: "shipments billing",
      client_id: "kf_cli_harbour",
    });
    expect.soft(freight.breaches).toEqual([]);
  });

  it("a wrong secret or an unknown client is refused with the documented error, and no token is kept", async () => {
    expectError(
      await freight.call("request_access_token", { ...CLIENT, client_secret: "hb-7741-QUAY-secret" }),
      "INVALID_CLIENT",
    );
    expectError(
      await freight.call("request_access_token", { ...CLIENT, client_id: "kf_cli_nobody" }),
      "INVALID_CLIENT",
    );
    // one client's id with another's secret is no client at all
    expectError(
      await freight.call("request_access_token", { ...CLIENT, client_secret: "rdg-0932-dock-secret" }),
      "INVALID_CLIENT",
    );
    expect.soft(await stateAt("/auth/access_token")).toBeNull();
  });

  it("the token works for the calls that follow; a forged one is refused and changes nothing", async () => {
    const token = await signIn();
    expectOk(await freight.call("list_shipments", { access_token: token }));
    expectUnauthorized(
      await freight.call("create_shipment", { access_token: "kf_at_forged0000", ...BOOKING }),
    );
    expectUnauthorized(
      await freight.call("cancel_shipment", { access_token: `${token}x`, shipment_id: "SHP-10002" }),
    );
    expectUnauthorized(
      await freight.call("top_up_billing_account", {
        access_token: "",
        billing_account_id: "BA-2002",
        amount: 50,
      }),
    );
    expect.soft(await balances()).toEqual(STARTING_BALANCES);
    expect.soft(await shipmentIds()).toEqual(STARTING_SHIPMENTS);
    expect.soft(await stateAt("/shipments/SHP-10002/status")).toBe("booked");
    // the token is checked before the record: a bad token with an unknown shipment is still a 401
    expectUnauthorized(
      await freight.call("get_shipment", { access_token: "nope", shipment_id: "SHP-99999" }),
    );
  });

  it("a new token replaces the one before, which is then refused as stale", async () => {
    const first = await signIn();
    const second = await signIn();
    expect.soft(second).not.toBe(first);
    expect.soft(await stateAt("/auth/access_token")).toBe(second);
    expectUnauthorized(await freight.call("list_billing_accounts", { access_token: first }));
    expectOk(await freight.call("list_billing_accounts", { access_token: second }));
  });

  it("revoking the token clears it; the revoked token, and a second revoke, are refused", async () => {
    const token = await signIn();
    const answer = await freight.call("revoke_access_token", { token });
    expect.soft(expectOk(answer)).toEqual({ revoked: true });
    expectGrounded(answer, ["revoked"]);
    expect.soft(await stateAt("/auth/access_token")).toBeNull();
    expect.soft(await stateAt("/auth/expires_at")).toBeNull();
    expectUnauthorized(await freight.call("list_shipments", { access_token: token }));
    expectUnauthorized(await freight.call("revoke_access_token", { token }));
  });

  it("never signed in, any token is refused, by the tool that documents the 401 and by the one that does not", async () => {
    expectUnauthorized(await freight.call("list_shipments", { access_token: "kf_at_3lq9x2m7" }));
    // get_billing_account documents no token error: it answers the one its siblings document
    expectUnauthorized(
      await freight.call("get_billing_account", {
        access_token: "kf_at_3lq9x2m7",
        billing_account_id: "BA-2001",
      }),
    );
    expectUnauthorized(await freight.call("revoke_access_token", { token: "kf_at_3lq9x2m7" }));
    expect.soft(await stateAt("/auth/access_token")).toBeNull();
  });

  it("public reads take no token and answer from the state whether or not anyone signed in", async () => {
    expectRecord(await freight.call("get_location", { location_code: "PTLEI" }), {
      location_code: "PTLEI",
      name: "Leixões Port",
      country: "PT",
      kind: "port",
    });
    expectError(await freight.call("get_location", { location_code: "XXNOP" }), "LOCATION_NOT_FOUND");
    const levels = fieldsOf(await freight.call("list_service_levels")).service_levels;
    expect
      .soft(
        Array.isArray(levels) ? levels.map((l: { service_level: string }) => l.service_level).sort() : levels,
      )
      .toEqual(["economy", "express", "standard"]);
    expectRecord(await freight.call("track_shipment", { shipment_id: "SHP-10001" }), {
      shipment_id: "SHP-10001",
      status: "delivered",
    });
    await signIn();
    expectRecord(await freight.call("track_shipment", { shipment_id: "SHP-10002" }), {
      shipment_id: "SHP-10002",
      status: "booked",
    });
  });
});

describe("freight: writes with a good token, each read back", () => {
  it("booking a shipment files it under the next id, booked, and charges its price to the billing account", async () => {
    const access_token = await signIn();
    const answer = await freight.call("create_shipment", { access_token, ...BOOKING });
    const fields = expectOk(answer);
    expect.soft(fields).toMatchObject({ shipment_id: "SHP-10004", status: "booked", ...BOOKING });
    expect.soft(fields).not.toHaveProperty("access_token");
    expectGrounded(answer, ["shipment_id", "status", "price", "billing_account_id", "origin", "destination"]);
    expectRecord(
      await freight.call("get_shipment", { access_token, shipment_id: "SHP-10004" }),
      { shipment_id: "SHP-10004", status: "booked", ...BOOKING },
      { booked_at: fields.booked_at },
    );
    expect.soft(await stateAt("/shipments/SHP-10004")).not.toHaveProperty("access_token");
    expect.soft(await balances()).toEqual({ "BA-2001": 2380, "BA-2002": 80 });
  });

  it("a booking the balance does not cover is refused and charges nothing", async () => {
    const access_token = await signIn();
    expectError(
      await freight.call("create_shipment", {
        access_token,
        ...BOOKING,
        price: 80.01,
        billing_account_id: "BA-2002",
      }),
      "INSUFFICIENT_BALANCE",
    );
    expect.soft(await balances()).toEqual(STARTING_BALANCES);
    expect.soft(await shipmentIds()).toEqual(STARTING_SHIPMENTS);
  });

  it("changing a shipment's reference is read back", async () => {
    const access_token = await signIn();
    const answer = await freight.call("update_shipment", {
      access_token,
      shipment_id: "SHP-10002",
      reference: "PO-7000",
    });
    expect.soft(expectOk(answer)).toMatchObject({ shipment_id: "SHP-10002", reference: "PO-7000" });
    expect
      .soft(fieldsOf(await freight.call("get_shipment", { access_token, shipment_id: "SHP-10002" })))
      .toMatchObject({ reference: "PO-7000", status: "booked", price: 150 });
    expectError(
      await freight.call("update_shipment", { access_token, shipment_id: "SHP-40404", reference: "X" }),
      "SHIPMENT_NOT_FOUND",
    );
  });

  it("cancelling a booked shipment refunds its price; one no longer booked is refused", async () => {
    const access_token = await signIn();
    const answer = await freight.call("cancel_shipment", { access_token, shipment_id: "SHP-10002" });
    expect.soft(expectOk(answer)).toMatchObject({ shipment_id: "SHP-10002", status: "cancelled" });
    expect
      .soft(fieldsOf(await freight.call("track_shipment", { shipment_id: "SHP-10002" })))
      .toMatchObject({ status: "cancelled" });
    expect.soft(await balances()).toEqual({ "BA-2001": 2650, "BA-2002": 80 });
    expectError(
      await freight.call("cancel_shipment", { access_token, shipment_id: "SHP-10001" }),
      "SHIPMENT_NOT_CANCELLABLE",
    );
    expectError(
      await freight.call("cancel_shipment", { access_token, shipment_id: "SHP-10002" }),
      "SHIPMENT_NOT_CANCELLABLE",
    );
    expect.soft(await balances()).toEqual({ "BA-2001": 2650, "BA-2002": 80 });
  });

  it("topping up a billing account adds to its balance, read back by the account's read", async () => {
    const access_token = await signIn();
    const answer = await freight.call("top_up_billing_account", {
      access_token,
      billing_account_id: "BA-2002",
      amount: 45.5,
    });
    expect.soft(expectOk(answer)).toMatchObject({ billing_account_id: "BA-2002", balance: 125.5 });
    expectRecord(
      await freight.call("get_billing_account", { access_token, billing_account_id: "BA-2002" }),
      { billing_account_id: "BA-2002", balance: 125.5 },
      { name: "Harbourline samples", currency: "EUR" },
    );
  });
});

// last: once a task is started, every reset goes back to the task's state
describe("freight: a token the state keeps from before has expired", () => {
  it("the kept token, past its expiry, is refused; a new one looks like the old and works", async () => {
    const started = await freight.client.callTool({
      name: "sim_start_task",
      arguments: { task_id: "freight_expired_token" },
    });
    expect.soft(started.isError ?? false).toBe(false);
    expect.soft(await stateAt("/auth/access_token")).toBe("kf_at_3lq9x2m7");
    expectUnauthorized(await freight.call("list_shipments", { access_token: "kf_at_3lq9x2m7" }));
    expectUnauthorized(await freight.call("create_shipment", { access_token: "kf_at_3lq9x2m7", ...BOOKING }));
    expect.soft(await shipmentIds()).toEqual(STARTING_SHIPMENTS);
    const token = await signIn();
    expect.soft(token).toMatch(/^kf_at_[0-9a-z]{12}$/);
    expectOk(await freight.call("create_shipment", { access_token: token, ...BOOKING }));
    expect.soft(await shipmentIds()).toEqual([...STARTING_SHIPMENTS, "SHP-10004"]);
  });
});
