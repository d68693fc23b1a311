import { describe, expect, it } from "vitest";
import { inferToolset } from "../src/infer/index.js";
import { bool, call, failure, inferred, integer, text, tool, world } from "./support/infer-world.js";

/**
 * Merges and swaps (`src/infer/merges.ts`): a record folded into another of its kind (lists
 * joined, empty fields filled, the other deleted, the kept one answered, a record never merged
 * into itself), and a field the description names exchanged between two records of a kind;
 * each found only where the tool's name names the collection and two required arguments play
 * the two roles.
 */

type Records = Record<string, Record<string, unknown>>;

/** A vet clinic whose front desk registered one client twice. */
const clinic = () => ({
  vets: { V1: { vet_id: "V1", name: "Dr Moss" } },
  clients: {
    C1: { client_id: "C1", name: "Iris Vale", phone: null, pets: ["Biscuit"], address: { city: null } },
    C2: {
      client_id: "C2",
      name: "Iris Vale",
      phone: "555-0101",
      pets: ["Biscuit", "Pepper"],
      address: { city: "Hove" },
    },
    C3: { client_id: "C3", name: "Tor Lind", phone: "555-0199", pets: [], address: { city: "Lewes" } },
  },
});

const mergeClients = tool("merge_clients", "Merge a duplicate client into the primary one.", {
  primary_id: text,
  duplicate_id: text,
});

/** Whether a tool of the world was inferred, without running it. */
const verdictOf = (toolset: ReturnType<typeof world>, name: string) =>
  inferToolset(toolset).report.find((r) => r.tool === name)?.verdict;

describe("a client merged into another", () => {
  const toolset = world(clinic(), [mergeClients]);

  it("joins the pets, fills the empty phone, keeps the primary's address whole, deletes the duplicate and answers the primary", async () => {
    const { after, answer, report } = await call(toolset, "merge_clients", {
      primary_id: "C1",
      duplicate_id: "C2",
    });
    expect(report.verdict).toBe("inferred");
    const kept = {
      client_id: "C1",
      name: "Iris Vale",
      phone: "555-0101",
      pets: ["Biscuit", "Pepper"],
      // the address is one field: the primary's stays as it is, its empty city too
      address: { city: null },
    };
    expect(after.clients).toEqual({ C1: kept, C3: clinic().clients.C3 });
    expect(after.vets).toEqual(clinic().vets);
    expect(answer).toEqual(kept);
  });

  it("says what it does and words the error of a client merged into itself", async () => {
    const { report, tool: merged } = inferred(toolset, "merge_clients");
    expect(report.notes).toContain(
      "merges the client duplicate_id names into the one primary_id names (lists joined, empty fields filled) and deletes it",
    );
    expect(merged.errors).toContainEqual({
      code: "SAME_CLIENT",
      status: 400,
      message: "A client cannot be merged into itself.",
      when: "primary_id and duplicate_id name the same client.",
    });
    const self = await call(toolset, "merge_clients", { primary_id: "C3", duplicate_id: "C3" });
    expect(failure(self.outcome)).toBe("SAME_CLIENT");
    expect(self.after.clients).toEqual(clinic().clients);
  });

  it("refuses a primary or a duplicate that does not exist, and changes nothing", async () => {
    for (const args of [
      { primary_id: "C9", duplicate_id: "C2" },
      { primary_id: "C1", duplicate_id: "C9" },
    ]) {
      const { outcome, after } = await call(toolset, "merge_clients", args);
      expect(failure(outcome)).toBe("CLIENT_NOT_FOUND");
      expect(after.clients).toEqual(clinic().clients);
    }
  });

  it("finds the client collection among others, whichever comes first", async () => {
    // the vets come first in the state: the tool's name names the clients
    const { after } = await call(toolset, "merge_clients", { primary_id: "C3", duplicate_id: "C1" });
    expect(Object.keys(after.clients as Records)).toEqual(["C2", "C3"]);
    expect((after.clients as Records).C3).toMatchObject({ pets: ["Biscuit"], phone: "555-0199" });
  });
});

