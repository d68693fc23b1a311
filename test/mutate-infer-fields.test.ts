import { describe, expect, it } from "vitest";
import { bool, call, error, failure, number, type State, text, tool, world } from "./support/infer-world.js";

/**
 * Where an argument lands in a record and which status a change leaves it in
 * (docs/inference.md): the field of the argument's name, at the top or nested; an action's
 * record of its arguments (`cancel_reason`); the status a verb or the description sets,
 * spelled as the state spells its statuses; flags where there is no status; and the statuses
 * a tool requires before it acts.
 */

type Rows = Array<Record<string, unknown>>;

/** A print shop: jobs queued, printing and done, each with a delivery address and its past runs. */
const jobs = (statuses: string[] = ["queued", "printing", "done"]): Rows =>
  statuses.map((status, i) => ({
    job_id: `j${i + 1}`,
    file: `poster-${i + 1}.pdf`,
    status,
    copies: 2,
    address: { city: "Tromsø", zip: "9008" },
    runs: [{ copies: 1, paper: "A3" }],
  }));

const shop = (tools: unknown[], statuses?: string[]) => world({ print_jobs: jobs(statuses) }, tools);
const job = (after: State, i = 0) => (after.print_jobs as Rows)[i] as Record<string, unknown>;

describe("the field an argument sets", () => {
  const update = tool("update_print_job", "Update a print job.", {
    job_id: text,
    copies: number,
    zip: text,
    comment: text,
  });

  it("sets a field of the argument's name, and a nested field its name ends", async () => {
    const { after, report } = await call(shop([update]), "update_print_job", {
      job_id: "j1",
      copies: 5,
      zip: "9010",
      comment: "rush",
    });
    expect(job(after)).toEqual({ ...jobs()[0], copies: 5, address: { city: "Tromsø", zip: "9010" } });
    expect(job(after, 1)).toEqual(jobs()[1]);
    expect(report.notes).toContain("sets copies from copies, address.zip from zip");
    // a plain update keeps no record of itself: what no field takes is only noted
    expect(report.notes).toContain("argument(s) comment set no field of print_jobs");
  });

  it("does not put a text where the record keeps an object of that name, but sets a whole object", async () => {
    const asText = tool("update_print_job", "Update a print job.", { job_id: text, address: text });
    const text_ = await call(shop([asText]), "update_print_job", { job_id: "j1", address: "Storgata 1" });
    expect(job(text_.after)).toEqual(jobs()[0]);
    expect(text_.report.notes).toContain("argument(s) address set no field of print_jobs");
    const asObject = tool("update_print_job", "Update a print job.", {
      job_id: text,
      address: { type: "object", properties: { city: text, zip: text } },
    });
    const whole = await call(shop([asObject]), "update_print_job", {
      job_id: "j1",
      address: { city: "Bodø", zip: "8006" },
    });
    expect(job(whole.after).address).toEqual({ city: "Bodø", zip: "8006" });
  });

  it("sets a list of records to the record's list whose items have their fields", async () => {
    const rerun = tool("update_print_job", "Update a print job's runs.", {
      job_id: text,
      passes: { type: "array", items: { type: "object", properties: { copies: number, paper: text } } },
    });
    const { after } = await call(shop([rerun]), "update_print_job", {
      job_id: "j2",
      passes: [{ copies: 3, paper: "A4" }],
    });
    expect(job(after, 1).runs).toEqual([{ copies: 3, paper: "A4" }]);
    // items with a field the list's records lack are not its items
    const other = tool("update_print_job", "Update a print job's runs.", {
      job_id: text,
      passes: { type: "array", items: { type: "object", properties: { copies: number, ink: text } } },
    });
    const notRuns = await call(shop([other]), "update_print_job", {
      job_id: "j2",
      passes: [{ copies: 3, ink: "k" }],
    });
    expect(job(notRuns.after, 1).runs).toEqual([{ copies: 1, paper: "A3" }]);
  });
});

