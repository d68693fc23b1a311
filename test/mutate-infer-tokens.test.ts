import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  inferred,
  number,
  type State,
  text,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Tokens passed as arguments (docs/inference.md, "Records, amounts and sessions"): a sign-in
 * mints a token the state keeps, the other tools take it back and are refused without the
 * one last issued, revoking clears it. Worlds of three shapes: a JSON-RPC tracker keeping one
 * top-level token, a monitoring API whose login answers the bare string, and an OAuth client
 * with an expiry beside the token.
 */

const users = {
  "7": { id: 7, login: "mara@tracker.test", password: "correct horse", name: "Mara" },
  "9": { id: 9, login: "teo@tracker.test", password: "battery staple", name: "Teo" },
};
const bugs = {
  "101": { bug_id: 101, summary: "Crash on save", status: "open" },
};

const tracker = world({ token: null, users, bugs }, [
  tool(
    "user_login",
    "Log in with a login name and password. Answers the user's id and a token to pass to the other methods.",
    { login: text, password: text, remember: { type: "boolean" } },
    ["login", "password"],
    [
      error(
        "LOGIN_FAILED",
        "The username or password you entered is not valid.",
        "Wrong login or password.",
        401,
      ),
    ],
    { outputSchema: { type: "object", properties: { id: number, token: text } } },
  ),
  tool(
    "create_bug",
    "File a new bug. Needs a token.",
    { Tracker_token: { type: "string", description: "The token user_login answered." }, summary: text },
    ["Tracker_token", "summary"],
  ),
  tool(
    "get_bug",
    "Read one bug by its id; anyone may.",
    { bug_id: number },
    ["bug_id"],
    [error("BUG_NOT_FOUND", "Bug not found.", "No bug has the given id.", 404)],
  ),
  tool(
    "update_bug",
    "Change a bug's summary; a token, when given, must be valid.",
    { Tracker_token: text, bug_id: number, summary: text },
    ["bug_id", "summary"],
    [error("BUG_NOT_FOUND", "Bug not found.", "No bug has the given id.", 404)],
  ),
  tool("user_logout", "Log out: the token stops working.", { token: text }, ["token"]),
]);

const signedIn = async (): Promise<{ token: string; state: State }> => {
  const { answer, after } = await call(tracker, "user_login", {
    login: "mara@tracker.test",
    password: "correct horse",
  });
  return { token: String((answer as { token?: unknown }).token), state: after };
};

describe("a JSON-RPC tracker keeping one token at the top of its state", () => {
  it("logging in checks login and password together, keeps the minted token and answers it with the user's id", async () => {
    const { outcome, answer, after } = await call(tracker, "user_login", {
      login: "mara@tracker.test",
      password: "correct horse",
    });
    expect(outcome.status).toBe("applied");
    expect(answer).toEqual({ id: 7, token: expect.stringMatching(/^[0-9a-z]{12}$/) });
    expect(after.token).toBe((answer as { token: string }).token);
    // the password of one user with the login of another is no user
    const wrong = await call(tracker, "user_login", {
      login: "mara@tracker.test",
      password: "battery staple",
    });
    expect(failure(wrong.outcome)).toBe("LOGIN_FAILED");
    expect(wrong.after.token).toBeNull();
  });

  it("a call with the kept token goes through; another token is refused with an added 401 and files nothing", async () => {
    const { token, state } = await signedIn();
    const filed = await call(tracker, "create_bug", { Tracker_token: token, summary: "Slow search" }, state);
    expect(filed.outcome.status).toBe("applied");
    expect(Object.keys(filed.after.bugs as object)).toHaveLength(2);
    expect(filed.after.bugs).not.toHaveProperty(["102", "Tracker_token"]);
    const refused = await call(
      tracker,
      "create_bug",
      { Tracker_token: `${token}0`, summary: "Slow search" },
      state,
    );
    expect(failure(refused.outcome)).toBe("INVALID_TOKEN");
    expect(refused.after).toEqual(state);
    const { tool: created } = inferred(tracker, "create_bug");
    expect(created.errors.find((e) => e.code === "INVALID_TOKEN")?.status).toBe(401);
    // never signed in, the state keeps no token: none is good
    const never = await call(tracker, "create_bug", { Tracker_token: "anything", summary: "x" });
    expect(failure(never.outcome)).toBe("INVALID_TOKEN");
  });

  it("an optional token is checked only when given; a tool that takes none is unaffected", async () => {
    const { token, state } = await signedIn();
    const without = await call(tracker, "update_bug", { bug_id: 101, summary: "Crash on save as" }, state);
    expect(without.outcome.status).toBe("applied");
    const bad = await call(
      tracker,
      "update_bug",
      { Tracker_token: "stale", bug_id: 101, summary: "x" },
      state,
    );
    expect(failure(bad.outcome)).toBe("INVALID_TOKEN");
    const good = await call(
      tracker,
      "update_bug",
      { Tracker_token: token, bug_id: 101, summary: "y" },
      state,
    );
    expect((good.after.bugs as Record<string, { summary: string }>)["101"]?.summary).toBe("y");
    const read = await call(tracker, "get_bug", { bug_id: 101 });
    expect(read.outcome.status).toBe("applied");
    expect(inferred(tracker, "get_bug").report.notes.join(" ")).not.toMatch(/token/);
  });

  it("logging out clears the token, which then opens nothing", async () => {
    const { token, state } = await signedIn();
    const out = await call(tracker, "user_logout", { token }, state);
    expect(out.outcome.status).toBe("applied");
    expect(out.after.token).toBeNull();
    const after = await call(tracker, "create_bug", { Tracker_token: token, summary: "x" }, out.after);
    expect(failure(after.outcome)).toBe("INVALID_TOKEN");
    expect(failure((await call(tracker, "user_logout", { token }, out.after)).outcome)).toBe("INVALID_TOKEN");
  });
});

