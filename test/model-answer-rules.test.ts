import { describe, expect, it } from "vitest";
import { Tool } from "../src/catalog/index.js";
import type { Patch } from "../src/patch/index.js";
import {
  checkAnswer,
  contractBreaches,
  contractOf,
  type EffectsResult,
  type ModelAnswer,
  type SimulationRequest,
} from "../src/simulate/index.js";
import { State } from "../src/state/index.js";

/** One test per rule a model's answer is held to before the engine takes it. */

const DOCUMENT = {
  tickets: {
    "TCK-1": { ticket_id: "TCK-1", status: "open", owner: "USR-1" },
    "TCK-2": { ticket_id: "TCK-2", status: "open", owner: "USR-2" },
  },
  users: { "USR-1": { user_id: "USR-1", email: "ana@example.com" } },
  queue: ["TCK-1"],
  runtime: { now: "2026-03-02T09:00:00Z" },
};

function tool(definition: Partial<Parameters<typeof Tool.parse>[0] & object> = {}): Tool {
  return Tool.parse({
    name: "close_ticket",
    description: "Closes a ticket.",
    inputSchema: {
      type: "object",
      properties: { ticket_id: { type: "string" }, note: { type: "string" } },
    },
    outputSchema: {
      type: "object",
      properties: { ticket_id: { type: "string" }, status: { type: "string" } },
      required: ["status"],
    },
    errors: [
      {
        code: "NOT_FOUND",
        status: 404,
        message: "No ticket {ticket_id}.",
        when: "the ticket does not exist",
      },
      { code: "ALREADY_CLOSED", status: 409, message: "Closed already.", when: "the ticket is closed" },
    ],
    ...definition,
  });
}

function request(
  options: { tool?: Tool; args?: Record<string, unknown>; effects?: EffectsResult } = {},
): SimulationRequest {
  return {
    tool: options.tool ?? tool(),
    args: options.args ?? { ticket_id: "TCK-1" },
    state: State.fromDocument(structuredClone(DOCUMENT)),
    effects: options.effects ?? { status: "none" },
    history: [],
    seed: "1",
    now: "2026-03-02T09:00:00Z",
  };
}

const success = (result: Record<string, unknown>, patch: Patch = []): ModelAnswer => ({
  outcome: "success",
  result,
  error: null,
  patch,
});

const applied = (touched: string[], output: Record<string, unknown> = {}): EffectsResult => ({
  status: "applied",
  patch: [],
  output,
  touched,
});

describe("a model's error answer", () => {
  it("takes a documented code with the status the catalog documents", () => {
    const checked = checkAnswer(
      {
        outcome: "error",
        error: { code: "ALREADY_CLOSED", status: 400, message: "It is closed." },
        patch: [],
      },
      request(),
    );
    expect(checked).toEqual({
      ok: true,
      kind: "failure",
      failure: { code: "ALREADY_CLOSED", status: 409, message: "It is closed." },
    });
  });

  it("refuses a code the tool does not document, naming the ones it does", () => {
    const checked = checkAnswer(
      { outcome: "error", error: { code: "TEAPOT", status: 418, message: "No." }, patch: [] },
      request(),
    );
    expect(checked).toEqual({
      ok: false,
      problems: [
        'error code "TEAPOT" is not documented for this tool; use one of NOT_FOUND, ALREADY_CLOSED, or answer with success',
      ],
    });
  });

  it("keeps the model's status for a tool without documented errors when it is an error status, else 400", () => {
    const bare = request({ tool: tool({ errors: [] }) });
    const answer = (status?: number): ModelAnswer => ({
      outcome: "error",
      error: { code: "ANY", status, message: "m" },
      patch: [],
    });
    const statusOf = (status?: number) => {
      const checked = checkAnswer(answer(status), bare);
      return checked.ok && checked.kind === "failure" ? checked.failure.status : undefined;
    };
    expect([statusOf(404), statusOf(400), statusOf(599)]).toEqual([404, 400, 599]);
    expect([statusOf(200), statusOf(399), statusOf(600), statusOf(404.5), statusOf(undefined)]).toEqual([
      400, 400, 400, 400, 400,
    ]);
  });

  it("needs an error object", () => {
    expect(checkAnswer({ outcome: "error", error: null, patch: [] }, request())).toEqual({
      ok: false,
      problems: ['outcome "error" needs an "error" object with code, status and message'],
    });
  });

  it("cannot contradict effects that already decided the call succeeds", () => {
    const checked = checkAnswer(
      { outcome: "error", error: { code: "NOT_FOUND", message: "gone" }, patch: [] },
      request({ effects: applied(["/tickets/TCK-1"]) }),
    );
    expect(checked).toEqual({
      ok: false,
      problems: [
        'the tool\'s declared effects already decided that this call succeeds; answer with outcome "success"',
      ],
    });
  });
});