describe("an action's record of its arguments", () => {
  it("keeps a cancel's reason as `cancel_reason`, and a return's items as `return_items`", async () => {
    const cancel = tool("cancel_print_job", "Cancel a print job.", {
      job_id: text,
      reason: text,
      refund_method: text,
    });
    const cancelled = await call(shop([cancel]), "cancel_print_job", {
      job_id: "j1",
      reason: "wrong file",
      refund_method: "voucher",
    });
    expect(job(cancelled.after)).toEqual({
      ...jobs()[0],
      status: "cancelled",
      cancel_reason: "wrong file",
      cancel_refund_method: "voucher",
    });
    const ret = tool("return_print_job", "Return prints of a job.", {
      job_id: text,
      damaged_print_ids: { type: "array", items: text },
      return_note: text,
    });
    const returned = await call(shop([ret]), "return_print_job", {
      job_id: "j3",
      damaged_print_ids: ["p1", "p2"],
      return_note: "smudged",
    });
    expect(job(returned.after, 2)).toMatchObject({
      return_damaged_prints: ["p1", "p2"],
      return_note: "smudged",
    });
    expect(returned.report.notes).toContain(
      "sets return_damaged_prints from damaged_print_ids, return_note from return_note",
    );
  });
});

describe("the status a change leaves a record in", () => {
  const cancel = tool("cancel_print_job", "Cancel a print job.", { job_id: text });

  it("writes the verb's status as the state writes its statuses", async () => {
    const cases: Array<[string[], string]> = [
      [["queued", "printing"], "cancelled"],
      [["QUEUED", "PRINTING"], "CANCELLED"],
      [["Queued", "Printing"], "Cancelled"],
      [["Queued", "printing"], "cancelled"],
      [["1", "2"], "cancelled"],
    ];
    for (const [statuses, expected] of cases) {
      const { after, report } = await call(shop([cancel], statuses), "cancel_print_job", { job_id: "j1" });
      expect(job(after).status, statuses.join()).toBe(expected);
      expect(report.notes).toContain(`sets status to '${expected}' (the verb "cancel")`);
    }
  });

  it("uses the state's own spelling of the verb's status", async () => {
    const { after, report } = await call(shop([cancel], ["Queued", "Canceled"]), "cancel_print_job", {
      job_id: "j1",
    });
    expect(job(after).status).toBe("Canceled");
    expect(report.notes).toContain(`sets status to 'Canceled' (the verb "cancel" and the state's spelling)`);
  });

  it("uses the spelling another tool's enum of the field offers, the status itself before a step to it", async () => {
    const list = tool("list_print_jobs", "Print jobs in a status.", {
      status: { type: "string", enum: ["queued", "cancel_requested", "canceled"] },
    });
    const { after } = await call(shop([cancel, list]), "cancel_print_job", { job_id: "j1" });
    expect(job(after).status).toBe("canceled");
  });

  it("sets the status the description states, in its several phrasings", async () => {
    const phrasings: Array<[string, string]> = [
      ["The status will be changed to 'on hold'.", "on hold"],
      ["Its status is set to paused_by_staff.", "paused_by_staff"],
      ["The status becomes waiting for paper.", "waiting for paper"],
      ["Marks the print job as 'needs review'.", "needs review"],
    ];
    for (const [description, expected] of phrasings) {
      const suspend = tool("suspend_print_job", `Suspend a print job. ${description}`, { job_id: text });
      const { after, report } = await call(shop([suspend]), "suspend_print_job", { job_id: "j2" });
      expect(job(after, 1).status, description).toBe(expected);
      expect(report.notes).toContain(`sets status to '${expected}' (the description states it)`);
    }
  });

  it("leaves a status by analogy with a sibling that differs only in its verb", async () => {
    const ret = tool("return_print_job", "Return a print job; its status becomes 'return requested'.", {
      job_id: text,
    });
    const exchange = tool("exchange_print_job", "Exchange a print job.", { job_id: text });
    const { after, report } = await call(shop([ret, exchange]), "exchange_print_job", { job_id: "j3" });
    expect(job(after, 2).status).toBe("exchange requested");
    expect(report.notes).toContain(
      "sets status to 'exchange requested' (by analogy with return_print_job ('return requested'))",
    );
    // another noun, or a status that is the bare verb, is no pattern
    const reopen = tool("open_print_job", "Open a print job; its status becomes 'open'.", { job_id: text });
    const otherNoun = tool("return_print_order", "Return an order; its status becomes 'return requested'.", {
      job_id: text,
    });
    const none = await call(shop([reopen, otherNoun, exchange]), "exchange_print_job", { job_id: "j3" });
    expect(job(none.after, 2).status).toBe("done");
  });

  it("leaves the status alone on a plain update, whatever a sibling's action leaves", async () => {
    const ret = tool("return_print_job", "Return a print job; its status becomes 'return requested'.", {
      job_id: text,
    });
    const update = tool("update_print_job", "Update a print job.", { job_id: text, copies: number });
    const { after } = await call(shop([ret, update]), "update_print_job", { job_id: "j1", copies: 9 });
    expect(job(after)).toEqual({ ...jobs()[0], copies: 9 });
  });

  it("takes the status field first, then `state`, then one ending in `_status`", async () => {
    const cancelKiln = tool("cancel_firing", "Cancel a kiln firing.", { firing_id: text });
    const firings = (extra: (i: number) => Record<string, unknown>) =>
      world(
        {
          firings: [0, 1].map((i) => ({ firing_id: `f${i}`, kiln: "big", ...extra(i) })),
        },
        [cancelKiln],
      );
    const both = await call(
      firings((i) => ({ state: ["heating", "cooling"][i], status: ["booked", "booked"][i] })),
      "cancel_firing",
      { firing_id: "f0" },
    );
    expect((both.after.firings as Rows)[0]).toMatchObject({ state: "heating", status: "cancelled" });
    const state = await call(
      firings((i) => ({ state: ["heating", "cooling"][i] })),
      "cancel_firing",
      {
        firing_id: "f0",
      },
    );
    expect((state.after.firings as Rows)[0]).toMatchObject({ state: "cancelled" });
    const suffixed = await call(
      firings((i) => ({
        status_note: ["fragile", "none"][i],
        booking_status: ["booked", "paid"][i],
        glaze_status: ["mixed", "mixed"][i],
      })),
      "cancel_firing",
      { firing_id: "f1" },
    );
    expect((suffixed.after.firings as Rows)[1]).toMatchObject({
      status_note: "none",
      booking_status: "cancelled",
      glaze_status: "mixed",
    });
  });

  it("gives a record without a status field one, from the verb or the description", async () => {
    const loans = world(
      {
        loans: [
          { loan_id: "l1", tool_name: "drill", details: { loan_status: "out" } },
          { loan_id: "l2", tool_name: "saw", details: { loan_status: "out" } },
        ],
      },
      [
        tool("close_loan", "Close a loan.", { loan_id: text }),
        tool("suspend_loan", "Suspend a loan. The status becomes overdue.", { loan_id: text }),
        tool("extend_loan", "Extend a loan.", { loan_id: text, weeks: number }),
      ],
    );
    const closed = await call(loans, "close_loan", { loan_id: "l1" });
    expect((closed.after.loans as Rows)[0]).toEqual({
      loan_id: "l1",
      tool_name: "drill",
      details: { loan_status: "out" },
      status: "closed",
    });
    expect(closed.report.notes).toContain(
      `sets status to 'closed' (the verb "close"; its entities had no status yet)`,
    );
    const suspended = await call(loans, "suspend_loan", { loan_id: "l2" });
    expect((suspended.after.loans as Rows)[1]).toMatchObject({ status: "overdue" });
    // a verb that sets no status sets none
    const extended = await call(loans, "extend_loan", { loan_id: "l2", weeks: 2 });
    expect((extended.after.loans as Rows)[1]).not.toHaveProperty("status");
  });
});

