import { describe, expect, it } from "vitest";
import type { JsonSchema, Tool } from "../src/catalog/index.js";
import { OfflineSimulator } from "../src/simulate/index.js";
import { State } from "../src/state/index.js";

/**
 * A changing tool's free-text confirmation (a `result`, a `message`, a `status` that names no
 * record, the one text field of a text answer) says what the call did, in a sentence made
 * from the tool's name and its arguments, and is reported as guessed.
 */

function tool(
  name: string,
  properties: Record<string, JsonSchema>,
  args: Record<string, JsonSchema> = {},
): Tool {
  return {
    name,
    description: `The ${name.replace(/_/g, " ")} tool.`,
    inputSchema: { type: "object", properties: args },
    outputSchema: { type: "object", properties, required: Object.keys(properties) },
    errors: [],
    effects: [],
  } as Tool;
}

function answer(t: Tool, args: Record<string, unknown>, seed = "s") {
  const outcome = new OfflineSimulator().respondNow({
    tool: t,
    args,
    state: State.fromDocument({}),
    effects: { status: "none" },
    history: [],
    seed,
    now: "2026-03-02T09:00:00Z",
  });
  if (outcome.kind !== "success") throw new Error(`expected a success, got ${outcome.kind}`);
  return { result: outcome.result as Record<string, unknown>, guessed: outcome.guessed ?? [] };
}

const text: JsonSchema = { type: "string" };

describe("confirmations of a change", () => {
  it("a shell command names what it moved and where", () => {
    const mv = tool("mv", { result: text }, { source: text, destination: text });
    const { result, guessed } = answer(mv, { source: "plan.txt", destination: "archive" });
    expect(result.result).toBe("'plan.txt' moved to 'archive' successfully");
    expect(guessed).toContain("result");
  });

  it("a command that stands for a verb and a noun is spelled out", () => {
    const rmdir = tool("rmdir", { result: text }, { dir_name: text });
    expect(answer(rmdir, { dir_name: "old" }).result.result).toBe("Directory 'old' removed successfully");
  });

  it("a status that names no record confirms the change, with the place the name gives", () => {
    const unpin = tool("remove_song_from_playlist", { status: text }, { song_id: text });
    expect(answer(unpin, { song_id: "S-9" }).result.status).toBe(
      "Song 'S-9' removed from playlist successfully",
    );
  });

  it("a record's status is the record's, not a sentence", () => {
    const cancel = tool("cancel_print_job", { job_id: text, status: text }, { job_id: text });
    const { result } = answer(cancel, { job_id: "J-2" });
    expect(result.job_id).toBe("J-2");
    expect(String(result.status)).not.toMatch(/successfully/);
  });

  it("a message to someone names the recipient, and a sign-in names who", () => {
    const send = tool("send_invoice", { message: text }, { invoice_id: text, recipient: text });
    expect(answer(send, { invoice_id: "INV-4", recipient: "ana@example.com" }).result.message).toBe(
      "Invoice 'INV-4' sent to 'ana@example.com' successfully",
    );
    const login = tool("portal_login", { message: text }, { member_id: text });
    expect(answer(login, { member_id: "M7" }).result.message).toBe("Member 'M7' logged in successfully");
  });

  it("an answer made of one text field confirms a write in it", () => {
    const create = tool("create_folder", { content: text }, { path: text });
    expect(answer(create, { path: "/srv/reports" }).result.content).toBe(
      "Folder '/srv/reports' created successfully",
    );
    // the text written is what the call sent, not what the write answers
    const save = tool("write_note", { content: text }, { path: text, content: text });
    expect(answer(save, { path: "/notes/a.md", content: "# plan" }).result.content).toBe(
      "Note '/notes/a.md' written successfully",
    );
  });

  it("a read, an enum and a formatted field keep what the schema says", () => {
    const read = tool("get_thermostat_status", { status: text }, {});
    expect(String(answer(read, {}).result.status)).not.toMatch(/successfully/);
    const toggle = tool("arm_alarm", { status: { type: "string", enum: ["armed", "disarmed"] } }, {});
    expect(["armed", "disarmed"]).toContain(answer(toggle, {}).result.status);
    const stamp = tool("archive_note", { result: { type: "string", format: "date-time" } }, {});
    expect(String(answer(stamp, {}).result.result)).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it("an undoing verb is spelled as the verb undone", () => {
    const untag = tool("untag_photo", { result: text }, { photo_id: text });
    expect(answer(untag, { photo_id: "P-3" }).result.result).toBe("Photo 'P-3' untagged successfully");
    const unpin = tool("unpin_message", { result: text }, { message_id: text });
    expect(answer(unpin, { message_id: "M-1" }).result.result).toBe("Message 'M-1' unpinned successfully");
  });

  it("a long argument is shortened, not copied whole into the answer", () => {
    const touch = tool("touch", { result: text }, { file_name: text });
    const long = "n".repeat(500);
    const said = String(answer(touch, { file_name: long }).result.result);
    expect(said.length).toBeLessThan(250);
    expect(said).toMatch(/^File 'n+\.\.\.' created successfully$/);
  });
});

describe("flags that say a change happened", () => {
  const flag: JsonSchema = { type: "boolean" };

  it("are true for a change, whether named for the outcome, the tool's verb or any change", () => {
    const archive = tool("archive_album", { archived: flag, ok: flag, saved_status: flag, is_created: flag });
    for (const seed of ["a", "b", "c", "d"])
      expect(answer(archive, {}, seed).result).toEqual({
        archived: true,
        ok: true,
        saved_status: true,
        is_created: true,
      });
  });

  it("are not forced on a read, nor on a flag that names something else", () => {
    const read = tool("get_album", { created: flag });
    const seen = new Set(
      ["a", "b", "c", "d", "e", "f", "g", "h"].map((seed) => answer(read, {}, seed).result.created),
    );
    expect(seen).toEqual(new Set([true, false]));
    expect(answer(tool("archive_album", { explicit: flag, public_created: flag }), {}).result).not.toEqual({
      explicit: true,
      public_created: true,
    });
  });
});
