import { describe, expect, it } from "vitest";
import { call, error, failure, inferred, integer, text, tool, world } from "./support/infer-world.js";

/**
 * What inference reads from a tool's own docs: which documented errors say "not found" and of
 * what (by their message, their `when` or their code alone), the arguments that only
 * authenticate a call, argument types however a schema spells them, quoted examples in a
 * description, the hints of read-only and destructive tools, and the usage beside the
 * description.
 */

const boathouse = {
  kayaks: {
    k1: { kayak_id: "k1", color: "red", seats: 1, status: "docked" },
    k2: { kayak_id: "k2", color: "blue", seats: 2, status: "out" },
  },
  paddles: {
    "PD-01": { paddle_id: "PD-01", length: 210 },
    "PD-02": { paddle_id: "PD-02", length: 230 },
  },
  rentals: {
    r1: { rental_id: "r1", kayak_id: "k2", renter: "Noor" },
  },
};

/** A documented not-found error of the other collection, listed first: a wrong noun would pick it. */
const noPaddle = error("PADDLE_NOT_FOUND", "Paddle not found.", "No paddle has the id.", 404);

const getKayak = (...errors: ReturnType<typeof error>[]) =>
  world(boathouse, [tool("get_kayak", "Get a kayak.", { kayak_id: text }, undefined, [noPaddle, ...errors])]);

async function missingKayak(documented: ReturnType<typeof error>) {
  const answered = await call(getKayak(documented), "get_kayak", { kayak_id: "k9" });
  return failure(answered.outcome);
}

describe("a documented error that says nothing has the key", () => {
  it.each([
    ["Kayak not found.", "Check the id."],
    ["The kayak does not exist.", "Check the id."],
    ["That kayak doesn't exist.", "Check the id."],
    ["Kayak could not be found.", "Check the id."],
    ["The kayak cannot be found.", "Check the id."],
    ["A kayak {kayak_id} was not found.", "Check the id."],
    ["{kayakId} not found.", "Check the id."],
    ["{kayak_ids} does not exist.", "Check the id."],
    ["{kayak} not found.", "Check the id."],
    ["Kayak {id} not found.", "Check the id."],
    ["Kayaks {ids} not found.", "Check the ids."],
    ["The  kayak  was  not found.", "Check the id."],
    ["This  kayak  is  not found.", "Check the id."],
    ["That  kayak does not exist.", "Check the id."],
    ["A  kayak could not be found.", "Check the id."],
    ["Error: kayak not found.", "Check the id."],
    ["The  kayak  {kayak_id}  was  not found.", "Check the id."],
    ["{kayak_id}  was  not found.", "Check the id."],
  ])("is read by its message: %s", async (message, when) => {
    expect(await missingKayak(error("E_BOAT", message, when, 404))).toBe("E_BOAT");
  });

  it.each([
    ["NO_SUCH_KAYAK", "No such kayak."],
    ["UNKNOWN_KAYAK", "That id is unknown."],
    ["BAD_KAYAK", "Unknown kayak."],
    ["INVALID_KAYAK", "No kayak matches."],
    ["KAYAK_DOES_NOT_EXIST", "Gone from the dock."],
    ["KAYAK_IS_NOT_FOUND", "Gone from the dock."],
    ["KAYAK_NOT_EXISTS", "Gone from the dock."],
    ["KAYAK_NOT_FOUND_ERROR", "Gone from the dock."],
    ["KAYAK_MISSING", "Missing from the dock."],
    ["KAYAKS_MISSING", "The dock is missing it."],
    ["NONEXISTENT_KAYAK", "Gone from the dock."],
    ["KAYAK_NOT_EXIST", "Gone from the dock."],
    ["UNKNOWN_KAYAK", "Gone from the dock."],
  ])("is read by its code: %s", async (code, message) => {
    expect(await missingKayak(error(code, message, "Check the id.", 404))).toBe(code);
  });

  it.each([
    "No kayak has the given id.",
    "No kayak with that id.",
    "No such kayak is docked here.",
    "No kayak is docked under that id.",
    "Error: no kayak matches the id.",
    "The id names no kayak.",
    "This id matches no kayak.",
  ])("is read by its `when`: %s", async (when) => {
    // a generic code and message: only the `when` says which record is missing
    expect(await missingKayak(error("E_GONE", "Request failed.", when, 404))).toBe("E_GONE");
  });

  it("is read by a code that names its noun, whatever words its message puts before it", async () => {
    const documented = error(
      "KAYAK_NOT_FOUND",
      "No rental kayak {kayak_id}.",
      "The id names no rental kayak.",
      404,
    );
    expect(await missingKayak(documented)).toBe("KAYAK_NOT_FOUND");
  });

  it("is generic where it names no noun, and answers where it is the only one", async () => {
    const w = world(boathouse, [
      tool("get_kayak", "Get a kayak.", { kayak_id: text }, undefined, [
        error("GONE", "Not found.", "Check the id.", 404),
        error("E404", "Missing.", "Check the id.", 404),
      ]),
      tool("get_paddle", "Get a paddle.", { paddle_id: text }, undefined, [
        error("E404", "Missing.", "Check the id.", 404),
      ]),
    ]);
    // two errors that name nothing: neither is taken for a kayak
    expect(failure((await call(w, "get_kayak", { kayak_id: "k9" })).outcome)).toBe("KAYAK_NOT_FOUND");
    expect(failure((await call(w, "get_paddle", { paddle_id: "PD-09" })).outcome)).toBe("E404");
  });

  it("is not an error of another kind that mentions an id", async () => {
    const w = getKayak(
      error("KAYAK_BUSY", "The kayak is already out.", "It cannot be rented twice.", 409),
      error("BAD_INPUT", "Seats must be a number.", "Not allowed.", 400),
    );
    const missing = await call(w, "get_kayak", { kayak_id: "k9" });
    expect(failure(missing.outcome)).toBe("KAYAK_NOT_FOUND");
    expect(missing.tool.errors.map((e) => e.code)).toEqual([
      "PADDLE_NOT_FOUND",
      "KAYAK_BUSY",
      "BAD_INPUT",
      "KAYAK_NOT_FOUND",
    ]);
  });
});