describe("flags where there is no status", () => {
  const people = (flag: string, value: boolean) =>
    [0, 1].map((i) => ({ member_id: `m${i}`, name: ["Ida", "Ola"][i], [flag]: value }));

  it("clears a flag the description says no longer holds, or becomes false", async () => {
    const cases: Array<[string, string]> = [
      ["active", "The member is no longer active."],
      ["is_active", "The member is no longer active."],
      ["active", "Active becomes false."],
      ["is_active", "Afterwards, is_active is set to false."],
    ];
    for (const [flag, description] of cases) {
      const club = world({ members: people(flag, true) }, [
        tool("deactivate_member", `Deactivate a member. ${description}`, { member_id: text }),
      ]);
      const { after, report } = await call(club, "deactivate_member", { member_id: "m1" });
      expect((after.members as Rows)[1], description).toEqual({
        member_id: "m1",
        name: "Ola",
        [flag]: false,
      });
      expect((after.members as Rows)[0]).toMatchObject({ [flag]: true });
      expect(report.notes).toContain(`sets ${flag} to 'false' (the description states it)`);
    }
    const club = world({ members: people("verified", false) }, [
      tool("verify_member", "Verify a member. Verified turns true.", { member_id: text }),
      tool("approve_member", "Approve a member.", { member_id: text }),
    ]);
    const confirmed = await call(
      world({ members: people("verified", false) }, [
        tool("confirm_member", "Confirm a member. Verified turns TRUE.", { member_id: text }),
      ]),
      "confirm_member",
      { member_id: "m0" },
    );
    expect((confirmed.after.members as Rows)[0]).toEqual({ member_id: "m0", name: "Ida", verified: true });
    const approved = await call(club, "approve_member", { member_id: "m0" });
    // a flag the description does not name is not the verb's status
    expect((approved.after.members as Rows)[0]).toMatchObject({ verified: false, status: "approved" });
  });

  it("marks a message read or unread, a task done, by the tool's name", async () => {
    const inbox = world(
      {
        messages: [0, 1].map((i) => ({ message_id: `x${i}`, subject: "Hi", read: i === 1, archived: false })),
        tasks: [0, 1].map((i) => ({ task_id: `t${i}`, title: "Sweep", done: false })),
      },
      [
        tool("mark_message_read", "Mark a message.", { message_id: text }),
        tool("mark_message_unread", "Mark a message.", { message_id: text }),
        tool("markMessageNotread", "Mark a message.", { message_id: text }),
        tool("flag_task_done", "Flag a task.", { task_id: text }),
        tool("mark_message", "Mark a message read or not.", { message_id: text, read: bool }),
      ],
    );
    const read = await call(inbox, "mark_message_read", { message_id: "x0" });
    expect((read.after.messages as Rows)[0]).toMatchObject({ read: true, archived: false });
    expect(read.report.notes).toContain("sets read to 'true' (the name marks it)");
    for (const name of ["mark_message_unread", "markMessageNotread"]) {
      const unread = await call(inbox, name, { message_id: "x1" });
      expect((unread.after.messages as Rows)[1], name).toMatchObject({ read: false });
    }
    const done = await call(inbox, "flag_task_done", { task_id: "t1" });
    expect((done.after.tasks as Rows)[1]).toMatchObject({ done: true });
    // a text of the flag's name is no flag: `true` is not written into it
    const texts = world(
      {
        messages: [
          { message_id: "x0", subject: "Hi", read: "no" },
          { message_id: "x1", subject: "Yo", read: "yes" },
        ],
      },
      [tool("mark_message_read", "Mark a message.", { message_id: text })],
    );
    const asText = await call(texts, "mark_message_read", { message_id: "x0" });
    expect((asText.after.messages as Rows)[0]).toEqual({ message_id: "x0", subject: "Hi", read: "no" });
    // a flag given as an argument is set from it, not from the name
    const given = await call(inbox, "mark_message", { message_id: "x1", read: false });
    expect((given.after.messages as Rows)[1]).toMatchObject({ read: false });
  });
});

