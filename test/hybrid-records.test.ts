import type { CallToolResult } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { fileOpOf, planFileChange, viewOf } from "../src/hybrid/files.js";
import type { Overlay, RecordPut } from "../src/hybrid/overlay.js";
import type { Reality } from "../src/hybrid/reality.js";
import { filteredRead, mergeWhole, planRecordChange } from "../src/hybrid/records.js";

/**
 * The overlay's rules on stores and file systems other than the reference servers': a ticket
 * tracker with links between tickets, and a file server whose move follows mv (into a folder).
 * The real side is a plain value here, asked the way hybrid mode asks a real server.
 */

function realityOf(
  whole: Record<string, unknown>,
  files: Record<string, Record<string, "file" | "folder">> = {},
): Reality {
  return {
    list: async (path) => files[path] ?? null,
    read: async () => null,
    tree: async () => undefined,
    call: async (): Promise<CallToolResult | undefined> => undefined,
    whole: async () => whole,
  };
}

function applied(overlay: Overlay, puts: readonly RecordPut[]): Overlay {
  const next: Overlay = structuredClone(overlay);
  for (const put of puts) {
    const records = next[put.collection] ?? {};
    if (put.record === undefined) delete records[put.key];
    else records[put.key] = put.record;
    next[put.collection] = records;
  }
  return next;
}

const TRACKER = {
  tickets: [
    { id: "T-1", title: "Printer jams", labels: ["hardware"] },
    { id: "T-2", title: "VPN drops", labels: [] },
  ],
  links: [{ from: "T-1", to: "T-2", kind: "blocks" }],
};
const ticketsOutput = {
  type: "object",
  properties: { tickets: { type: "array", items: { type: "object" } } },
};

describe("a store of records in front of a real tracker", () => {
  it("creates only what is not there yet, and answers what it made", async () => {
    const change = await planRecordChange(
      { original: "create_tickets", outputSchema: ticketsOutput },
      "write",
      {
        tickets: [
          { id: "T-3", title: "New laptop", labels: [] },
          { id: "T-1", title: "a duplicate", labels: [] },
        ],
      },
      {},
      realityOf(TRACKER),
    );
    expect(change?.result).toEqual({ tickets: [{ id: "T-3", title: "New laptop", labels: [] }] });
    const merged = mergeWhole(TRACKER, applied({}, change?.puts ?? []));
    expect((merged.tickets as Array<{ id: string }>).map((t) => t.id)).toEqual(["T-1", "T-2", "T-3"]);
  });

  it("items that name a record add to its list field, without duplicates; a missing record is an error", async () => {
    const output = {
      type: "object",
      properties: {
        results: {
          type: "array",
          items: {
            type: "object",
            properties: { ticketId: { type: "string" }, addedLabels: { type: "array" } },
          },
        },
      },
    };
    const added = await planRecordChange(
      { original: "add_labels", outputSchema: output },
      "write",
      { labels: [{ ticketId: "T-1", values: ["urgent", "hardware"] }] },
      {},
      realityOf(TRACKER),
    );
    expect(added?.result).toEqual({ results: [{ ticketId: "T-1", addedLabels: ["urgent"] }] });
    const merged = mergeWhole(TRACKER, applied({}, added?.puts ?? []));
    expect((merged.tickets as unknown[])[0]).toEqual({
      id: "T-1",
      title: "Printer jams",
      labels: ["hardware", "urgent"],
    });
    const missing = await planRecordChange(
      { original: "add_labels", outputSchema: output },
      "write",
      { labels: [{ ticketId: "T-9", values: ["x"] }] },
      {},
      realityOf(TRACKER),
    );
    expect(missing?.failure).toMatchObject({ code: "NOT_FOUND" });
  });

  it("a deletion takes the links that name what it deleted; made again, the record holds none of them", async () => {
    const deleted = await planRecordChange(
      { original: "delete_tickets" },
      "delete",
      { ticketIds: ["T-2"] },
      {},
      realityOf(TRACKER),
    );
    let overlay = applied({}, deleted?.puts ?? []);
    expect(mergeWhole(TRACKER, overlay)).toEqual({ tickets: [TRACKER.tickets[0]], links: [] });
    const again = await planRecordChange(
      { original: "create_tickets", outputSchema: ticketsOutput },
      "write",
      { tickets: [{ id: "T-2", title: "VPN again", labels: [] }] },
      overlay,
      realityOf(TRACKER),
    );
    overlay = applied(overlay, again?.puts ?? []);
    expect(mergeWhole(TRACKER, overlay)).toEqual({
      tickets: [TRACKER.tickets[0], { id: "T-2", title: "VPN again", labels: [] }],
      links: [],
    });
  });

  it("filters a read the way the real read filters, once the real answer confirms it; otherwise not at all", async () => {
    const created = await planRecordChange(
      { original: "create_tickets", outputSchema: ticketsOutput },
      "write",
      { tickets: [{ id: "T-3", title: "Printer toner", labels: [] }] },
      {},
      realityOf(TRACKER),
    );
    const merged = mergeWhole(TRACKER, applied({}, created?.puts ?? []));
    const realSearch = { tickets: [TRACKER.tickets[0]], links: TRACKER.links };
    expect(filteredRead({ text: "printer" }, realSearch, TRACKER, merged)).toEqual({
      tickets: [TRACKER.tickets[0], { id: "T-3", title: "Printer toner", labels: [] }],
      links: TRACKER.links,
    });
    // a real search that matches on something toolsim does not read (a relevance cut): not imitated
    expect(filteredRead({ text: "printer" }, { tickets: [], links: [] }, TRACKER, merged)).toBeUndefined();
  });
});