describe("singers of a choir merged by number, the roles in either order", () => {
  const choir = () => ({
    singers: {
      "7": { number: 7, name: "Ada", voice: null, pieces: ["Ave"] },
      "12": { number: 12, name: "Ada K.", voice: "alto", pieces: ["Gloria", "Ave"] },
    },
  });

  it("merges the one `from` names into the one `into` names, by integer keys", async () => {
    const merge = tool("combine_singers", "Combine two singers' records into one.", {
      from_number: integer,
      into_number: integer,
    });
    const { after, answer } = await call(world(choir(), [merge]), "combine_singers", {
      from_number: 12,
      into_number: 7,
    });
    const kept = { number: 7, name: "Ada", voice: "alto", pieces: ["Ave", "Gloria"] };
    expect(after.singers).toEqual({ "7": kept });
    expect(answer).toEqual(kept);
  });

  it("takes only required arguments of text or integers for the roles", async () => {
    // an optional `source_note` and a boolean `keep_history` play no role
    const merge = tool(
      "merge_singers",
      "Merge two singers.",
      { source_note: text, keep_history: bool, into_number: integer, from_number: integer },
      ["keep_history", "into_number", "from_number"],
    );
    const { after } = await call(world(choir(), [merge]), "merge_singers", {
      keep_history: true,
      into_number: 12,
      from_number: 7,
    });
    expect(after.singers).toEqual({
      "12": { number: 12, name: "Ada K.", voice: "alto", pieces: ["Gloria", "Ave"] },
    });
  });
});

describe("what is no merge", () => {
  it("a merge where one argument plays a role, or one plays both, or nothing names the records", async () => {
    const single = tool("merge_clients", "Merge a client into the primary one.", {
      primary_id: text,
      reason: text,
    });
    expect(verdictOf(world(clinic(), [single]), "merge_clients")).not.toBe("inferred");
    const unknown = tool("merge_invoices", "Merge a duplicate invoice into the primary one.", {
      primary_id: text,
      duplicate_id: text,
    });
    expect(verdictOf(world(clinic(), [unknown]), "merge_invoices")).not.toBe("inferred");
  });

  it("an argument that plays both roles (`merged_into_id`) is not two records", async () => {
    // `merged_into_id` holds both a word of the record that goes and one of the record that stays
    const desk = {
      tickets: {
        T1: { ticket_id: "T1", subject: "VPN down", merged_into_id: null },
        T2: { ticket_id: "T2", subject: "VPN is down", merged_into_id: null },
      },
    };
    const mark = tool("merge_ticket", "Mark a ticket as merged into another.", {
      ticket_id: text,
      merged_into_id: text,
    });
    const { outcome, after } = await call(world(desk, [mark]), "merge_ticket", {
      ticket_id: "T2",
      merged_into_id: "T1",
    });
    // not refused as a ticket merged into itself, and nothing deleted: the ticket marked (the
    // known verb its docs open with) keeps which one it went into
    expect(outcome.status).toBe("applied");
    expect(after.tickets).toEqual({ ...desk.tickets, T2: { ...desk.tickets.T2, merged_into_id: "T1" } });
  });

  it("records with no field that tells them apart: nothing is inferred, not even a part", () => {
    const loose = {
      clients: [
        { phone: null, pets: ["Rex"] },
        { phone: null, pets: [] },
      ],
    };
    const { report } = inferred(world(loose, [mergeClients]), "merge_clients");
    expect(report.verdict).toBe("not inferred");
    expect(report.notes).toContain("the records of clients have no field that tells them apart");
  });
});

/** A marina's berths, each given to one boat. */
const marina = () => ({
  owners: { O1: { owner_id: "O1", name: "Liv" } },
  berths: {
    B1: { berth_id: "B1", boat: "Tern", length: 9, owner_id: "O1" },
    B2: { berth_id: "B2", boat: "Puffin", length: 12, owner_id: "O1" },
  },
});