describe("the statuses a tool requires", () => {
  const tryOn = async (t: unknown, id: string, statuses?: string[]) => {
    const name = (t as { name: string }).name;
    return call(shop([t], statuses), name, { job_id: id });
  };

  it("requires the status the description says only such records may be in", async () => {
    const approve = tool(
      "approve_print_job",
      "Approve a print job. Only queued print jobs can be approved.",
      {
        job_id: text,
      },
    );
    expect(job((await tryOn(approve, "j1")).after).status).toBe("approved");
    const refused = await tryOn(approve, "j2");
    expect(failure(refused.outcome)).toBe("PRINT_JOB_NOT_QUEUED");
    expect(refused.after.print_jobs).toEqual(jobs());
    expect(refused.report.notes).toContain("requires status in [queued] (PRINT_JOB_NOT_QUEUED)");
  });

  it("requires the status the tool's name names", async () => {
    const approve = tool("approve_queued_print_job", "Approve a print job.", { job_id: text });
    expect(failure((await tryOn(approve, "j3")).outcome)).toBe("PRINT_JOB_NOT_QUEUED");
    // a status of two letters is no word of a name
    const short = tool("approve_ok_print_job", "Approve a print job.", { job_id: text });
    const ok = await tryOn(short, "j2", ["ok", "no"]);
    expect(job(ok.after, 1).status).toBe("approved");
  });

  it("requires what an error says the record must be, with that error", async () => {
    const close = tool("close_print_job", "Close a print job.", { job_id: text }, undefined, [
      error("JOB_NOT_DONE", "The job has not finished."),
    ]);
    expect(failure((await tryOn(close, "j1")).outcome)).toBe("JOB_NOT_DONE");
    expect(job((await tryOn(close, "j3")).after, 2).status).toBe("closed");
    const confirm = tool("confirm_print_job", "Confirm a print job.", { job_id: text }, undefined, [
      error("CANNOT_CONFIRM", "Cannot confirm a non-queued print job."),
    ]);
    expect(failure((await tryOn(confirm, "j2")).outcome)).toBe("CANNOT_CONFIRM");
    const worded = tool("close_print_job", "Close a print job.", { job_id: text }, undefined, [
      error("CLOSE_REFUSED", "The print job is not done."),
    ]);
    expect(failure((await tryOn(worded, "j2")).outcome)).toBe("CLOSE_REFUSED");
  });

  it("refuses the statuses the description says it cannot act on", async () => {
    const archive = tool(
      "archive_print_job",
      "Archive a print job. If the print job is already printing or done, it cannot be archived.",
      { job_id: text },
    );
    expect(job((await tryOn(archive, "j1")).after).status).toBe("archived");
    for (const id of ["j2", "j3"]) {
      const refused = await tryOn(archive, id);
      expect(failure(refused.outcome), id).toBe("PRINT_JOB_ALREADY_PRINTING");
    }
    const resolve = tool(
      "resolve_print_job",
      "Resolve a print job. Printing print jobs cannot be resolved.",
      {
        job_id: text,
      },
    );
    expect(failure((await tryOn(resolve, "j2")).outcome)).toBe("PRINT_JOB_ALREADY_PRINTING");
    expect(job((await tryOn(resolve, "j3")).after, 2).status).toBe("resolved");
    // a documented error that names the status is the one used
    const documented = tool(
      "resolve_print_job",
      "Resolve a print job. Printing print jobs cannot be resolved.",
      { job_id: text },
      undefined,
      [error("BUSY", "The job is printing right now.")],
    );
    expect(failure((await tryOn(documented, "j2")).outcome)).toBe("BUSY");
  });

  it("where a status is both required and refused, only requires", async () => {
    const approve = tool(
      "approve_print_job",
      "Approve a print job. Only queued print jobs can be approved; done print jobs cannot be approved.",
      { job_id: text },
    );
    const { report } = await tryOn(approve, "j1");
    expect(report.notes).toContain("requires status in [queued] (PRINT_JOB_NOT_QUEUED)");
    expect(report.notes.join(" ")).not.toContain("not in");
  });
});