describe("arguments that authenticate a call", () => {
  const rent = (credential: string) =>
    world(boathouse, [
      tool("create_rental", "Rent a kayak.", { [credential]: text, kayak_id: text, renter: text }, [
        credential,
        "kayak_id",
        "renter",
      ]),
    ]);

  it.each([
    "api_key",
    "apiKey",
    "access_token",
    "token",
    "client_secret",
    "password",
    "auth",
    "sessionToken",
  ])("%s is stored nowhere and names no record", async (credential) => {
    const rented = await call(rent(credential), "create_rental", {
      [credential]: "s3cret",
      kayak_id: "k1",
      renter: "Ivo",
    });
    const rentals = rented.after.rentals as Record<string, Record<string, unknown>>;
    const made = Object.values(rentals).find((r) => r.renter === "Ivo");
    expect(made).toEqual({ rental_id: expect.any(String), kayak_id: "k1", renter: "Ivo" });
    expect(JSON.stringify(rented.after)).not.toContain("s3cret");
  });

  it("are told from arguments whose names only contain such a word", async () => {
    const w = world(boathouse, [
      tool("create_rental", "Rent a kayak.", { token_color: text, kayak_id: text, renter: text }),
    ]);
    const rented = await call(w, "create_rental", { token_color: "green", kayak_id: "k1", renter: "Ivo" });
    const rentals = rented.after.rentals as Record<string, Record<string, unknown>>;
    expect(Object.values(rentals).find((r) => r.renter === "Ivo")).toMatchObject({ token_color: "green" });
  });
});