const monitor = world(
  {
    session: { auth: null },
    accounts: { "1": { userid: "1", username: "Admin", password: "zabbix-like", role: "super" } },
    hosts: { "10084": { hostid: "10084", host: "web-01", status: "monitored" } },
  },
  [
    tool(
      "user_login",
      "Log in; answers the session's authentication string.",
      { username: text, password: text },
      undefined,
      [],
      {
        outputSchema: { type: "string" },
      },
    ),
    tool(
      "host_update",
      "Change a host's status.",
      {
        auth: { type: "string", description: "The string user_login answered." },
        hostid: text,
        status: { type: "string", enum: ["monitored", "unmonitored"] },
      },
      undefined,
      [
        error(
          "NOT_AUTHORISED",
          "Session terminated, re-login, please.",
          "The auth string is not the session's.",
          401,
        ),
        error("HOST_NOT_FOUND", "No host has this id.", "No host has this id.", 404),
      ],
    ),
  ],
);

describe("a login whose whole answer is the token, passed back as `auth`", () => {
  it("answers the minted string, keeps it in the session, and the documented error refuses any other", async () => {
    const login = await call(monitor, "user_login", { username: "Admin", password: "zabbix-like" });
    expect(typeof login.answer).toBe("string");
    expect((login.after.session as { auth: unknown }).auth).toBe(login.answer);
    const unknown = await call(monitor, "user_login", { username: "Admin", password: "nope" });
    expect(failure(unknown.outcome)).toBe("INVALID_CREDENTIALS");
    const changed = await call(
      monitor,
      "host_update",
      { auth: login.answer, hostid: "10084", status: "unmonitored" },
      login.after,
    );
    expect((changed.after.hosts as Record<string, { status: string }>)["10084"]?.status).toBe("unmonitored");
    const refused = await call(
      monitor,
      "host_update",
      { auth: "0424bd59b807674191e7d77572075f33", hostid: "10084", status: "unmonitored" },
      login.after,
    );
    expect(failure(refused.outcome)).toBe("NOT_AUTHORISED");
    // the token is checked before the host is looked for
    const both = await call(
      monitor,
      "host_update",
      { auth: "x", hostid: "1", status: "monitored" },
      login.after,
    );
    expect(failure(both.outcome)).toBe("NOT_AUTHORISED");
  });
});

const oauth = (description: string, state: State = {}) =>
  world(
    {
      oauth: { access_token: null, expires_at: null, token_type: null, scope: null },
      apps: { app_1: { client_id: "app_1", client_secret: "s1", scope: "read write" } },
      notes: { n1: { note_id: "n1", body: "hello" } },
      ...state,
    },
    [
      tool(
        "get_token",
        description,
        {
          grant_type: { type: "string", enum: ["client_credentials"] },
          client_id: text,
          client_secret: text,
        },
        undefined,
        [error("INVALID_CLIENT", "Client authentication failed.", "Unknown client or wrong secret.", 401)],
        {
          outputSchema: {
            type: "object",
            properties: {
              access_token: text,
              token_type: { type: "string", enum: ["bearer"] },
              expires_in: { type: "integer" },
              scope: text,
              page_token: text,
            },
          },
        },
      ),
      tool(
        "list_notes",
        "List the notes.",
        { access_token: text, page_token: text },
        ["access_token"],
        [error("UNAUTHORIZED", "Invalid or expired access token.", "The access token is not valid.", 401)],
      ),
      tool("get_note", "Get a note.", { access_token: text, note_id: text }, undefined, [
        error("NOTE_NOT_FOUND", "Note not found.", "No note has the id.", 404),
      ]),
    ],
  );