describe("the status a description states, phrase by phrase", () => {
  const suspendWith = async (description: string) => {
    const suspend = tool("suspend_print_job", `Suspend a print job. ${description}`, { job_id: text });
    const { after } = await call(shop([suspend]), "suspend_print_job", { job_id: "j1" });
    return job(after).status;
  };

  it.each([
    [`Its status is changed to "on hold".`, "on hold"],
    ["Its status gets set to 'on hold'.", "on hold"],
    ["The status shall be updated to 'on hold'.", "on hold"],
    ["The status is moved to 'on hold'.", "on hold"],
    ["The job's status gets moved to held_by_staff.", "held_by_staff"],
    ["The status will be updated to on-hold and the printer skips it.", "on-hold"],
    ["Its status becomes 'on hold', and the printer skips it.", "on hold"],
    ["Its status becomes on hold; the printer skips it.", "on hold"],
    ["Its status becomes on hold", "on hold"],
    ["It marks it as 'on hold'.", "on hold"],
    ["Mark them as 'on hold' to skip them.", "on hold"],
  ])("reads %s", async (description, expected) => {
    expect(await suspendWith(description)).toBe(expected);
  });

  it.each([
    ["Status updated to 'on hold'.", "on hold"],
    ["Status set to on_hold.", "on_hold"],
    ["Its status is set to 'on hold '.", "on hold"],
  ])("reads the phrase without its helping verb or with a stray space: %s", async (description, expected) => {
    expect(await suspendWith(description)).toBe(expected);
  });

  // descriptions wrapped across lines (OpenAPI, YAML) or spaced twice read as written once
  it.each([
    "The status  will  be\n  changed  to  'on hold'.",
    "Its status\n  is  set to 'on hold'.",
    "Its status  gets  set to 'on hold'.",
    "The status  shall  be  updated to 'on hold'.",
    "The status  will  be  changed  to  on_hold.",
    "The status\n  is  set to on_hold.",
    "The status gets  moved to on_hold.",
    "Its status  becomes  on_hold.",
    "Marks  the  print job  as  'on_hold'.",
    "Marks  it as 'on_hold'.",
  ])("reads across a line break or a double space: %j", async (description) => {
    expect(await suspendWith(description)).toBe(description.includes("on hold") ? "on hold" : "on_hold");
  });

  it("takes the first phrase that states a status", async () => {
    expect(await suspendWith("The status is set to 'on hold'. Marks the job as 'paused'.")).toBe("on hold");
  });
});