describe("argument types, however the schema spells them", () => {
  it("reads a nullable string key as a string", async () => {
    const w = world(boathouse, [
      tool("get_kayak", "Get a kayak.", { kayak_id: { type: ["null", "string"] } }),
      tool("get_paddle", "Get a paddle.", { paddle_id: { type: ["string", "null"] } }),
    ]);
    expect((await call(w, "get_kayak", { kayak_id: "k2" })).answer).toMatchObject({ color: "blue" });
    expect((await call(w, "get_paddle", { paddle_id: "PD-02" })).answer).toMatchObject({ length: 230 });
  });

  it("takes an argument with properties and no type for an object, which names no record", () => {
    const w = world(boathouse, [
      tool("update_kayak", "Change a kayak.", {
        kayak_id: text,
        details: { properties: { color: text } },
      }),
    ]);
    const { tool: found } = inferred(w, "update_kayak");
    const targets = found.effects.map((e) => ("target" in e ? e.target : undefined));
    expect(targets).toContain("kayaks/{kayak_id}");
    expect(targets.join(" ")).not.toContain("{details}");
  });

  it("reads a list of keys, of records or of numbers by the type of its items", async () => {
    const w = world(boathouse, [
      tool("delete_kayaks", "Delete kayaks.", { kayak_ids: { type: "array", items: text } }),
      tool("delete_paddles", "Delete paddles.", {
        paddles: { type: "array", items: { type: "object", properties: { paddle_id: text } } },
      }),
    ]);
    const gone = await call(w, "delete_kayaks", { kayak_ids: ["k1"] });
    expect(Object.keys(gone.after.kayaks as object)).toEqual(["k2"]);
    const dropped = await call(w, "delete_paddles", { paddles: [{ paddle_id: "PD-01" }] });
    expect(Object.keys(dropped.after.paddles as object)).toEqual(["PD-02"]);
  });

  it("takes only the arguments the schema lists as required for required", async () => {
    const w = world(boathouse, [
      tool(
        "update_kayak",
        "Change a kayak's color or seats.",
        { kayak_id: text, color: text, seats: integer },
        ["kayak_id"],
      ),
    ]);
    const painted = await call(w, "update_kayak", { kayak_id: "k1", color: "green" });
    expect(painted.after.kayaks).toMatchObject({ k1: { color: "green", seats: 1 } });
  });
});

describe("quoted examples in a description", () => {
  const retune = (description: string) =>
    world(boathouse, [
      tool("update_paddle", "Change a paddle's length.", {
        tag_id: { type: "string", description },
        length: integer,
      }),
    ]);

  it.each([
    "The paddle's tag, such as 'PD-07'.",
    'The paddle\'s tag, e.g. "PD-07".',
    "The tag, 'PD-02' or another.",
  ])("name the record whose key they look like: %s", async (description) => {
    const changed = await call(retune(description), "update_paddle", { tag_id: "PD-02", length: 220 });
    expect(changed.after.paddles).toMatchObject({ "PD-02": { length: 220 }, "PD-01": { length: 210 } });
  });

  it.each(["The paddle's tag.", "The paddle's tag, such as 'k1'.", "The paddle's tag, such as ' PD-07'."])(
    "name nothing where they look like no key of it: %s",
    async (description) => {
      const unchanged = await call(retune(description), "update_paddle", { tag_id: "PD-02", length: 220 });
      expect(unchanged.outcome.status).toBe("none");
      expect(unchanged.report.verdict).toBe("not inferred");
    },
  );
});

describe("hints and usage", () => {
  it("reads a tool marked read-only, whatever its verb", async () => {
    const w = world(boathouse, [
      tool("kayak_status", "Where a kayak is.", { kayak_id: text }, undefined, [], {
        annotations: { readOnlyHint: true },
      }),
      tool("book_kayak_check", "Check a kayak.", { kayak_id: text }, undefined, [], {
        annotations: { readOnlyHint: true },
      }),
    ]);
    const read = await call(w, "kayak_status", { kayak_id: "k2" });
    expect(read.answer).toMatchObject({ status: "out" });
    const checked = await call(w, "book_kayak_check", { kayak_id: "k1" });
    expect(checked.after).toEqual(boathouse);
  });

  it("deletes with a tool marked destructive whose verb says nothing", async () => {
    const w = world(boathouse, [
      tool("scrap_kayak", "Take a kayak out of service for good.", { kayak_id: text }, undefined, [], {
        annotations: { destructiveHint: true },
      }),
    ]);
    const scrapped = await call(w, "scrap_kayak", { kayak_id: "k1" });
    expect(Object.keys(scrapped.after.kayaks as object)).toEqual(["k2"]);
  });

  it("reads the usage beside the description", async () => {
    const w = world(boathouse, [
      tool("update_kayak", "Update a kayak.", { kayak_id: text }, undefined, [], {
        usage: "Marks the kayak as 'damaged'.",
      }),
    ]);
    const flagged = await call(w, "update_kayak", { kayak_id: "k1" });
    expect(flagged.after.kayaks).toMatchObject({ k1: { status: "damaged" } });
  });
});

