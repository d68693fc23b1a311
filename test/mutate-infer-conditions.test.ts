import { describe, expect, it } from "vitest";
import {
  call,
  error,
  failure,
  integer,
  type State,
  type ToolError,
  tool,
  world,
} from "./support/infer-world.js";

/**
 * Parts of a record in a state (docs/inference.md): a field that takes a few words, or parts
 * kept by name each in one. A documented error that names such a part and one of its states
 * refuses any change of the record in that state ("the lid is open"), or outside it ("the
 * status is not idle"); for parts kept by name, while any of them is in it, or while any is
 * not.
 */

const choice = (...values: string[]) => ({ type: "string", enum: values });

/** An office printer: its status and lid as its API reports them, a map of paper trays, two covers. */
const printer = (changes: State = {}): State => ({
  printer: {
    name: "Second floor",
    status: "idle",
    lid: "CLOSED",
    copies: 1,
    paper_trays: { tray_1: "loaded", tray_2: "loaded", tray_3: "empty" },
    covers: { front: "closed", rear: "closed" },
    ...changes,
  },
});

const status = tool("get_printer", "Read the printer.", {}, [], [], {
  outputSchema: {
    type: "object",
    properties: { status: choice("idle", "printing", "offline"), lid: choice("OPEN", "CLOSED") },
  },
});

/** Setting the number of copies, refused as the errors say. */
const setCopies = (...errors: ToolError[]) =>
  tool("set_copies", "Set how many copies each job prints.", { copies: integer }, ["copies"], errors);

const copiesIn = async (errors: ToolError[], changes: State = {}, more: unknown[] = [status]) => {
  const { outcome, after, report } = await call(
    world(printer(), [...more, setCopies(...errors)]),
    "set_copies",
    { copies: 3 },
    printer(changes),
  );
  return {
    code: outcome.status === "failed" ? failure(outcome) : undefined,
    copies: (after.printer as State).copies,
    notes: report.notes,
  };
};

describe("a field in a state an error names", () => {
  const lidOpen = error("LID_OPEN", "The lid is open.");

  it("refuses a change while the field is in that state, whatever its case, and allows it otherwise", async () => {
    const open = await copiesIn([lidOpen], { lid: "OPEN" });
    expect(open).toMatchObject({ code: "LID_OPEN", copies: 1 });
    expect(open.notes).toContain("refuses while lid has 'OPEN' (LID_OPEN)");
    expect(await copiesIn([lidOpen])).toEqual({ code: undefined, copies: 3, notes: expect.any(Array) });
  });

  it("refuses it while the field is not in a state an error says it must be in", async () => {
    for (const text of [
      "The printer's status is not idle.",
      "The status isn't idle.",
      "The status is not yet idle; wait for the job to finish.",
    ]) {
      const busy = await copiesIn([error("PRINTER_BUSY", text)], { status: "printing" });
      expect(busy.code, text).toBe("PRINTER_BUSY");
      expect(busy.notes, text).toContain("refuses while status is not 'idle' (PRINTER_BUSY)");
      expect((await copiesIn([error("PRINTER_BUSY", text)])).copies, text).toBe(3);
    }
  });

  it("reads the part and the state from the error's code where its message says neither", async () => {
    const coded = error("LID_OPEN", "Close it first.");
    expect((await copiesIn([coded], { lid: "OPEN" })).code).toBe("LID_OPEN");
    expect((await copiesIn([coded])).copies).toBe(3);
  });

  it("knows the states another tool's argument offers", async () => {
    const setLid = tool("set_lid_position", "Raise or lower the lid.", { lid: choice("OPEN", "CLOSED") });
    const { code } = await copiesIn([error("LID_OPEN", "The lid is open.")], { lid: "OPEN" }, [setLid]);
    expect(code).toBe("LID_OPEN");
    // without any tool that offers OPEN, the lid is known only as CLOSED: nothing to refuse
    expect(
      (await copiesIn([error("LID_OPEN", "The lid is open.")], { lid: "OPEN" }, [])).code,
    ).toBeUndefined();
  });

  it("leaves an error that names no state of the part, or a state several parts take, alone", async () => {
    const vague = await copiesIn([error("LID_PROBLEM", "Something is wrong with the lid.")], { lid: "OPEN" });
    expect(vague.code).toBeUndefined();
    const shared = await copiesIn([error("SHUT", "Something is closed.")]);
    expect(shared.code).toBeUndefined();
  });

  it("reads a state word only one part takes as that part's, without its noun", async () => {
    const nameless = error("NOT_READY", "The printer is offline.");
    expect((await copiesIn([nameless], { status: "offline" })).code).toBe("NOT_READY");
    expect((await copiesIn([nameless])).copies).toBe(3);
  });

  it("an error another rule has taken guards only once", async () => {
    // "only … in idle status": the mode rule requires idle; the state rule must not refuse idle too
    const onlyIdle = error("PRINTER_BUSY", "Copies can only be changed in idle status.");
    expect((await copiesIn([onlyIdle])).copies).toBe(3);
    expect((await copiesIn([onlyIdle], { status: "printing" })).code).toBe("PRINTER_BUSY");
  });
});