describe("the status a new record starts in", () => {
  const createWith = async (description: string) => {
    const create = tool("create_print_job", `Create a print job. ${description}`, { file: text });
    const { after } = await call(shop([create]), "create_print_job", { file: "flyer.pdf" });
    return (after.print_jobs as Rows).at(-1)?.status;
  };

  it.each([
    ["New print jobs start in status 'held'.", "held"],
    ["A print job starts out as 'held'.", "held"],
    ["Every print job starts in state 'held'.", "held"],
    ["Print jobs are created in status held.", "held"],
    ["The print job is created with state 'held', until staff release it.", "held"],
    ["A new print job is 'held'.", "held"],
    ["New print jobs are 'held'.", "held"],
  ])("reads %s", async (description, expected) => {
    expect(await createWith(description)).toBe(expected);
  });

  it.each([
    ["Each print job starts 'held'.", "held"],
    ["Print jobs are created in status held", "held"],
    ["Each print job starts  out  in  status\n  'held'.", "held"],
    ["Each print job starts  as  state  'held'.", "held"],
    ["Print jobs are  created  in  status  held.", "held"],
    ["A print job is created  with state  'held'.", "held"],
    ["A new  print job  is  'held'.", "held"],
  ])("reads %j, however it is spaced or ended", async (description, expected) => {
    expect(await createWith(description)).toBe(expected);
  });
});

describe("a status by analogy, and where there is none", () => {
  const exchange = tool("exchange_print_job", "Exchange a print job.", { job_id: text });

  it("takes no pattern from a sibling whose status does not name its verb", async () => {
    const ret = tool("return_print_job", "Return a print job; its status becomes 'awaiting pickup'.", {
      job_id: text,
    });
    const { after } = await call(shop([ret, exchange]), "exchange_print_job", { job_id: "j2" });
    expect(job(after, 1).status).toBe("printing");
  });

  it("takes the pattern of the sibling that has one, past siblings without a verb or a status", async () => {
    const noVerb = tool(
      "print_job_overview",
      "Overview of a print job; its status becomes 'overview shown'.",
      {
        job_id: text,
      },
    );
    const silent = tool("return_print_job", "Return a print job.", { job_id: text });
    const refund = tool("refund_print_job", "Refund a print job. Its status becomes 'refund pending'.", {
      job_id: text,
    });
    const { after, report } = await call(shop([noVerb, silent, refund, exchange]), "exchange_print_job", {
      job_id: "j2",
    });
    expect(job(after, 1).status).toBe("exchange pending");
    expect(report.notes).toContain(
      "sets status to 'exchange pending' (by analogy with refund_print_job ('refund pending'))",
    );
  });
});