describe("a model's success answer", () => {
  it("is checked against the output schema, with the effects' values laid over it", () => {
    expect(checkAnswer(success({ ticket_id: "TCK-1" }), request())).toEqual({
      ok: false,
      problems: ["result must have required property 'status'"],
    });
    expect(checkAnswer(success({ ticket_id: 7, status: "closed" }), request())).toEqual({
      ok: false,
      problems: ["result/ticket_id must be string"],
    });
    const effects = applied(["/tickets/TCK-1"], { status: "closed", ticket_id: "TCK-1" });
    expect(
      checkAnswer(success({ ticket_id: "TCK-9", status: "open", extra: 1 }), request({ effects })),
    ).toEqual({
      ok: true,
      kind: "success",
      result: { ticket_id: "TCK-1", status: "closed", extra: 1 },
      patch: [],
    });
  });

  it("without an output schema, any object; a missing result is an empty one", () => {
    const loose = request({ tool: tool({ outputSchema: undefined }) });
    expect(checkAnswer({ outcome: "success", result: null, error: null, patch: [] }, loose)).toEqual({
      ok: true,
      kind: "success",
      result: {},
      patch: [],
    });
  });

  it("may change what the call concerns, and add new entities", () => {
    const patch: Patch = [
      { op: "replace", path: "/tickets/TCK-1/status", value: "closed" },
      { op: "add", path: "/tickets/TCK-9", value: { ticket_id: "TCK-9" } },
      { op: "add", path: "/audit", value: { A1: { ticket: "TCK-1" } } },
      { op: "add", path: "/audit/A2", value: { ticket: "TCK-1" } },
      { op: "test", path: "/tickets/TCK-2/status", value: "open" },
    ];
    expect(checkAnswer(success({ status: "closed" }, patch), request())).toEqual({
      ok: true,
      kind: "success",
      result: { status: "closed" },
      patch,
    });
  });
});

describe("a model's patch", () => {
  const problemsOf = (patch: Patch, effects?: EffectsResult) => {
    const checked = checkAnswer(success({ status: "closed" }, patch), request({ effects }));
    return checked.ok ? [] : checked.problems;
  };

  it("never replaces the whole state", () => {
    expect(problemsOf([{ op: "replace", path: "", value: { tickets: {} } }])).toEqual([
      "patch operation 0 (replace ) replaces the whole state; change entities by their paths instead",
    ]);
  });

  it("leaves the clock to the simulator", () => {
    expect(
      problemsOf([
        { op: "replace", path: "/runtime/now", value: "2030-01-01T00:00:00Z" },
        { op: "remove", path: "/runtime" },
      ]),
    ).toEqual([
      "patch operation 0 (replace /runtime/now) changes the clock, which the simulator keeps",
      "patch operation 1 (remove /runtime) changes the clock, which the simulator keeps",
    ]);
  });

  it("does not overwrite what the declared effects set, below, at or above their paths", () => {
    const effects = applied(["/tickets/TCK-1"]);
    expect(
      problemsOf(
        [
          { op: "replace", path: "/tickets/TCK-1/status", value: "x" },
          { op: "replace", path: "/tickets/TCK-1", value: {} },
          { op: "remove", path: "/tickets" },
          { op: "copy", from: "/tickets/TCK-1", path: "/tickets/TCK-1x" },
        ],
        effects,
      ),
    ).toEqual([
      "patch operation 0 (replace /tickets/TCK-1/status) changes /tickets/TCK-1, which the declared effects already set; leave it as it is",
      "patch operation 1 (replace /tickets/TCK-1) changes /tickets/TCK-1, which the declared effects already set; leave it as it is",
      "patch operation 2 (remove /tickets) changes /tickets/TCK-1, which the declared effects already set; leave it as it is",
      "patch operation 3 (copy /tickets/TCK-1) changes /tickets/TCK-1, which the declared effects already set; leave it as it is",
    ]);
    // a sibling whose name only starts the same is not the effects' own
    expect(problemsOf([{ op: "add", path: "/tickets/TCK-10", value: {} }], effects)).toEqual([]);
  });

  it("must be made of JSON pointers and apply to the state", () => {
    expect(problemsOf([{ op: "add", path: "tickets/TCK-1", value: 1 }])).toEqual([
      'patch operation 0 (add tickets/TCK-1): JSON pointer "tickets/TCK-1" must start with "/"',
    ]);
    expect(problemsOf([{ op: "replace", path: "/tickets/TCK-7/status", value: "x" }])).toEqual([
      'the patch does not apply to the state: operation 0 (replace /tickets/TCK-7/status): path does not exist at "TCK-7"',
    ]);
  });
});