describe("parts kept by name, each in a state", () => {
  const loaded = { tray_1: "loaded", tray_2: "loaded", tray_3: "loaded" };

  it("refuses while any tray is in the state an error names", async () => {
    const empty = error("TRAY_EMPTY", "A tray is empty.");
    const refused = await copiesIn([empty]);
    expect(refused).toMatchObject({ code: "TRAY_EMPTY", copies: 1 });
    expect(refused.notes).toContain("refuses while paper_trays has 'empty' (TRAY_EMPTY)");
    expect((await copiesIn([empty], { paper_trays: loaded })).copies).toBe(3);
  });

  it("refuses while any tray is not in the state an error says they must be in", async () => {
    const notLoaded = error("TRAYS_NOT_READY", "The trays aren't loaded.");
    const refused = await copiesIn([notLoaded]);
    expect(refused.code).toBe("TRAYS_NOT_READY");
    expect(refused.notes).toContain("refuses while paper_trays is not 'loaded' (TRAYS_NOT_READY)");
    expect((await copiesIn([notLoaded], { paper_trays: loaded })).copies).toBe(3);
  });

  it("refuses by the trays of a printer kept inside another record (an office's)", async () => {
    const office = (trays: State) => ({
      office: { floor: 2, printer: { model: "Laser 5", copies: 1, paper_trays: trays } },
    });
    const empty = error("TRAY_EMPTY", "A tray is empty.");
    const withEmpty = { tray_1: "loaded", tray_2: "empty" };
    const set = tool(
      "set_copies",
      "Set how many copies each job prints.",
      { copies: integer },
      ["copies"],
      [empty],
    );
    const refused = await call(world(office(withEmpty), [set]), "set_copies", { copies: 3 });
    expect(failure(refused.outcome)).toBe("TRAY_EMPTY");
    const fine = await call(world(office(withEmpty), [set]), "set_copies", { copies: 3 }, office(loaded));
    expect(fine.after).toEqual({
      office: { floor: 2, printer: { model: "Laser 5", copies: 3, paper_trays: loaded } },
    });
  });

  it("names the parts of a record by their field names too (the front and rear covers)", async () => {
    const coverOpen = error("COVER_OPEN", "A cover is open.");
    const rearOpen = printer({ covers: { front: "closed", rear: "open" } });
    const copiesOn = async (example: State, state: State) => {
      const { outcome, after } = await call(
        world(example, [status, setCopies(coverOpen)]),
        "set_copies",
        { copies: 3 },
        state,
      );
      return outcome.status === "failed" ? failure(outcome) : (after.printer as State).copies;
    };
    // a state with a cover open shows that "open" is a state of the covers
    expect(await copiesOn(rearOpen, rearOpen)).toBe("COVER_OPEN");
    expect(await copiesOn(rearOpen, printer())).toBe(3);
    // where every cover the state shows is closed, nothing says a cover can be open
    expect(await copiesOn(printer(), rearOpen)).toBe(3);
  });
});