describe("a file server whose move follows mv", () => {
  const tool = (original: string, description = "") => ({
    original,
    description,
    parameters: ["path", "recursive"],
  });

  it("reads what each call does to the file system from its name, description and arguments", () => {
    expect(fileOpOf("write", tool("append_file"), { path: "/a.txt", text: "x" })).toEqual({
      op: "write",
      path: "/a.txt",
      text: "x",
      append: true,
    });
    expect(fileOpOf("delete", tool("delete_directory"), { path: "/d" })).toMatchObject({
      op: "remove",
      options: { kinds: "folder", emptyOnly: true },
    });
    expect(fileOpOf("delete", tool("delete_directory"), { path: "/d", recursive: true })).toMatchObject({
      options: { emptyOnly: false },
    });
    expect(fileOpOf("write", tool("touch"), { path: "/new" })).toEqual({ op: "touch", path: "/new" });
    expect(
      fileOpOf("write", tool("mkdir", "Creates nested directories as needed."), { path: "/x/y" }),
    ).toEqual({
      op: "mkdir",
      path: "/x/y",
      parents: true,
    });
    expect(
      fileOpOf(
        "move",
        tool("move_file", "Fails if the destination already exists."),
        {},
        { from: "/a", to: "/b" },
      ),
    ).toMatchObject({ options: { into: false, replace: false } });
    expect(fileOpOf("move", tool("mv"), {}, { from: "/a", to: "/b" })).toMatchObject({ options: {} });
    expect(fileOpOf("write", tool("set_owner"), { path: "/a", owner: "bo" })).toBeUndefined();
  });

  it("moves into an existing folder, keeping the name, and a later move finds it there", async () => {
    const files = { "/srv": { "a.txt": "file" as const, docs: "folder" as const }, "/srv/docs": {} };
    const reality = realityOf({}, files);
    const op = fileOpOf("move", tool("mv"), {}, { from: "/srv/a.txt", to: "/srv/docs" });
    if (!op) throw new Error("mv is a move");
    const moved = await planFileChange(op, "mv", {}, reality, "2026-01-01T00:00:00Z");
    expect(moved.failure).toBeUndefined();
    const overlay = applied({}, moved.puts);
    expect(viewOf(overlay)).toEqual({
      "/srv/a.txt": { type: "absent" },
      "/srv/docs/a.txt": { type: "file", real: "/srv/a.txt" },
    });
    const again = await planFileChange(op, "mv", overlay, reality, "2026-01-01T00:01:00Z");
    expect(again.failure).toMatchObject({ code: "NOT_FOUND" });
  });
});
