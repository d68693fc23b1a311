import { describe, expect, it } from "vitest";
import {
  actionOf,
  isIdentifierName,
  nounOfIdentifier,
  participle,
  plural,
  singular,
  verbOf,
  verbWords,
  wordsOf,
} from "../src/infer/index.js";
import { call, failure, inferred, number, type State, text, tool, world } from "./support/infer-world.js";

/**
 * The words inference reads tools with (docs/inference.md): a name in any style, its verb
 * first or last, two-word verbs, the singular of a collection's name, which arguments are
 * keys; and the participles a confirmation says.
 */

describe("a tool's name, whatever its style", () => {
  const harbor = world(
    {
      sailings: [
        { sailing_id: "s1", route: "Pier 1 to Gull Island", status: "scheduled" },
        { sailing_id: "s2", route: "Gull Island to Pier 1", status: "scheduled" },
      ],
    },
    [
      tool("getSailingDetails", "Get a sailing.", { sailing_id: text }),
      tool("get-sailing-details", "Get a sailing.", { sailing_id: text }),
      tool("sailings.get", "Get a sailing.", { sailing_id: text }),
      tool("sailing_cancel", "Cancel a sailing.", { sailing_id: text }),
      tool("harbor_sailing_cancel", "Cancel a sailing.", { sailing_id: text }),
      tool("harbor_sailing_list_all", "Every sailing of the harbor.", {}),
      tool("sailing_delete", "Delete a sailing.", { sailing_id: text }),
    ],
  );
  const sailings = (state: State) => state.sailings as Array<Record<string, unknown>>;

  it("reads the record its id names, in camelCase, kebab-case and dotted names alike", async () => {
    for (const name of ["getSailingDetails", "get-sailing-details", "sailings.get"]) {
      const { answer, after, report } = await call(harbor, name, { sailing_id: "s2" });
      expect(answer, name).toEqual({ sailing_id: "s2", route: "Gull Island to Pier 1", status: "scheduled" });
      expect(after, name).toEqual(harbor.state);
      expect(report.notes, name).toContain("reads sailings/[sailing_id=…] by sailing_id");
    }
  });

  it("takes a verb that comes last, after the resource (`sailing_cancel`, `harbor_sailing_cancel`)", async () => {
    for (const name of ["sailing_cancel", "harbor_sailing_cancel"]) {
      const { after, report } = await call(harbor, name, { sailing_id: "s1" });
      expect(sailings(after)[0], name).toMatchObject({ sailing_id: "s1", status: "cancelled" });
      expect(sailings(after)[1], name).toMatchObject({ status: "scheduled" });
      expect(report.notes, name).toContain(`sets status to 'cancelled' (the verb "cancel")`);
    }
    const deleted = await call(harbor, "sailing_delete", { sailing_id: "s1" });
    expect(sailings(deleted.after).map((s) => s.sailing_id)).toEqual(["s2"]);
  });

  it("reads a verb second from last, before a word that qualifies it (`…_list_all`)", async () => {
    const { answer, after } = await call(harbor, "harbor_sailing_list_all", {});
    expect(answer).toEqual(sailings(harbor.state));
    expect(after).toEqual(harbor.state);
  });
});

describe("two-word verbs", () => {
  const kiosk = world(
    { wallet: { balance: 10, currency: "EUR" }, session: { logged_in: false, username: null } },
    [
      tool("top_up_wallet", "Top up the wallet.", { amount: number }),
      tool("topUpWallet", "Top up the wallet.", { amount: number }),
      tool("wallet_top_up", "Top up the wallet.", { amount: number }),
      tool("log_in", "Log in to the kiosk.", { username: text }),
      tool("sign_in", "Sign in to the kiosk.", { username: text }),
      tool("log_out", "Log out of the kiosk."),
      tool("sign_out", "Sign out of the kiosk."),
    ],
  );

  it("tops up a balance, however the name splits `top up`", async () => {
    for (const name of ["top_up_wallet", "topUpWallet", "wallet_top_up"]) {
      const { after, report } = await call(kiosk, name, { amount: 5 });
      expect(after.wallet, name).toEqual({ balance: 15, currency: "EUR" });
      expect(report.notes, name).toEqual(["adds amount to wallet.balance"]);
    }
  });

  it("signs in with `log_in` and `sign_in`, and out with `log_out` and `sign_out`", async () => {
    for (const name of ["log_in", "sign_in"]) {
      const { after } = await call(kiosk, name, { username: "ana" });
      expect((after.session as State).logged_in, name).toBe(true);
    }
    for (const name of ["log_out", "sign_out"]) {
      const { after } = await call(
        kiosk,
        name,
        {},
        { ...kiosk.state, session: { logged_in: true, username: "ana" } },
      );
      expect((after.session as State).logged_in, name).toBe(false);
    }
  });

  it("joins the words of a two-word verb and no others", () => {
    expect(verbWords("log_in_user")).toEqual(["login", "user"]);
    expect(verbWords("signOut")).toEqual(["signout"]);
    expect(verbWords("sign_in")).toEqual(["signin"]);
    expect(verbWords("log_on_terminal")).toEqual(["logon", "terminal"]);
    expect(verbWords("terminal_log_off")).toEqual(["terminal", "logoff"]);
    expect(verbWords("log_out")).toEqual(["logout"]);
    expect(verbWords("top_up_card")).toEqual(["topup", "card"]);
    expect(verbWords("card_top")).toEqual(["card", "top"]);
    expect(verbWords("log_entry_in")).toEqual(["log", "entry", "in"]);
  });
});

