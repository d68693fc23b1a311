import { describe, expect, it } from "vitest";
import {
  bool,
  call,
  error,
  failure,
  inferred,
  integer,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * More of the tokens passed as arguments (docs/inference.md, "Records, amounts and sessions"),
 * measured against `src/infer/tokens.ts`: a till whose staff sign in by badge and PIN, the
 * session's fields filled from the member of staff, the kiosk's constants and the arguments;
 * the names that are a token and those that are not; how long a token lives; which documented
 * error refuses a bad one; which sign-ins mint one and which field keeps it.
 */

const staff = {
  s1: { staff_id: "s1", badge: "B-77", pin: "4321", role: "manager", display_name: "Ines" },
  s2: { staff_id: "s2", badge: "B-80", pin: "9000", role: "cashier", display_name: "Kofi" },
};

const session = (kept: State = {}): State => ({
  sid: null,
  expires_at: null,
  staff_id: null,
  role: null,
  display_name: null,
  pin: null,
  terminal: "till-2",
  ...kept,
});

const till = (
  kept: State = {},
  signIn = "Signs in a member of staff at the till. A session lasts for 15 minutes.",
) =>
  world({ session: session(kept), staff, shelves: { a1: { shelf_id: "a1", label: "Tea" } } }, [
    tool(
      "sign_in",
      signIn,
      { badge: text, pin: text, remember_me: bool, scope: text },
      ["badge", "pin"],
      [],
      {
        outputSchema: {
          type: "object",
          properties: {
            sid: text,
            expires_in: integer,
            role: text,
            display_name: text,
            pin: text,
            terminal: text,
          },
        },
      },
    ),
    tool("update_shelf", "Change a shelf's label.", { sid: text, shelf_id: text, label: text }),
    tool("sign_out", "End the session.", { sid: text }),
  ]);

type Session = Record<string, unknown>;

describe("a till whose staff sign in by badge and PIN", () => {
  it("signs in the member of staff the badge and PIN name, keeps who it is and answers it, never the PIN", async () => {
    const { outcome, answer, after, report } = await call(till(), "sign_in", {
      badge: "B-77",
      pin: "4321",
      remember_me: true,
      scope: "shelves",
    });
    expect(outcome.status).toBe("applied");
    const sid = (answer as { sid: string }).sid;
    expect(sid).toMatch(/^[0-9a-z]{12}$/);
    expect(after.session).toEqual({
      sid,
      expires_at: "2026-03-02T09:15:00Z",
      staff_id: "s1",
      role: "manager",
      display_name: "Ines",
      pin: null,
      terminal: "till-2",
    });
    expect(answer).toEqual({
      sid,
      expires_in: 900,
      role: "manager",
      display_name: "Ines",
      pin: null,
      terminal: "till-2",
    });
    expect(report.notes).toEqual([
      "added documented error INVALID_CREDENTIALS (No record of staff has the given badge and pin (inferred).)",
      "signs in the record of staff whose badge and pin are given (INVALID_CREDENTIALS)",
      "mints a token and keeps it in session.sid, setting expires_at, staff_id, role, display_name, terminal",
    ]);
  });

  it("refuses a PIN that is another's, with the 401 it adds, and changes nothing", async () => {
    const world = till();
    const wrong = await call(world, "sign_in", { badge: "B-77", pin: "9000" });
    expect(failure(wrong.outcome)).toBe("INVALID_CREDENTIALS");
    expect(wrong.after).toEqual(world.state);
    const added = inferred(world, "sign_in").tool.errors;
    expect(added).toEqual([
      {
        code: "INVALID_CREDENTIALS",
        status: 401,
        message: "The credentials are wrong.",
        when: "No record of staff has the given badge and pin (inferred).",
      },
    ]);
    const other = await call(world, "sign_in", { badge: "B-80", pin: "9000" });
    expect(other.after.session).toMatchObject({ staff_id: "s2", role: "cashier", display_name: "Kofi" });
  });

  it("a tool that takes the session refuses any other, an expired one, and says so in its report", async () => {
    const world = till();
    const { answer, after } = await call(world, "sign_in", { badge: "B-80", pin: "9000" });
    const sid = (answer as { sid: string }).sid;
    const updated = await call(world, "update_shelf", { sid, shelf_id: "a1", label: "Coffee" }, after);
    expect(updated.after.shelves).toEqual({ a1: { shelf_id: "a1", label: "Coffee" } });
    const other = await call(
      world,
      "update_shelf",
      { sid: "0huqyk2i0z1j", shelf_id: "a1", label: "x" },
      after,
    );
    expect(failure(other.outcome)).toBe("INVALID_TOKEN");
    const expired = {
      ...after,
      session: { ...(after.session as Session), expires_at: "2026-03-02T08:59:59Z" },
    };
    const late = await call(world, "update_shelf", { sid, shelf_id: "a1", label: "x" }, expired);
    expect(failure(late.outcome)).toBe("INVALID_TOKEN");
    // a session kept without an expiry is good until it is ended
    const open = { ...after, session: { ...(after.session as Session), expires_at: null } };
    expect(
      (await call(world, "update_shelf", { sid, shelf_id: "a1", label: "y" }, open)).outcome.status,
    ).toBe("applied");
    const { tool: update, report } = inferred(world, "update_shelf");
    expect(report.notes).toContain(
      "refuses the call unless sid is the sid the state keeps and expires_at has not passed (INVALID_TOKEN)",
    );
    expect(update.errors.find((e) => e.code === "INVALID_TOKEN")).toEqual({
      code: "INVALID_TOKEN",
      status: 401,
      message: "The sid is invalid, revoked or expired; get a new one with sign_in.",
      when: "The sid is not the token sign_in last issued, or it has expired (inferred from the state's sid).",
    });
    // the session is checked before the shelf is looked for
    const both = await call(world, "update_shelf", { sid: "nope", shelf_id: "z9", label: "x" }, after);
    expect(failure(both.outcome)).toBe("INVALID_TOKEN");
  });

  it("signing out clears the session and its expiry, and keeps who was signed in", async () => {
    const world = till();
    const { answer, after } = await call(world, "sign_in", { badge: "B-77", pin: "4321" });
    const sid = (answer as { sid: string }).sid;
    const out = await call(world, "sign_out", { sid }, after);
    expect(out.after.session).toEqual({ ...(after.session as Session), sid: null, expires_at: null });
    expect(out.report.notes).toContain("clears sid, expires_at of session");
    expect(failure((await call(world, "sign_out", { sid: "other" }, after)).outcome)).toBe("INVALID_TOKEN");
  });
});

describe("who signs in, where no record holds every credential given", () => {
  /** A calendar app: the accounts keep no passwords, so who signs in is found by email. */
  const calendar = (login: Record<string, unknown> = {}) =>
    world(
      {
        session: { session_token: null, user_id: null, signed_in: false },
        users: {
          u1: { user_id: "u1", email: "ana@cal.test", name: "Ana" },
          u2: { user_id: "u2", email: "bo@cal.test", name: "Bo" },
        },
        calendars: { c1: { calendar_id: "c1", title: "Work" } },
      },
      [
        tool(
          "log_in",
          "Sign in with an email and a password.",
          { email: text, password: text, ...login },
          ["email", "password"],
          [error("NO_ACCOUNT", "No account has this email.", "No account has this email.", 404)],
          { outputSchema: { type: "object", properties: { session_token: text, user_id: text } } },
        ),
        tool("update_calendar", "Rename a calendar.", {
          session_token: text,
          calendar_id: text,
          title: text,
        }),
      ],
    );

  it("signs in the account the email names, as the rules of sessions do, and mints the token beside", async () => {
    const { outcome, answer, after, report } = await call(calendar(), "log_in", {
      email: "bo@cal.test",
      password: "anything",
    });
    expect(outcome.status).toBe("applied");
    const token = (answer as { session_token: string }).session_token;
    expect(answer).toEqual({ user_id: "u2", session_token: token });
    expect(after.session).toEqual({ session_token: token, user_id: "u2", signed_in: true });
    expect(report.notes).toEqual([
      "signs in the user whose email is given (NO_ACCOUNT)",
      "mints a token and keeps it in session.session_token, setting nothing else",
    ]);
    const unknown = await call(calendar(), "log_in", { email: "cy@cal.test", password: "x" });
    expect(failure(unknown.outcome)).toBe("NO_ACCOUNT");
    expect(unknown.after.session).toEqual({ session_token: null, user_id: null, signed_in: false });
    const renamed = await call(
      calendar(),
      "update_calendar",
      { session_token: token, calendar_id: "c1", title: "Home" },
      after,
    );
    expect(renamed.after.calendars).toEqual({ c1: { calendar_id: "c1", title: "Home" } });
  });

  it("a choice among fixed values or a constant is no credential: badge and PIN are still checked", async () => {
    // `grant_type` is one fixed value: the staff's records need not hold it
    const api = world({ session: session(), shelves: { a1: { shelf_id: "a1", label: "Tea" } }, staff }, [
      tool(
        "sign_in",
        "Signs in a member of staff.",
        { grant_type: { type: "string", const: "pin" }, badge: text, pin: text },
        undefined,
        [],
        { outputSchema: { type: "object", properties: { sid: text } } },
      ),
      tool("update_shelf", "Change a shelf's label.", { sid: text, shelf_id: text, label: text }),
    ]);
    const wrong = await call(api, "sign_in", { grant_type: "pin", badge: "B-77", pin: "0000" });
    expect(failure(wrong.outcome)).toBe("INVALID_CREDENTIALS");
    const right = await call(api, "sign_in", { grant_type: "pin", badge: "B-77", pin: "4321" });
    // the staff's records come after the shelves: the ones that hold the badge and PIN are found
    expect(right.after.session).toMatchObject({ staff_id: "s1", role: "manager", terminal: "till-2" });
  });

  it("a PIN alone is left to the rules of sessions; a badge and a staff id without a secret are checked against no record", async () => {
    const kiosk = (params: Record<string, unknown>) =>
      world({ session: session(), staff, shelves: { a1: { shelf_id: "a1", label: "Tea" } } }, [
        tool("sign_in", "Signs in a member of staff.", params, undefined, [], {
          outputSchema: { type: "object", properties: { sid: text } },
        }),
        tool("update_shelf", "Change a shelf's label.", { sid: text, shelf_id: text, label: text }),
      ]);
    // a PIN alone is left to the rules of sessions, which find the one member of staff it names
    const pinOnly = inferred(kiosk({ pin: text }), "sign_in").report.notes;
    expect(pinOnly).toContain("signs in the staff whose pin is given (INVALID_CREDENTIALS)");
    expect(pinOnly.join(" ")).not.toMatch(/signs in the record of staff/);
    const noSecret = inferred(kiosk({ badge: text, staff_id: text }), "sign_in").report.notes;
    expect(noSecret.join(" ")).not.toMatch(/signs in the record of staff|INVALID_CREDENTIALS/);
  });
});

describe("what a session keeps beside its token", () => {
  it("an argument named as a field of the session is kept, a constant of the output schema too, and no expiry is invented", async () => {
    const api = world(
      {
        session: { sid: null, expires_at: null, device_name: null, token_type: null, plan: null },
        staff,
        shelves: { a1: { shelf_id: "a1", label: "Tea" } },
      },
      [
        tool(
          "sign_in",
          "Signs in a member of staff on a device.",
          { badge: text, pin: text, device_name: text },
          ["badge", "pin"],
          [],
          {
            outputSchema: {
              type: "object",
              properties: {
                sid: text,
                token_type: { type: "string", const: "Bearer" },
                plan: { type: "string", enum: ["basic", "pro"] },
                expires_in: integer,
                pin: text,
              },
            },
          },
        ),
        tool("update_shelf", "Change a shelf's label.", { sid: text, shelf_id: text, label: text }),
      ],
    );
    const { answer, after, report } = await call(api, "sign_in", {
      badge: "B-77",
      pin: "4321",
      device_name: "front desk",
    });
    const sid = (answer as { sid: string }).sid;
    // no lifetime is stated: the expiry stays as it was, and none is answered
    expect(after.session).toEqual({
      sid,
      expires_at: null,
      device_name: "front desk",
      token_type: "Bearer",
      plan: null,
    });
    expect(answer).toEqual({ sid, token_type: "Bearer", plan: null });
    expect(report.notes).toContain(
      "mints a token and keeps it in session.sid, setting device_name, token_type",
    );
    // the device's name is no credential: the PIN is still checked
    const wrong = await call(api, "sign_in", { badge: "B-77", pin: "0000", device_name: "front desk" });
    expect(failure(wrong.outcome)).toBe("INVALID_CREDENTIALS");
    expect(wrong.after.session).toMatchObject({ sid: null, device_name: null });
  });

  it("a lifetime without an expiry field is answered, and nothing else is set", async () => {
    const api = world(
      { auth: { access_token: "kf_at_2b9x" }, staff, shelves: { a1: { shelf_id: "a1", label: "Tea" } } },
      [
        tool(
          "sign_in",
          "Signs in a member of staff; the token is valid for 10 minutes.",
          { badge: text, pin: text },
          undefined,
          [],
          { outputSchema: { type: "object", properties: { access_token: text, expires_in: integer } } },
        ),
        tool("update_shelf", "Change a shelf's label.", { access_token: text, shelf_id: text, label: text }),
      ],
    );
    const { answer, after, report } = await call(api, "sign_in", { badge: "B-80", pin: "9000" });
    const token = (answer as { access_token: string }).access_token;
    expect(token).toMatch(/^kf_at_[0-9a-z]{12}$/);
    expect(answer).toEqual({ access_token: token, expires_in: 600 });
    expect(after.auth).toEqual({ access_token: token });
    expect(report.notes).toContain("mints a token and keeps it in auth.access_token, setting nothing else");
  });

  it("a token the state shows without a separator gives new ones no prefix", async () => {
    const api = world({ auth: { access_token: "9f2c77ab" }, staff }, [
      tool("sign_in", "Signs in a member of staff.", { badge: text, pin: text }, undefined, [], {
        outputSchema: { type: "object", properties: { access_token: text } },
      }),
      tool("list_staff", "List the staff.", { access_token: text }),
    ]);
    const { answer } = await call(api, "sign_in", { badge: "B-80", pin: "9000" });
    expect((answer as { access_token: string }).access_token).toMatch(/^[0-9a-z]{12}$/);
  });

  it("keeps a session nested inside the app's state, signs out there, and looks for the staff where they are", async () => {
    const api = world(
      {
        app: {
          session: { sid: null, expires_at: null, staff_id: null },
          people: { staff },
        },
        shelves: { a1: { shelf_id: "a1", label: "Tea" } },
      },
      [
        tool(
          "sign_in",
          "Signs in a member of staff. Valid for 1 hour.",
          { badge: text, pin: text },
          undefined,
          [],
          {
            outputSchema: { type: "object", properties: { sid: text } },
          },
        ),
        tool("update_shelf", "Change a shelf's label.", { sid: text, shelf_id: text, label: text }),
        tool("sign_out", "End the session.", { sid: text }),
      ],
    );
    const signedIn = await call(api, "sign_in", { badge: "B-77", pin: "4321" });
    const sid = (signedIn.answer as { sid: string }).sid;
    expect((signedIn.after.app as State).session).toEqual({
      sid,
      expires_at: "2026-03-02T10:00:00Z",
      staff_id: "s1",
    });
    expect(signedIn.report.notes).toContain(
      "signs in the record of app/people/staff whose badge and pin are given (INVALID_CREDENTIALS)",
    );
    const out = await call(api, "sign_out", { sid }, signedIn.after);
    expect((out.after.app as State).session).toEqual({ sid: null, expires_at: null, staff_id: "s1" });
    expect(out.report.notes).toContain("clears sid, expires_at of app/session");
  });
});

/** A device-management console: a record keeps the session under `kept`, the sign-in answers it under `answered`. */
const consoleWorld = (options: {
  kept?: State;
  answered?: string;
  signIn?: string;
  params?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
  tools?: unknown[];
  more?: State;
}) =>
  world(
    {
      console: options.kept ?? { session_token: null },
      admins: { a1: { admin_id: "a1", email: "ops@devices.test", password: "hunter22" } },
      devices: { d1: { device_id: "d1", name: "Lobby screen", locked: false } },
      ...options.more,
    },
    [
      tool(
        "log_in",
        options.signIn ?? "Sign in as an admin.",
        options.params ?? { email: text, password: text },
        undefined,
        [],
        {
          outputSchema: {
            type: "object",
            properties: options.outputs ?? { [options.answered ?? "session_token"]: text },
          },
        },
      ),
      ...(options.tools ?? [
        tool("rename_device", "Rename a device.", {
          [Object.keys(options.kept ?? { session_token: null })[0] as string]: text,
          device_id: text,
          name: text,
        }),
      ]),
    ],
  );

const guarded = (toolset: ReturnType<typeof world>, name: string) =>
  inferred(toolset, name).report.notes.some((n) => n.startsWith("refuses the call unless"));

describe("the names of a token", () => {
  it("a session id, a session key, an auth token, a bare sid or auth are tokens, kept and taken back by that name", async () => {
    for (const name of ["session_id", "session_key", "authToken", "sessionId", "sid", "auth", "user_token"]) {
      const api = consoleWorld({ kept: { [name]: null }, answered: name });
      expect(guarded(api, "rename_device"), name).toBe(true);
      const signedIn = await call(api, "log_in", { email: "ops@devices.test", password: "hunter22" });
      const token = (signedIn.answer as State)[name];
      expect((signedIn.after.console as State)[name], name).toBe(token);
      const renamed = await call(
        api,
        "rename_device",
        { [name]: token, device_id: "d1", name: "Hall" },
        signedIn.after,
      );
      expect((renamed.after.devices as State).d1, name).toMatchObject({ name: "Hall" });
      const refused = await call(
        api,
        "rename_device",
        { [name]: "other", device_id: "d1", name: "Hall" },
        signedIn.after,
      );
      expect(failure(refused.outcome), name).toBe("INVALID_TOKEN");
    }
  });

  it("an author, an auth method, a push or page token and other one-word names are no proof of the call", async () => {
    for (const [name, value] of [
      ["author", "ops"],
      ["auth_method", "password"],
      ["oauth", "github"],
      ["push_token", "fcm:1"],
      ["next_page_token", "p2"],
    ]) {
      const api = consoleWorld({
        tools: [
          tool("rename_device", "Rename a device.", { session_token: text, device_id: text, name: text }),
          tool("lock_device", "Lock a device.", { [name as string]: text, device_id: text }),
        ],
      });
      expect(guarded(api, "rename_device"), name).toBe(true);
      expect(guarded(api, "lock_device"), name).toBe(false);
      const locked = await call(api, "lock_device", { [name as string]: value, device_id: "d1" });
      expect(locked.outcome.status, name).toBe("applied");
    }
  });

  it("of two tokens a tool takes, the one the sign-in answers is checked; a partner's is only data", async () => {
    const api = consoleWorld({
      tools: [
        tool("share_device", "Share a device with a partner.", {
          partner_token: text,
          session_token: text,
          device_id: text,
        }),
      ],
    });
    expect(inferred(api, "share_device").report.notes).toContain(
      "refuses the call unless session_token is the session_token the state keeps (INVALID_TOKEN)",
    );
    const signedIn = await call(api, "log_in", { email: "ops@devices.test", password: "hunter22" });
    const token = (signedIn.answer as State).session_token;
    const shared = await call(
      api,
      "share_device",
      { partner_token: "pt_1", session_token: token, device_id: "d1" },
      signedIn.after,
    );
    expect(shared.outcome.status).toBe("applied");
  });

  it("an argument described as what the sign-in answered is the token, whatever its name", async () => {
    const api = consoleWorld({
      kept: { session_token: null },
      tools: [
        tool("rename_device", "Rename a device.", {
          ticket: { type: "string", description: "The session token LOG_IN answered." },
          device_id: text,
          name: text,
        }),
      ],
    });
    expect(inferred(api, "rename_device").report.notes).toContain(
      "refuses the call unless ticket is the session_token the state keeps (INVALID_TOKEN)",
    );
    const refused = await call(api, "rename_device", { ticket: "stale", device_id: "d1", name: "Hall" });
    expect(failure(refused.outcome)).toBe("INVALID_TOKEN");
  });

  it("a token the state keeps that no sign-in mints is checked nowhere: a webhook's token is only data", async () => {
    const api = world(
      { settings: { webhook_token: "wh_1f3a" }, devices: { d1: { device_id: "d1", name: "Lobby screen" } } },
      [
        tool("update_settings", "Change the webhook's token.", { webhook_token: text }),
        tool("rename_device", "Rename a device.", { webhook_token: text, device_id: text, name: text }),
      ],
    );
    expect(guarded(api, "rename_device")).toBe(false);
    const set = await call(api, "update_settings", { webhook_token: "wh_9a9a" });
    expect(set.after.settings).toEqual({ webhook_token: "wh_9a9a" });
  });

  it("a login that also takes a one-time MFA token is still the only tool with a token: nothing is checked", () => {
    const api = consoleWorld({
      params: { email: text, password: text, mfa_token: text },
      tools: [tool("get_device", "Get a device.", { device_id: text })],
    });
    expect(inferred(api, "log_in").report.notes.join(" ")).not.toMatch(/mints a token/);
  });
});

describe("which tools mint the token", () => {
  it("a sign-in its name or text says, one taking an API key or a refresh token, or an output without a type", async () => {
    const cases: Array<[string, string, Record<string, unknown>, Record<string, unknown>]> = [
      ["start_session", "Authenticates the caller.", { email: text, code: text }, { session_token: text }],
      ["log_in", "Open the console.", { email: text }, { session_token: text }],
      ["open_session", "Open a session for the console.", { api_key: text }, { session_token: text }],
      ["exchange", "Exchange for a new session.", { refresh_token: text }, { session_token: text }],
      [
        "log_in",
        "Sign in.",
        { email: text, password: text },
        { session_token: { description: "The session." } },
      ],
    ];
    for (const [name, description, params, outputs] of cases) {
      const api = world(
        {
          console: { session_token: null },
          devices: { d1: { device_id: "d1", name: "Lobby screen" } },
        },
        [
          tool(name, description, params, undefined, [], {
            outputSchema: { type: "object", properties: outputs },
          }),
          tool("rename_device", "Rename a device.", { session_token: text, device_id: text, name: text }),
        ],
      );
      expect(inferred(api, name).report.notes.join(" "), name).toMatch(
        /mints a token and keeps it in console.session_token/,
      );
      expect(guarded(api, "rename_device"), name).toBe(true);
    }
  });

  it("a share link, a login answering no token, a login with no answer, or a revoke echoing its token mint none", () => {
    const states = {
      console: { session_token: null },
      devices: { d1: { device_id: "d1", name: "Lobby screen" } },
    };
    const rename = tool("rename_device", "Rename a device.", {
      session_token: text,
      device_id: text,
      name: text,
    });
    const cases: unknown[][] = [
      [
        tool("create_share_link", "Share a device's screen.", { device_id: text }, undefined, [], {
          outputSchema: { type: "object", properties: { session_token: text } },
        }),
      ],
      [
        tool("log_in", "Sign in.", { email: text, password: text }, undefined, [], {
          outputSchema: { type: "object", properties: { admin_id: text } },
        }),
      ],
      [tool("log_in", "Sign in.", { email: text, password: text })],
      [
        tool("log_in", "Sign in.", { email: text, password: text }, undefined, [], {
          outputSchema: {
            type: "object",
            properties: { session_token: { type: "object", properties: { value: text, expires: text } } },
          },
        }),
      ],
      [
        tool(
          "authorize_device",
          "Signs in a device; answers the session string.",
          { device_id: text },
          undefined,
          [],
          {
            outputSchema: { type: "string" },
          },
        ),
      ],
      [
        tool(
          "revoke_token",
          "Revoke a session once signed in.",
          { client_secret: text, session_token: text },
          undefined,
          [],
          { outputSchema: { type: "object", properties: { session_token: text } } },
        ),
      ],
    ];
    for (const tools of cases) {
      const api = world(states, [...tools, rename]);
      expect(guarded(api, "rename_device"), JSON.stringify(tools)).toBe(false);
    }
  });

  it("a login whose whole answer is the session string mints it", async () => {
    const api = world(
      { console: { session_token: null }, devices: { d1: { device_id: "d1", name: "Lobby screen" } } },
      [
        tool("log_in", "Sign in.", { email: text, password: text }, undefined, [], {
          outputSchema: { type: "string" },
        }),
        tool("rename_device", "Rename a device.", { session_token: text, device_id: text, name: text }),
      ],
    );
    const { answer, after } = await call(api, "log_in", { email: "ops@devices.test", password: "x" });
    expect(typeof answer).toBe("string");
    expect(after.console).toEqual({ session_token: answer });
  });
});

describe("how long a token lives", () => {
  const lifetime = async (description: string, outputs: Record<string, unknown> = {}) => {
    const api = consoleWorld({
      kept: { session_token: null, expires_at: null },
      signIn: description,
      // what the test adds comes first: a constant before expires_in is no lifetime
      outputs: { ...outputs, session_token: text, expires_in: integer, ...outputs },
    });
    const { answer, after } = await call(api, "log_in", { email: "ops@devices.test", password: "hunter22" });
    return { expiresIn: (answer as State).expires_in, expiresAt: (after.console as State).expires_at };
  };

  it("reads the lifetime the description states, in any unit", async () => {
    const stated: Array<[string, number | undefined, string | null]> = [
      ["Sign in. A token lives for 90 seconds.", 90, "2026-03-02T09:01:30Z"],
      ["Sign in. Tokens live for 1 day.", 86400, "2026-03-03T09:00:00Z"],
      ["Sign in. Sessions last for 1 hour.", 3600, "2026-03-02T10:00:00Z"],
      ["Sign in. Tokens expire automatically after 45 min.", 2700, "2026-03-02T09:45:00Z"],
      ["Sign in. The session expires in 1 minute.", 60, "2026-03-02T09:01:00Z"],
      ["Sign in. Valid for 30min.", 1800, "2026-03-02T09:30:00Z"],
      ["Sign in. Good for 600 sec.", 600, "2026-03-02T09:10:00Z"],
      ["Sign in. Valid for 2 days.", 172800, "2026-03-04T09:00:00Z"],
      ["Sign in. Sessions expire. Valid as long as you like.", undefined, null],
    ];
    for (const [description, seconds, at] of stated)
      expect(await lifetime(description), description).toEqual({ expiresIn: seconds, expiresAt: at });
  });

  it("else the one value the output schema allows for expires_in, a ttl or an expiry", async () => {
    expect(
      await lifetime("Sign in.", { api_version: { const: 2 }, expires_in: { type: "integer", const: 900 } }),
    ).toEqual({
      expiresIn: 900,
      expiresAt: "2026-03-02T09:15:00Z",
    });
    expect(await lifetime("Sign in.", { ttl: { type: "integer", enum: [300] } })).toMatchObject({
      expiresAt: "2026-03-02T09:05:00Z",
    });
    expect(await lifetime("Sign in.", { expiry: { type: "integer", const: 120 } })).toMatchObject({
      expiresAt: "2026-03-02T09:02:00Z",
    });
    // two values allowed, or a value that is no number, say no lifetime
    for (const expires_in of [
      { type: "integer", enum: [300, 600] },
      { type: "string", const: "one hour" },
    ])
      expect(await lifetime("Sign in.", { expires_in })).toEqual({ expiresIn: undefined, expiresAt: null });
  });

  it("an expiry kept as a number of seconds is not compared as a time", async () => {
    const api = consoleWorld({ kept: { session_token: "tok_1", expires: 1772400000 } });
    expect(inferred(api, "rename_device").report.notes).toContain(
      "refuses the call unless session_token is the session_token the state keeps (INVALID_TOKEN)",
    );
    const renamed = await call(api, "rename_device", {
      session_token: "tok_1",
      device_id: "d1",
      name: "Hall",
    });
    expect(renamed.outcome.status).toBe("applied");
  });

  it("an expiry inside a nested record of the session is not the session's", () => {
    const api = consoleWorld({
      kept: { session_token: "tok_1", device: { expires_at: "2026-03-01T00:00:00Z" } },
    });
    expect(inferred(api, "rename_device").report.notes).toContain(
      "refuses the call unless session_token is the session_token the state keeps (INVALID_TOKEN)",
    );
  });
});

describe("the error a bad token answers", () => {
  /** A console whose tools each document their refusal their own way. */
  const documented = world(
    {
      console: { session_token: "tok_live" },
      admins: { a1: { admin_id: "a1", email: "ops@devices.test", password: "hunter22" } },
      devices: { d1: { device_id: "d1", name: "Lobby screen", locked: false } },
    },
    [
      tool("log_in", "Sign in.", { email: text, password: text }, undefined, [], {
        outputSchema: { type: "object", properties: { session_token: text } },
      }),
      tool("verify_email", "Verify an email address.", { verification_token: text }, undefined, [
        error("LINK_EXPIRED", "The verification token has expired.", "The link is old."),
      ]),
      tool("get_device", "Get a device.", { session_token: text, device_id: text }),
      tool(
        "rename_device",
        "Rename a device.",
        { session_token: text, device_id: text, name: text },
        undefined,
        [error("AUTH_REQUIRED", "Please sign in first.", "The session is not valid.", 401)],
      ),
      tool("lock_device", "Lock a device.", { session_token: text, device_id: text }, undefined, [
        error("E_DENIED", "Unauthorized.", "Wrong session.", 403),
      ]),
      tool("unlock_device", "Unlock a device.", { session_token: text, device_id: text }, undefined, [
        error("E_REFUSED", "You are not authorised to do this.", "Wrong session.", 403),
      ]),
      tool("delete_device", "Delete a device.", { session_token: text, device_id: text }, undefined, [
        error("UNAUTHORISED", "Refused.", "Refused.", 403),
      ]),
      tool("reboot_device", "Reboot a device.", { session_token: text, device_id: text }, undefined, [
        error("NOT_AUTHORIZED", "Refused.", "Refused.", 403),
      ]),
      tool("wipe_device", "Wipe a device.", { session_token: text, device_id: text }, undefined, [
        error("WIPE_REFUSED", "Invalid Token.", "Refused.", 403),
      ]),
      tool("restart_device", "Restart a device.", { session_token: text, device_id: text }, undefined, [
        error("E_GONE", "Session expired.", "Refused.", 403),
      ]),
      tool("pair_device", "Pair a device.", { session_token: text, device_id: text }, undefined, [
        error("E_STALE", "Please relogin.", "Refused.", 403),
      ]),
      tool("locate_device", "Locate a device.", { session_token: text, device_id: text }, undefined, [
        error("NOT_FOUND", "Session token not found.", "The token is not the session's.", 404),
      ]),
    ],
  );

  it("each tool answers the refusal it documents: a 401, an unauthorized, a token, a code that says so", async () => {
    const expected: Array<[string, string]> = [
      ["rename_device", "AUTH_REQUIRED"],
      ["lock_device", "E_DENIED"],
      ["unlock_device", "E_REFUSED"],
      ["delete_device", "UNAUTHORISED"],
      ["reboot_device", "NOT_AUTHORIZED"],
      ["wipe_device", "WIPE_REFUSED"],
      ["restart_device", "E_GONE"],
      ["locate_device", "NOT_FOUND"],
      ["pair_device", "E_STALE"],
    ];
    for (const [name, code] of expected) {
      const refused = await call(documented, name, { session_token: "tok_old", device_id: "d1", name: "x" });
      expect(failure(refused.outcome), name).toBe(code);
      expect(
        inferred(documented, name).tool.errors.map((e) => e.code),
        name,
      ).toEqual([code, "DEVICE_NOT_FOUND"]);
    }
  });

  it("a token's generic not-found error is no device's: an unknown device is answered by the one inference adds", async () => {
    const missing = await call(documented, "locate_device", { session_token: "tok_live", device_id: "d9" });
    expect(failure(missing.outcome)).toBe("DEVICE_NOT_FOUND");
    const found = await call(documented, "locate_device", { session_token: "tok_live", device_id: "d1" });
    expect(found.outcome.status).toBe("applied");
  });

  it("a tool that documents none answers the first its token-taking siblings document, not a verification link's", async () => {
    const refused = await call(documented, "get_device", { session_token: "tok_old", device_id: "d1" });
    expect(failure(refused.outcome)).toBe("AUTH_REQUIRED");
    expect(inferred(documented, "get_device").tool.errors).toContainEqual({
      code: "AUTH_REQUIRED",
      status: 401,
      message: "Please sign in first.",
      when: "The session is not valid.",
    });
  });
});

describe("which field keeps the token", () => {
  it("the one named as the sign-in answers it, beside another token the state keeps", async () => {
    const api = consoleWorld({ kept: { user_token: null, admin_token: "adm_77" }, answered: "user_token" });
    const { answer, after } = await call(api, "log_in", { email: "ops@devices.test", password: "hunter22" });
    expect(after.console).toEqual({ user_token: (answer as State).user_token, admin_token: "adm_77" });
    expect(guarded(api, "rename_device")).toBe(true);
  });

  it("the only token-named text field, where the sign-in answers it under another name; a flag is no token", async () => {
    const api = consoleWorld({
      kept: { session_token: null, has_token: false },
      answered: "auth_token",
      tools: [tool("rename_device", "Rename a device.", { auth_token: text, device_id: text, name: text })],
    });
    const { answer, after } = await call(api, "log_in", { email: "ops@devices.test", password: "hunter22" });
    expect(after.console).toEqual({ session_token: (answer as State).auth_token, has_token: false });
  });

  it("none where two records keep the token the sign-in answers, or two tokens and neither is named", () => {
    const twice = consoleWorld({
      kept: { session_token: null },
      more: {
        integrations: { slack: { name: "slack", session_token: "xoxb-1" } },
        kiosk: { session_token: null },
      },
    });
    expect(guarded(twice, "rename_device")).toBe(false);
    const neither = consoleWorld({ kept: { user_token: null, admin_token: null }, answered: "token" });
    expect(guarded(neither, "rename_device")).toBe(false);
    // a collection whose records keep tokens is not where the session's is
    const stored = consoleWorld({
      kept: { session_token: null },
      answered: "access_token",
      more: { webhooks: { w1: { webhook_id: "w1", session_token: "wh_1" } } },
      tools: [tool("rename_device", "Rename a device.", { access_token: text, device_id: text, name: text })],
    });
    expect(guarded(stored, "rename_device")).toBe(true);
  });
});

describe("signing in and out, as the tools document it", () => {
  it("a documented wrong-PIN error refuses a wrong PIN, and an answer never carries the PIN the staff record holds", async () => {
    const api = world({ session: { sid: null, role: null }, staff }, [
      tool(
        "sign_in",
        "Signs in a member of staff.",
        { badge: text, pin: text },
        undefined,
        [
          error("TOO_MANY_TRIES", "Too many attempts; wait a minute.", "Five tries in a minute.", 429),
          error("WRONG_PIN", "The badge or PIN is wrong.", "No staff has that badge and PIN.", 401),
        ],
        { outputSchema: { type: "object", properties: { sid: text, role: text, pin: text } } },
      ),
      tool("list_staff", "List the staff.", { sid: text }),
    ]);
    const wrong = await call(api, "sign_in", { badge: "B-77", pin: "0000" });
    expect(failure(wrong.outcome)).toBe("WRONG_PIN");
    const { answer, report, tool: signIn } = await call(api, "sign_in", { badge: "B-77", pin: "4321" });
    expect(answer).toEqual({ sid: (answer as State).sid, role: "manager" });
    expect(signIn.errors.map((e) => e.code)).toEqual(["TOO_MANY_TRIES", "WRONG_PIN"]);
    expect(report.gaps).toEqual(["documented error TOO_MANY_TRIES is answered by no effect"]);
    expect(report.notes).toContain("signs in the record of staff whose badge and pin are given (WRONG_PIN)");
  });

  it("invalidating the session clears it; a revoke that forgives any token clears only the one kept", async () => {
    const kept = { sid: "kf_9x2c", expires_at: "2026-03-02T10:00:00Z", staff_id: "s1" };
    const api = world({ session: kept, staff }, [
      tool("sign_in", "Signs in a member of staff.", { badge: text, pin: text }, undefined, [], {
        outputSchema: { type: "object", properties: { sid: text } },
      }),
      tool("invalidate_session", "End the session.", { sid: text }),
      tool("revoke_session", "Revoke a session; always succeeds.", { sid: text }),
      tool("invalidate_token", "Invalidate a token. An unknown token is ignored.", { sid: text }),
      tool("get_staff", "Read a member of staff; always succeeds.", { sid: text, staff_id: text }),
    ]);
    const ended = await call(api, "invalidate_session", { sid: "kf_9x2c" });
    expect(ended.after.session).toEqual({ sid: null, expires_at: null, staff_id: "s1" });
    expect(failure((await call(api, "invalidate_session", { sid: "kf_0000" })).outcome)).toBe(
      "INVALID_TOKEN",
    );
    const other = await call(api, "revoke_session", { sid: "kf_0000" });
    expect(other.outcome.status).toBe("applied");
    expect(other.after.session).toEqual(kept);
    const revoked = await call(api, "revoke_session", { sid: "kf_9x2c" });
    expect(revoked.after.session).toEqual({ sid: null, expires_at: null, staff_id: "s1" });
    expect(revoked.report.notes).toEqual([
      "clears sid, expires_at of session when sid is the one kept; any other is no error",
    ]);
    expect(revoked.report.drafts.map((d) => d.kind)).toEqual(["update"]);
    const unknown = await call(api, "invalidate_token", { sid: "kf_0000" });
    expect(unknown.outcome.status).toBe("applied");
    expect(unknown.after.session).toEqual(kept);
    expect((await call(api, "invalidate_token", { sid: "kf_9x2c" })).after.session).toMatchObject({
      sid: null,
    });
    // a tool that always succeeds but revokes nothing still checks the session
    expect(failure((await call(api, "get_staff", { sid: "kf_0000", staff_id: "s1" })).outcome)).toBe(
      "INVALID_TOKEN",
    );
  });

  it("with two sign-ins, an argument described as what either answered is the token", async () => {
    const api = world({ session: { sid: null }, staff, devices: { d1: { device_id: "d1", name: "Till" } } }, [
      tool("sign_in", "Signs in a member of staff.", { badge: text, pin: text }, undefined, [], {
        outputSchema: { type: "object", properties: { sid: text } },
      }),
      tool("badge_login", "Log in by badge and PIN.", { badge: text, pin: text }, undefined, [], {
        outputSchema: { type: "object", properties: { sid: text } },
      }),
      tool("rename_device", "Rename a device.", {
        ticket: { type: "string", description: "What badge_login answered." },
        device_id: text,
        name: text,
      }),
    ]);
    expect(
      failure((await call(api, "rename_device", { ticket: "x", device_id: "d1", name: "y" })).outcome),
    ).toBe("INVALID_TOKEN");
  });
});

describe("what the example states say of the session", () => {
  const withStates = (toolset: ReturnType<typeof world>, states: State[]) =>
    ({
      ...toolset,
      tasks: states.map((state, i) => ({
        id: `t${i}`,
        description: "Relabel a shelf.",
        difficulty: "simple",
        valid: true,
        solution: [],
        checklist: [],
        state,
      })),
    }) as unknown as ReturnType<typeof world>;

  const till2 = (sid: unknown, terminal: string) => ({ session: { sid, terminal }, staff });
  const tools = [
    tool("sign_in", "Signs in a member of staff.", { badge: text, pin: text }, undefined, [], {
      outputSchema: { type: "object", properties: { sid: text } },
    }),
    tool("list_staff", "List the staff.", { sid: text }),
  ];

  it("new tokens begin as every token shown does, the empty and missing ones aside; a terminal that differs is kept as it is", async () => {
    const api = withStates(world(till2("kf_at_9x2", "till-2"), tools), [
      till2(null, "till-3"),
      till2("", "till-2"),
    ]);
    const { answer, after, report } = await call(api, "sign_in", { badge: "B-80", pin: "9000" });
    expect((answer as State).sid).toMatch(/^kf_at_[0-9a-z]{12}$/);
    expect(after.session).toEqual({ sid: (answer as State).sid, terminal: "till-2" });
    expect(report.notes).toContain("mints a token and keeps it in session.sid, setting nothing else");
  });

  it("a text every example shows is set at each sign-in, a number is left as the state has it", async () => {
    const api = world({ session: { sid: null, terminal: "till-2", shift: 1 }, staff }, tools);
    const given = { session: { sid: null, terminal: "till-5", shift: 2 }, staff };
    const { answer, after } = await call(api, "sign_in", { badge: "B-80", pin: "9000" }, given);
    expect(after.session).toEqual({ sid: (answer as State).sid, terminal: "till-2", shift: 2 });
  });

  it("tokens that begin differently give new ones no prefix; a terminal every state shows is set", async () => {
    const api = withStates(world(till2("kf_at_9x2", "till-2"), tools), [till2("kf_rt_1b7", "till-2")]);
    const { answer, report } = await call(api, "sign_in", { badge: "B-80", pin: "9000" });
    expect((answer as State).sid).toMatch(/^[0-9a-z]{12}$/);
    expect(report.notes).toContain("mints a token and keeps it in session.sid, setting terminal");
  });
});

describe("a sign-in the session rules cannot read", () => {
  it("rewrites no account and answers none of its secrets", async () => {
    const desk = world(
      {
        session: { sid: null, staff_id: null },
        staff: { s1: { staff_id: "s1", badge: "B-77", pin: "4321", name: "Ada" } },
      },
      [tool("sign_in", "Sign in a member of staff.", { badge: text, staff_id: text })],
    );
    const { report, after, outcome } = await call(desk, "sign_in", { badge: "B-99", staff_id: "s1" });
    expect(report.verdict).toBe("not inferred");
    expect(outcome.status).not.toBe("failed");
    expect(after).toEqual(desk.state);
    expect(JSON.stringify(outcome)).not.toContain("4321");
  });
});