describe("schemas that leave parts out", () => {
  it("lists with a tool whose input schema has no properties", async () => {
    const w = world(boathouse, [
      { name: "list_kayaks", description: "List kayaks.", inputSchema: { type: "object" }, errors: [] },
    ]);
    expect(await call(w, "list_kayaks", {})).toMatchObject({
      answer: [{ kayak_id: "k1" }, { kayak_id: "k2" }],
    });
  });

  it("reads by a key the schema lists no `required` for", async () => {
    const w = world(boathouse, [
      {
        name: "get_kayak",
        description: "Get a kayak.",
        inputSchema: { type: "object", properties: { kayak_id: text } },
        errors: [],
      },
    ]);
    expect((await call(w, "get_kayak", { kayak_id: "k2" })).answer).toMatchObject({ color: "blue" });
  });

  it("answers the record where the output schema names no property", async () => {
    const w = world(boathouse, [
      tool("get_kayak", "Get a kayak.", { kayak_id: text }, undefined, [], {
        outputSchema: { type: "object" },
      }),
    ]);
    expect((await call(w, "get_kayak", { kayak_id: "k1" })).answer).toMatchObject({ color: "red" });
  });
});

describe("an argument that ends like a credential", () => {
  it("is stored as any other", async () => {
    const w = world(boathouse, [
      tool("create_rental", "Rent a kayak.", { raffle_token: text, kayak_id: text, renter: text }),
    ]);
    const rented = await call(w, "create_rental", { raffle_token: "R-17", kayak_id: "k1", renter: "Ivo" });
    const rentals = rented.after.rentals as Record<string, Record<string, unknown>>;
    expect(Object.values(rentals).find((r) => r.renter === "Ivo")).toMatchObject({ raffle_token: "R-17" });
  });
});

describe("the noun of a not-found code beside the noun its sentence names", () => {
  it.each([
    ["NO_SUCH_KAYAK", "The id names no rental."],
    ["KAYAK_DOES_NOT_EXIST", "The id names no rental."],
  ])("is the code's, where the code names one: %s", async (code, when) => {
    expect(await missingKayak(error(code, "Request failed.", when, 404))).toBe(code);
  });

  it("is the sentence's, where the code is a bare NOT_FOUND", async () => {
    expect(await missingKayak(error("NOT_FOUND", "Request failed.", "No kayak has the given id.", 404))).toBe(
      "NOT_FOUND",
    );
  });

  it("is none for a bare NOT_FOUND that names nothing, which answers where it is the only one", async () => {
    const w = world(boathouse, [
      tool("get_paddle", "Get a paddle.", { paddle_id: text }, undefined, [
        error("NOT_FOUND", "Request failed.", "Check the id.", 404),
      ]),
    ]);
    expect(failure((await call(w, "get_paddle", { paddle_id: "PD-09" })).outcome)).toBe("NOT_FOUND");
  });
});

describe("a nullable number", () => {
  it("is a number: a nullable limit cuts a list", async () => {
    const w = world(boathouse, [
      tool("list_kayaks", "List kayaks.", { limit: { type: ["null", "integer"] } }, []),
    ]);
    expect((await call(w, "list_kayaks", { limit: 1 })).answer).toEqual([boathouse.kayaks.k1]);
  });
});

describe("an argument the schema gives no type", () => {
  it("still names a record by its key", async () => {
    const w = world(boathouse, [
      tool("get_kayak", "Get a kayak.", { kayak_id: { description: "The kayak." } }),
    ]);
    expect((await call(w, "get_kayak", { kayak_id: "k2" })).answer).toMatchObject({ color: "blue" });
  });
});