const swapBerths = tool("swap_berths", "Swap the boats of two berths.", {
  first_berth_id: text,
  second_berth_id: text,
});

describe("the boats of two berths swapped", () => {
  const toolset = world(marina(), [swapBerths]);

  it("exchanges the field the description names and nothing else", async () => {
    const { after, answer, report } = await call(toolset, "swap_berths", {
      first_berth_id: "B1",
      second_berth_id: "B2",
    });
    expect(report.verdict).toBe("inferred");
    expect(after.berths).toEqual({
      B1: { berth_id: "B1", boat: "Puffin", length: 9, owner_id: "O1" },
      B2: { berth_id: "B2", boat: "Tern", length: 12, owner_id: "O1" },
    });
    // each update answers the berth it changed: the second, as it now is, is the answer
    expect(answer).toEqual({ berth_id: "B2", boat: "Tern", length: 12, owner_id: "O1" });
    expect(report.notes).toContain(
      "swaps the boat of the berth first_berth_id names with that of the one second_berth_id names",
    );
  });

  it("refuses either berth missing", async () => {
    for (const args of [
      { first_berth_id: "B9", second_berth_id: "B2" },
      { first_berth_id: "B1", second_berth_id: "B9" },
    ]) {
      const { outcome, after } = await call(toolset, "swap_berths", args);
      expect(failure(outcome)).toBe("BERTH_NOT_FOUND");
      expect(after.berths).toEqual(marina().berths);
    }
  });

  it("is not inferred where the description names no field of the berths", () => {
    const vague = tool("swap_berths", "Swap two berths.", { first_berth_id: text, second_berth_id: text });
    expect(verdictOf(world(marina(), [vague]), "swap_berths")).not.toBe("inferred");
  });
});

describe("which field a swap exchanges", () => {
  it("a field of two words, named in the description", async () => {
    const staff = {
      employees: {
        E1: { employee_id: "E1", name: "Uma", parking_spot: "P4" },
        E2: { employee_id: "E2", name: "Vic", parking_spot: "P9" },
      },
    };
    const swap = tool("swap_employee_spots", "Swap the parking spots of two employees.", {
      first_employee_id: text,
      second_employee_id: text,
    });
    const { after } = await call(world(staff, [swap]), "swap_employee_spots", {
      first_employee_id: "E1",
      second_employee_id: "E2",
    });
    expect(after.employees).toEqual({
      E1: { employee_id: "E1", name: "Uma", parking_spot: "P9" },
      E2: { employee_id: "E2", name: "Vic", parking_spot: "P4" },
    });
  });

  it("never the field that keys the records, though the description names it", async () => {
    const lockers = {
      lockers: {
        "101": { number: "101", renter: "Ines" },
        "102": { number: "102", renter: "Jo" },
      },
    };
    const swap = tool("swap_lockers", "Swap the renters of two lockers, each given by its number.", {
      first_number: text,
      second_number: text,
    });
    const { after } = await call(world(lockers, [swap]), "swap_lockers", {
      first_number: "101",
      second_number: "102",
    });
    expect(after.lockers).toEqual({
      "101": { number: "101", renter: "Jo" },
      "102": { number: "102", renter: "Ines" },
    });
  });

  it("no swap where the records have no field that tells them apart", () => {
    const ferry = {
      cabins: [
        { deck: 2, passenger: "Ole" },
        { deck: 3, passenger: "Kai" },
      ],
    };
    const swap = tool("swap_cabins", "Swap the passengers of two cabins.", {
      first_cabin: integer,
      second_cabin: integer,
    });
    const { report } = inferred(world(ferry, [swap]), "swap_cabins");
    expect(report.verdict).toBe("not inferred");
    expect(report.notes).toContain("the records of cabins have no field that tells them apart");
    // no effect was drafted that the effects format would then reject
    expect(report.gaps).toEqual([]);
  });
});