describe("the singular of a collection's name", () => {
  const cases: Array<[collection: string, key: string, code: string, noun: string]> = [
    ["addresses", "address_id", "ADDRESS_NOT_FOUND", "address"],
    ["classes", "class_id", "CLASS_NOT_FOUND", "class"],
    ["buses", "bus_id", "BUS_NOT_FOUND", "bus"],
    ["analyses", "analysis_id", "ANALYSIS_NOT_FOUND", "analysis"],
    ["categories", "category_id", "CATEGORY_NOT_FOUND", "category"],
    ["boxes", "box_id", "BOX_NOT_FOUND", "box"],
    ["branches", "branch_id", "BRANCH_NOT_FOUND", "branch"],
    ["houses", "house_id", "HOUSE_NOT_FOUND", "house"],
    ["shelves", "shelf_id", "SHELF_NOT_FOUND", "shelf"],
    ["knives", "knife_id", "KNIFE_NOT_FOUND", "knife"],
    ["curves", "curve_id", "CURVE_NOT_FOUND", "curve"],
    ["delivery_slots", "delivery_slot_id", "DELIVERY_SLOT_NOT_FOUND", "delivery slot"],
  ];

  it("finds the record an id names, and names the error of a missing one in the singular", async () => {
    for (const [collection, key, code, noun] of cases) {
      const name = `get_${nounOfIdentifier(key)}`;
      const records = [
        { [key]: "r1", label: "first" },
        { [key]: "r2", label: "second" },
      ];
      const toolset = world({ [collection]: records }, [
        tool(name, `Get one of the ${collection}.`, { [key]: text }),
      ]);
      const found = await call(toolset, name, { [key]: "r2" });
      expect(found.answer, collection).toEqual(records[1]);
      const missing = await call(toolset, name, { [key]: "r9" });
      expect(failure(missing.outcome), collection).toBe(code);
      const added = inferred(toolset, name).tool.errors.find((e) => e.code === code);
      expect(added?.when, collection).toBe(
        `No ${noun} has the given ${key} (inferred from the state's ${collection}).`,
      );
      expect(added?.message.startsWith(`${noun.charAt(0).toUpperCase()}${noun.slice(1)} {${key}}`)).toBe(
        true,
      );
    }
  });

  it("turns plurals into singulars and back", () => {
    const pairs: Array<[string, string]> = [
      ["category", "categories"],
      ["day", "days"],
      ["box", "boxes"],
      ["branch", "branches"],
      ["wish", "wishes"],
      ["address", "addresses"],
      ["status", "statuses"],
      ["bus", "buses"],
      ["analysis", "analyses"],
      ["house", "houses"],
      ["order", "orders"],
    ];
    for (const [one, many] of pairs) {
      expect(plural(one), one).toBe(many);
      expect(singular(many), many).toBe(one);
    }
    // a word already singular stays so
    for (const word of ["status", "address", "analysis", "campus"]) expect(singular(word), word).toBe(word);
    expect(plural("orders")).toBe("orders");
  });
});

describe("which arguments are keys", () => {
  const lockers = world(
    {
      lockers: {
        L1: { holder: "Ana", phone_number: "555-0100", zip_code: "10115" },
        L2: { holder: "Bo", phone_number: "555-0101", zip_code: "10117" },
      },
    },
    [
      tool("get_locker", "Get a locker.", { locker_no: text }),
      tool("get_locker_by_ref", "Get a locker.", { locker_ref: text }),
      tool("update_locker", "Change the phone number of a locker's holder.", {
        locker_no: text,
        phone_number: text,
      }),
    ],
  );

  it("reads a record by a number, a reference or a code of its noun", async () => {
    for (const [name, args] of [
      ["get_locker", { locker_no: "L2" }],
      ["get_locker_by_ref", { locker_ref: "L2" }],
    ] as const) {
      const { answer } = await call(lockers, name, args);
      expect(answer, name).toEqual({ holder: "Bo", phone_number: "555-0101", zip_code: "10117" });
    }
  });

  it("stores a phone number as a value, not as a key", async () => {
    const { after } = await call(lockers, "update_locker", { locker_no: "L1", phone_number: "555-0199" });
    expect(after.lockers).toEqual({
      L1: { holder: "Ana", phone_number: "555-0199", zip_code: "10115" },
      L2: { holder: "Bo", phone_number: "555-0101", zip_code: "10117" },
    });
  });

  it("tells keys from values that only end like them", () => {
    for (const name of [
      "order_id",
      "orderId",
      "item_ids",
      "booking_ref",
      "voucher_code",
      "seat_no",
      "uuid",
      "key",
    ])
      expect(isIdentifierName(name), name).toBe(true);
    for (const name of [
      "phone_number",
      "zip_code",
      "postal_code",
      "card_number",
      "account_number",
      "street_no",
      "keyword",
    ])
      expect(isIdentifierName(name), name).toBe(false);
    expect(nounOfIdentifier("delivery_slot_id")).toBe("delivery_slot");
    expect(nounOfIdentifier("itemIds")).toBe("item");
    expect(nounOfIdentifier("id")).toBeUndefined();
    expect(nounOfIdentifier("order_name")).toBeUndefined();
  });
});