describe("the statuses a tool requires, however it words them", () => {
  const resumeWith = async (
    description: string,
    statuses?: string[],
    errors: ReturnType<typeof error>[] = [],
  ) => {
    const resume = tool(
      "resume_print_job",
      `Resume a print job. ${description}`,
      { job_id: text },
      undefined,
      errors,
    );
    const tried = async (id: string) => {
      const { outcome, report } = await call(shop([resume], statuses), "resume_print_job", { job_id: id });
      return { code: failure(outcome), notes: report.notes };
    };
    return { j1: await tried("j1"), j2: await tried("j2"), j3: await tried("j3") };
  };

  it("requires a status written with the marks of a pattern, as written", async () => {
    const { j1, j2 } = await resumeWith("Only on-hold (manual) print jobs can be resumed.", [
      "queued",
      "on-hold (manual)",
      "done",
    ]);
    expect(j1.code).toBe("PRINT_JOB_NOT_ON_HOLD_MANUAL");
    expect(j2.code).toBe("not failed: applied");
    expect(j2.notes).toContain("requires status in [on-hold (manual)] (PRINT_JOB_NOT_ON_HOLD_MANUAL)");
    // a status read as a pattern would take `on-hold manual` for it
    const { j2: plain } = await resumeWith("Only on-hold manual print jobs can be resumed.", [
      "queued",
      "on-hold (manual)",
      "done",
    ]);
    expect(plain.code).toBe("not failed: applied");
    expect(plain.notes.join(" ")).not.toContain("requires");
  });

  it("requires a status of several words that the tool's name names", async () => {
    const release = tool("release_on_hold_print_job", "Release a print job.", { job_id: text });
    const tried = async (id: string) =>
      failure(
        (
          await call(shop([release], ["queued", "on hold", "done"]), "release_on_hold_print_job", {
            job_id: id,
          })
        ).outcome,
      );
    expect(await tried("j1")).toBe("PRINT_JOB_NOT_ON_HOLD");
    expect(await tried("j2")).toBe("not failed: applied");
  });

  it("reads `only a …` and `only the …` before the status", async () => {
    for (const said of [
      "Only a printing print job can be resumed.",
      "Only the printing print job resumes.",
    ]) {
      const { j1, j2 } = await resumeWith(said);
      expect(j1.code, said).toBe("PRINT_JOB_NOT_PRINTING");
      expect(j2.code, said).toBe("not failed: applied");
    }
  });

  it("takes from `non-…` in an error only a status the records have", async () => {
    const { j1 } = await resumeWith("", undefined, [
      error("NO_JOB", "Cannot resume a non-existent print job."),
    ]);
    expect(j1.code).toBe("not failed: applied");
  });

  it("refuses the statuses a list before `cannot` names, each way of writing it", async () => {
    for (const said of [
      "If the print job is queued, printing or done, it can't be resumed.",
      "If the print job is queued or printing, it can not be resumed.",
      "If the print job is already queued, it cannot be resumed.",
    ]) {
      const { j1, j3 } = await resumeWith(said);
      expect(j1.code, said).toBe("PRINT_JOB_ALREADY_QUEUED");
      expect(j3.code === "not failed: applied", said).toBe(!said.includes("done"));
    }
  });

  it("refuses the records an error or the description says cannot be acted on", async () => {
    for (const said of ["Done print jobs can't be resumed.", "A done print job may not be resumed."]) {
      const { j3, j1 } = await resumeWith(said);
      expect(j3.code, said).toBe("PRINT_JOB_ALREADY_DONE");
      expect(j1.code, said).toBe("not failed: applied");
    }
    const { j3 } = await resumeWith("", undefined, [error("LOCKED", "Done print jobs can not be resumed.")]);
    expect(j3.code).toBe("LOCKED");
    // "non-done" is no "done"
    const { j3: non } = await resumeWith("Non-done print jobs cannot be resumed.");
    expect(non.code).toBe("not failed: applied");
  });
});