describe("the tool's contract", () => {
  const breaches = (patch: Patch, options: Parameters<typeof request>[0] = {}) =>
    contractBreaches(patch, request(options));

  it("a read-only tool changes nothing: by annotation, or by its name's verb", () => {
    const wipe: Patch = [
      { op: "remove", path: "/tickets/TCK-1" },
      { op: "remove", path: "/users" },
    ];
    const annotated = tool({ name: "close_ticket", annotations: { readOnlyHint: true } });
    expect(breaches(wipe, { tool: annotated })).toEqual([
      "close_ticket is read-only (readOnlyHint), so its patch must be empty; it had 2 change(s), e.g. remove /tickets/TCK-1",
    ]);
    const named = tool({ name: "get_ticket" });
    expect(breaches([{ op: "move", from: "/tickets/TCK-1", path: "/tickets/X" }], { tool: named })).toEqual([
      "get_ticket is read-only (its name starts with a read verb), so its patch must be empty; it had 1 change(s), e.g. move /tickets/TCK-1 → /tickets/X",
    ]);
    // a patch of tests only changes nothing
    expect(breaches([{ op: "test", path: "/tickets/TCK-1/status", value: "open" }], { tool: named })).toEqual(
      [],
    );
    expect(checkAnswer(success({ status: "open" }, wipe), request({ tool: named }))).toMatchObject({
      ok: false,
      breach: true,
    });
  });

  it("a read verb does not make a tool read-only when an annotation or a writing effect says it writes", () => {
    const change: Patch = [{ op: "replace", path: "/tickets/TCK-1/status", value: "seen" }];
    const notReadOnly = tool({ name: "get_ticket", annotations: { readOnlyHint: false } });
    const destructive = tool({ name: "get_ticket", annotations: { destructiveHint: true } });
    const writes = tool({
      name: "get_ticket",
      effects: [{ kind: "update", target: "tickets/{ticket_id}", set: { status: "seen" } }],
    });
    const reads = tool({ name: "close_ticket", effects: [{ kind: "read", target: "tickets/{ticket_id}" }] });
    for (const written of [notReadOnly, destructive, writes, reads])
      expect(contractOf(request({ tool: written })).readOnly).toBeUndefined();
    for (const written of [notReadOnly, destructive, writes])
      expect(breaches(change, { tool: written })).toEqual([]);
    const listing = tool({ name: "fetch_ticket", effects: [{ kind: "list", target: "tickets" }] });
    expect(contractOf(request({ tool: listing })).readOnly).toBe("its name starts with a read verb");
    const looking = tool({ name: "get_ticket", effects: [{ kind: "read", target: "tickets/{ticket_id}" }] });
    expect(contractOf(request({ tool: looking })).readOnly).toBe("its name starts with a read verb");
    expect(breaches(change, { tool: looking })).toHaveLength(1);
  });

  it("a write changes only the entities the call concerns", () => {
    expect(
      breaches([
        { op: "replace", path: "/tickets/TCK-2/status", value: "closed" },
        { op: "remove", path: "/users/USR-1" },
        { op: "replace", path: "/queue/0", value: "TCK-2" },
      ]),
    ).toEqual([
      "replace /tickets/TCK-2/status changes /tickets/TCK-2, which this call does not concern (its arguments do not name it and no declared effect targets it)",
      "remove /users/USR-1 changes /users/USR-1, which this call does not concern (its arguments do not name it and no declared effect targets it)",
      "replace /queue/0 changes /queue/0, which this call does not concern (its arguments do not name it and no declared effect targets it)",
    ]);
  });

  it("the entities a call concerns: named by its arguments anywhere, or targeted by its effects", () => {
    const concerned = (options: Parameters<typeof request>[0]) =>
      [...contractOf(request(options)).concerned].sort();
    expect(concerned({ args: { ticket_id: "TCK-2" } })).toEqual(["/tickets/TCK-2"]);
    // by key in any collection, from lists and nested objects too
    expect(concerned({ args: { refs: ["USR-1", { deep: "TCK-2" }], note: "TCK-1 " } })).toEqual([
      "/tickets/TCK-2",
      "/users/USR-1",
    ]);
    // by an id field, as the offline engine resolves it
    expect(concerned({ args: { user_id: "USR-1" } })).toEqual(["/users/USR-1"]);
    // an index into a top-level array
    expect(concerned({ args: { position: 0 } })).toEqual(["/queue/0"]);
    expect(concerned({ args: { position: 1 } })).toEqual([]);
    // the clock is never an entity a call concerns
    expect(concerned({ args: { key: "now" } })).toEqual([]);
    const targeted = tool({
      effects: [
        { kind: "update", target: "tickets/{ticket_id}", set: { status: "closed" } },
        { kind: "update", target: "counters/closed", inc: { n: 1 } },
        { kind: "update", target: "users/{$owner.user_id}", set: { x: 1 } },
        { kind: "update", target: "tickets/{ticket_id}/history/{note}", set: { x: 1 } },
      ],
    });
    expect(concerned({ tool: targeted, args: { ticket_id: "TCK-9", note: "n1" } })).toEqual([
      "/counters/closed",
      "/tickets/TCK-9",
    ]);
    expect(concerned({ tool: targeted, args: { ticket_id: 12 } })).toEqual([
      "/counters/closed",
      "/tickets/12",
    ]);
    expect(concerned({ tool: targeted, args: { ticket_id: true } })).toEqual(["/counters/closed"]);
    // null and boolean arguments name nothing
    expect(concerned({ args: { ticket_id: "TCK-2", note: null, urgent: true, tags: [null] } })).toEqual([
      "/tickets/TCK-2",
    ]);
  });

  it("an index into a top-level array is concerned as a JSON pointer spells it, and only inside the array", () => {
    const queue = Array.from({ length: 12 }, (_, i) => `TCK-${i}`);
    const state = State.fromDocument({ queue, motd: "closed on Sunday" });
    const concerned = (refs: unknown[]) =>
      [...contractOf({ tool: tool(), args: { refs }, state }).concerned].sort();
    expect(concerned([0, 1, 11, "7"])).toEqual(["/queue/0", "/queue/1", "/queue/11", "/queue/7"]);
    // past the end, signed, padded or trailed: no index of the array
    expect(concerned([12, -1, "-1", "01", "0x1", "1x", "1.5"])).toEqual([]);
  });

  it("never a whole collection: removing, replacing or moving it", () => {
    expect(
      breaches([
        { op: "remove", path: "/tickets" },
        { op: "replace", path: "/users", value: {} },
        { op: "add", path: "/queue", value: [] },
        { op: "move", from: "/users", path: "/people" },
      ]),
    ).toEqual([
      'remove /tickets removes or replaces the whole collection "tickets"',
      'replace /users removes or replaces the whole collection "users"',
      'add /queue removes or replaces the whole collection "queue"',
      'move /users → /people removes or replaces the whole collection "users"',
    ]);
  });

  it("a new collection, and entities added inside it, are the call's own", () => {
    expect(
      breaches([
        { op: "add", path: "/notes", value: {} },
        { op: "add", path: "/notes/N1", value: { text: "x" } },
        { op: "replace", path: "/notes/N1/text", value: "y" },
      ]),
    ).toEqual([]);
    // so are the entities of a collection added whole
    expect(
      breaches([
        { op: "add", path: "/notes", value: { N1: { text: "x" } } },
        { op: "replace", path: "/notes/N1/text", value: "y" },
        { op: "remove", path: "/notes/N1" },
      ]),
    ).toEqual([]);
    // an entity added by the patch may be changed further by it
    expect(
      breaches([
        { op: "add", path: "/tickets/TCK-3", value: { status: "new" } },
        { op: "replace", path: "/tickets/TCK-3/status", value: "open" },
      ]),
    ).toEqual([]);
    // adding over an existing entity, or deeper than an entity, is a change to it
    expect(breaches([{ op: "add", path: "/tickets/TCK-2", value: {} }])).toHaveLength(1);
    expect(breaches([{ op: "add", path: "/tickets/TCK-3/status", value: "x" }])).toHaveLength(1);
    expect(breaches([{ op: "add", path: "/tickets/TCK-3", value: {} }])).toEqual([]);
    expect(breaches([{ op: "copy", from: "/tickets/TCK-1", path: "/tickets/TCK-3" }])).toHaveLength(1);
    // the whole document
    expect(breaches([{ op: "add", path: "", value: {} }])).toEqual(["add  replaces the whole state"]);
  });
});