describe("what a tool does, from its hints and verb", () => {
  it("reads where its read-only hint says so, whatever its verb", () => {
    expect(actionOf({ name: "purge_cache", annotations: { readOnlyHint: true } })).toBe("read");
    expect(actionOf({ name: "purge_cache", annotations: { readOnlyHint: false } })).toBe("delete");
  });

  it("takes the verb's action, else a destructive hint's, else reads", () => {
    expect(actionOf({ name: "submit_claim" })).toBe("create");
    expect(actionOf({ name: "claim_submit", annotations: { destructiveHint: true } })).toBe("create");
    expect(actionOf({ name: "archive_thread" })).toBe("update");
    expect(actionOf({ name: "thread_cleanup", annotations: { destructiveHint: true } })).toBe("delete");
    expect(actionOf({ name: "thread_cleanup", annotations: { destructiveHint: false } })).toBe("read");
    expect(actionOf({ name: "thread_cleanup" })).toBe("read");
  });

  it("finds the verb among the first two words, else the last two", () => {
    expect(verbOf("orders.submit")).toEqual({ verb: "submit", action: "create" });
    expect(verbOf("get_delete_log")).toEqual({ verb: "get", action: "read" });
    expect(verbOf("user_profile_update")).toEqual({ verb: "update", action: "update" });
    expect(verbOf("shelf_note_list_all")).toEqual({ verb: "list", action: "read" });
    expect(verbOf("my_team_roster_delete")).toEqual({ verb: "delete", action: "delete" });
    // a verb in the middle of a long name is no verb of it
    expect(verbOf("team_roster_delete_history_summary_text")).toBeUndefined();
    expect(verbOf("team_roster")).toBeUndefined();
  });

  it("reads past a number that tells copies of a tool apart", () => {
    expect(verbOf("shelf_note_list_all_2")).toEqual({ verb: "list", action: "read" });
    expect(verbOf("note_add_v2")).toEqual({ verb: "add", action: "create" });
    // a number is passed over only at the end
    expect(verbOf("shelf_note_delete_2_text")).toBeUndefined();
  });

  it("splits a name into its words", () => {
    expect(wordsOf("getOrderDetails")).toEqual(["get", "order", "details"]);
    expect(wordsOf("get_order-details")).toEqual(["get", "order", "details"]);
    expect(wordsOf("v2Orders.list")).toEqual(["v2", "orders", "list"]);
    expect(wordsOf("__Get  ORDERS__")).toEqual(["get", "orders"]);
  });
});

describe("participles, as a confirmation says them", () => {
  it("spells a status verb as the status it sets", () => {
    expect(participle("cancel")).toBe("cancelled");
    expect(participle("approve")).toBe("approved");
    expect(participle("ship")).toBe("shipped");
    // a status that is no participle is not used (activate sets 'active')
    expect(participle("activate")).toBe("activated");
    expect(participle("reopen")).toBe("reopened");
  });

  it("knows irregular verbs, and irregular verbs done again", () => {
    expect(participle("send")).toBe("sent");
    expect(participle("pay")).toBe("paid");
    expect(participle("login")).toBe("logged in");
    expect(participle("topup")).toBe("topped up");
    expect(participle("reset")).toBe("reset");
    expect(participle("resend")).toBe("resent");
    expect(participle("rewrite")).toBe("rewritten");
    expect(participle("refund")).toBe("refunded");
  });

  it("undoes an undoing verb's participle", () => {
    expect(participle("untag")).toBe("untagged");
    expect(participle("unpin")).toBe("unpinned");
    expect(participle("unfollow")).toBe("unfollowed");
    expect(participle("unarchive")).toBe("unarchived");
  });

  it("follows English spelling: -e, -y after a consonant, doubled consonants", () => {
    expect(participle("rate")).toBe("rated");
    expect(participle("modify")).toBe("modified");
    expect(participle("play")).toBe("played");
    expect(participle("stop")).toBe("stopped");
    expect(participle("star")).toBe("starred");
    expect(participle("fix")).toBe("fixed");
    expect(participle("open")).toBe("opened");
    expect(participle("visit")).toBe("visited");
    expect(participle("submit")).toBe("submitted");
    expect(participle("transfer")).toBe("transferred");
    expect(participle("offer")).toBe("offered");
    expect(participle("control")).toBe("controlled");
    expect(participle("follow")).toBe("followed");
  });
});