const CREDENTIALS = { grant_type: "client_credentials", client_id: "app_1", client_secret: "s1" };

describe("an OAuth client whose token expires", () => {
  it("keeps the expiry the description states and the caller's scope, and answers them", async () => {
    const { answer, after } = await call(
      oauth("Obtain an access token; it expires after 2 hours."),
      "get_token",
      CREDENTIALS,
    );
    expect(answer).toMatchObject({ token_type: "bearer", expires_in: 7200, scope: "read write" });
    expect(after.oauth).toEqual({
      access_token: (answer as { access_token: string }).access_token,
      expires_at: "2026-03-02T11:00:00Z",
      token_type: "bearer",
      scope: "read write",
    });
  });

  it("refuses a kept token once its expiry has passed, with the documented error the siblings share", async () => {
    // the state keeps a token from before, which expired a minute ago
    const kept = {
      access_token: "tok_old",
      expires_at: "2026-03-02T08:59:00Z",
      token_type: "bearer",
      scope: "read",
    };
    const api = oauth("Obtain an access token for the client, valid for 30 minutes.", { oauth: kept });
    const state = api.state;
    expect(failure((await call(api, "list_notes", { access_token: "tok_old" }, state)).outcome)).toBe(
      "UNAUTHORIZED",
    );
    // get_note documents no token error: it answers the one list_notes documents
    expect(
      failure((await call(api, "get_note", { access_token: "tok_old", note_id: "n1" }, state)).outcome),
    ).toBe("UNAUTHORIZED");
    const fresh = { ...state, oauth: { ...kept, expires_at: "2026-03-02T09:01:00Z" } };
    expect((await call(api, "list_notes", { access_token: "tok_old" }, fresh)).outcome.status).toBe(
      "applied",
    );
    // new tokens look like the ones the state shows
    const minted = await call(api, "get_token", CREDENTIALS, state);
    expect((minted.answer as { access_token: string }).access_token).toMatch(/^tok_[0-9a-z]{12}$/);
    expect((minted.after.oauth as { expires_at: string }).expires_at).toBe("2026-03-02T09:30:00Z");
  });

  it("a page token is no credential: it is neither checked nor minted", async () => {
    const api = oauth("Obtain an access token.");
    const { report } = inferred(api, "list_notes");
    expect(report.notes.join(" ")).toMatch(/unless access_token is the access_token/);
    expect(report.notes.join(" ")).not.toMatch(/page_token is/);
    const { answer } = await call(api, "get_token", CREDENTIALS);
    expect(answer).not.toHaveProperty("page_token");
  });
});

describe("a revocation that takes any token, as RFC 7009 has it", () => {
  it("clears the kept token when it is the one given, and answers any other without an error or a change", async () => {
    const api = world(
      {
        auth: { access_token: "at_2f9c1d77ab01", expires_at: null },
        apps: { app_1: { client_id: "app_1", client_secret: "s1" } },
      },
      [
        tool(
          "create_token",
          "Authenticate the client; answers an access token.",
          { client_id: text, client_secret: text },
          undefined,
          [],
          {
            outputSchema: { type: "object", properties: { access_token: text } },
          },
        ),
        tool("revoke_token", "Revoke a token. An invalid or unknown token is not an error.", { token: text }),
        tool("whoami", "The client the token belongs to.", { access_token: text }),
      ],
    );
    const other = await call(api, "revoke_token", { token: "at_000000000000" });
    expect(other.outcome.status).toBe("applied");
    expect(other.after.auth).toEqual({ access_token: "at_2f9c1d77ab01", expires_at: null });
    const kept = await call(api, "revoke_token", { token: "at_2f9c1d77ab01" });
    expect(kept.after.auth).toEqual({ access_token: null, expires_at: null });
    expect(inferred(api, "revoke_token").tool.errors).toEqual([]);
  });
});

describe("where nothing takes the token back, signing in is left to the rules of sessions", () => {
  it("a token only the sign-in answers is not checked anywhere", () => {
    const api = world(
      { auth: { access_token: null, user_id: null }, users: { u1: { user_id: "u1", email: "a@b.c" } } },
      [
        tool("login", "Sign in with email and password.", { email: text, password: text }, undefined, [], {
          outputSchema: { type: "object", properties: { access_token: text, user_id: text } },
        }),
        tool("get_profile", "Get a user's profile.", { user_id: text }),
      ],
    );
    const { report } = inferred(api, "login");
    expect(report.notes.join(" ")).not.toMatch(/mints a token/);
  });
});
