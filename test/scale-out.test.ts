/**
 * Several `toolsim serve --http` processes on one store, as behind a load balancer without
 * session affinity: each session's calls alternate between processes, a write through one
 * and the read of it through another. Nothing may fail, nothing answered may be missing
 * from the log, and no call may be answered on a state older than the calls before it.
 * Run on PostgreSQL and on one SQLite file (the same engine logic serves both).
 */
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalJson } from "../src/patch/index.js";
import { type CallRecord, openStore, type Store } from "../src/store/index.js";
import {
  callMeta,
  connectHttp,
  FIXTURES,
  postgresBackend,
  type RunningServer,
  type StoreDatabase,
  sqliteBackend,
  startHttpServer,
} from "./support/index.js";
import { startRoundRobin } from "./support/round-robin.js";

const LEDGER = join(FIXTURES, "scale", "ledger.json");

interface Answer {
  sessionName: string;
  sessionId: string;
  tool: string;
  args: Record<string, unknown>;
  seq: number;
  result: Record<string, unknown>;
  process: number;
  /** Whether process 0 had already exited (not just been sent SIGKILL) when this answer arrived. */
  afterDeath: boolean;
}

/** The processes, which of them are alive, and one MCP client per session and process. */
class Fleet {
  /** Live processes: a killed one is marked before the signal, so no call is sent to it after. */
  readonly alive: boolean[];
  /** Processes known to have exited. */
  readonly dead: boolean[];
  private readonly clients = new Map<string, Client[]>();

  constructor(readonly servers: RunningServer[]) {
    this.alive = servers.map(() => true);
    this.dead = servers.map(() => false);
  }

  /** Connects every session to every process at once (so they race to create it). */
  async connect(sessions: string[]): Promise<void> {
    await Promise.all(
      sessions.map(async (name) => {
        const clients = await Promise.all(
          this.servers.map((server) => connectHttp(server.url, { "X-Toolsim-Session": name })),
        );
        this.clients.set(name, clients);
      }),
    );
  }

  /** The i-th live process, round robin, other than `avoid` while another is alive. */
  pick(i: number, avoid?: number): number {
    const live = this.alive.flatMap((alive, index) => (alive ? [index] : []));
    const others = live.filter((index) => index !== avoid);
    const chosen = others.length > 0 ? others[i % others.length] : live[i % live.length];
    if (chosen === undefined) throw new Error("no process is alive");
    return chosen;
  }

  async kill(index: number): Promise<void> {
    this.alive[index] = false;
    await this.servers[index]?.stop("SIGKILL");
    this.dead[index] = true;
  }

  /**
   * Calls a tool through a process; a process that was killed fails its calls, which then
   * go to the next live one, as a load balancer would retry them.
   */
  async call(
    sessionName: string,
    start: number,
    tool: string,
    args: Record<string, unknown>,
    avoid?: number,
  ): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const index = this.pick(start + attempt, avoid);
      const client = this.clients.get(sessionName)?.[index];
      if (!client) throw new Error(`no client for ${sessionName} on process ${index}`);
      let result: Awaited<ReturnType<Client["callTool"]>>;
      try {
        result = await client.callTool({ name: tool, arguments: args });
      } catch (error) {
        if (!this.alive[index] && attempt < this.servers.length) continue;
        throw error;
      }
      if (result.isError)
        throw new Error(`${tool} failed on process ${index}: ${JSON.stringify(result.content)}`);
      const meta = callMeta(result);
      return {
        sessionName,
        sessionId: meta.session,
        tool,
        args,
        seq: meta.seq,
        result: result.structuredContent as Record<string, unknown>,
        process: index,
        afterDeath: this.dead[0] === true,
      };
    }
  }

  async close(): Promise<void> {
    for (const clients of this.clients.values()) {
      await Promise.all(clients.map((client) => client.close().catch(() => {})));
    }
    await Promise.all(this.servers.map((server, i) => (this.dead[i] ? undefined : server.stop())));
  }
}

/**
 * Each session, in parallel with the others: `steps` writes, each read back at once through
 * another process. A read that does not show the write it follows fails the run.
 */
async function drive(
  fleet: Fleet,
  sessions: string[],
  steps: number,
  afterEachAnswer: (answered: number) => Promise<void> = async () => {},
): Promise<Answer[]> {
  const answers: Answer[] = [];
  const record = async (answer: Answer) => {
    answers.push(answer);
    await afterEachAnswer(answers.length);
    return answer;
  };
  await Promise.all(
    sessions.map(async (name, s) => {
      for (let step = 0; step < steps; step++) {
        const turn = s + step;
        if (step % 2 === 0) {
          const written = await record(await fleet.call(name, turn, "bump_counter", { by: 1 }));
          const read = await record(await fleet.call(name, turn, "get_counter", {}, written.process));
          expect(read.process).not.toBe(written.process);
          expect(read.result.value).toBe(written.result.value);
        } else {
          const args = { note_id: `N-${step}`, text: `note ${step} of ${name}` };
          const written = await record(await fleet.call(name, turn, "put_note", args));
          const read = await record(
            await fleet.call(name, turn, "get_note", { note_id: args.note_id }, written.process),
          );
          expect(read.process).not.toBe(written.process);
          expect(read.result.text).toBe(args.text);
        }
      }
    }),
  );
  return answers;
}

/**
 * Checks a session's log against what was answered: every answered call is there under its
 * seq; seqs run without gaps; each call ran on the version the previous one left; and each
 * answer agrees with the log before it (no call answered on an older state).
 */
async function checkLog(store: Store, sessionName: string, answers: Answer[]): Promise<CallRecord[]> {
  const [session] = await store.findSessions(sessionName);
  if (!session) throw new Error(`session ${sessionName} is not stored`);
  const log = await store.calls(session.id);
  expect(log.map((call) => call.seq)).toEqual(log.map((_, i) => i + 1));
  for (const [i, call] of log.entries()) {
    expect(call.versionBefore).toBe(i === 0 ? 0 : log[i - 1]?.versionAfter);
    expect(call.status).toBe("ok");
  }
  const bumpsUpTo = (seq: number) =>
    log.filter((call) => call.tool === "bump_counter" && call.seq <= seq).length;
  for (const answer of answers.filter((a) => a.sessionName === sessionName)) {
    expect(answer.sessionId).toBe(session.id);
    const logged = log[answer.seq - 1];
    expect({ tool: logged?.tool, args: canonicalJson(logged?.arguments) }).toEqual({
      tool: answer.tool,
      args: canonicalJson(answer.args),
    });
    if (answer.tool === "bump_counter" || answer.tool === "get_counter") {
      expect({ seq: answer.seq, value: answer.result.value }).toEqual({
        seq: answer.seq,
        value: bumpsUpTo(answer.seq),
      });
    }
  }
  const head = await store.head(session.id);
  expect(head.state.entity("counters", "main")).toMatchObject({ value: bumpsUpTo(Number.POSITIVE_INFINITY) });
  return log;
}

/** A client of the stateless (2026) protocol era: every request stands alone, naming its session. */
async function statelessClient(url: string, session: string): Promise<Client> {
  const client = new Client(
    { name: "toolsim-test", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { "X-Toolsim-Session": session } },
    }),
  );
  return client;
}

async function answered(
  client: Client,
  sessionName: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const result = await client.callTool({ name: tool, arguments: args });
  if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result.content)}`);
  const meta = callMeta(result);
  return {
    sessionName,
    sessionId: meta.session,
    tool,
    args,
    seq: meta.seq,
    result: result.structuredContent as Record<string, unknown>,
    process: -1,
    afterDeath: false,
  };
}

for (const backend of [postgresBackend, sqliteBackend]) {
  const skip = backend.unavailable?.();
  describe.skipIf(skip !== undefined)(`scale-out: serve processes sharing one ${backend.name} store`, () => {
    let database: StoreDatabase;
    let fleet: Fleet | undefined;
    beforeEach(async () => {
      database = await backend.fresh();
    });
    afterEach(async () => {
      await fleet?.close();
      fleet = undefined;
      await database.dispose();
    });

    const start = async (count: number) => {
      const servers = await Promise.all(
        Array.from({ length: count }, () =>
          startHttpServer(["--toolsets", LEDGER, "--db", database.location, "--engine", "offline"]),
        ),
      );
      fleet = new Fleet(servers);
      return fleet;
    };

    it("serves the same sessions call by call from two processes: 0 errors, 0 lost, 0 stale", async () => {
      const processes = await start(2);
      const sessions = Array.from({ length: 6 }, (_, i) => `shared-${i}`);
      await processes.connect(sessions);
      const steps = 16;
      const answers = await drive(processes, sessions, steps);
      expect(answers).toHaveLength(sessions.length * steps * 2);
      // both processes answered every session
      for (const name of sessions) {
        const by = new Set(answers.filter((a) => a.sessionName === name).map((a) => a.process));
        expect([...by].sort()).toEqual([0, 1]);
      }
      const store = await openStore(database.location);
      try {
        for (const name of sessions) {
          const log = await checkLog(store, name, answers);
          // nothing but what was answered
          expect(log).toHaveLength(steps * 2);
        }
      } finally {
        await store.close();
      }
    }, 120_000);

    it("serves stateless clients through a round-robin balancer without affinity: 0 errors, 0 lost, 0 stale", async () => {
      const processes = await start(2);
      const balancer = await startRoundRobin(processes.servers.map((server) => server.url));
      const sessions = Array.from({ length: 4 }, (_, i) => `balanced-${i}`);
      const clients = await Promise.all(sessions.map((name) => statelessClient(balancer.url, name)));
      try {
        expect(clients[0]?.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        const steps = 10;
        const answers = (
          await Promise.all(
            sessions.map(async (name, s) => {
              const client = clients[s] as Client;
              const mine: Answer[] = [];
              for (let step = 0; step < steps; step++) {
                const written = await answered(client, name, "bump_counter", { by: 1 });
                const read = await answered(client, name, "get_counter", {});
                expect([written.result.value, read.result.value]).toEqual([step + 1, step + 1]);
                mine.push(written, read);
              }
              return mine;
            }),
          )
        ).flat();
        // the balancer spread the requests over both processes
        expect(new Set(balancer.routed)).toEqual(new Set([0, 1]));
        const store = await openStore(database.location);
        try {
          for (const name of sessions) expect(await checkLog(store, name, answers)).toHaveLength(steps * 2);
        } finally {
          await store.close();
        }
      } finally {
        await Promise.all(clients.map((client) => client.close().catch(() => {})));
        await balancer.close();
      }
    }, 120_000);

    it("loses no answered call when a process is killed -9 mid-run; its sessions continue on the others", async () => {
      const processes = await start(3);
      const sessions = Array.from({ length: 6 }, (_, i) => `survivor-${i}`);
      await processes.connect(sessions);
      const steps = 16;
      const total = sessions.length * steps * 2;
      let killedAt = -1;
      const answers = await drive(processes, sessions, steps, async (answered) => {
        if (killedAt < 0 && answered >= total / 3) {
          killedAt = answered;
          await processes.kill(0);
        }
      });
      expect(killedAt).toBeGreaterThan(0);
      expect(answers).toHaveLength(total);
      const afterDeath = answers.filter((answer) => answer.afterDeath);
      expect(afterDeath.filter((answer) => answer.process === 0)).toEqual([]);
      // every session went on after the kill, on the other processes
      expect(new Set(afterDeath.map((a) => a.sessionName)).size).toBe(sessions.length);
      const store = await openStore(database.location);
      try {
        for (const name of sessions) {
          const log = await checkLog(store, name, answers);
          // a call in flight when its process died may be recorded unanswered (and then retried): at most one per session
          expect(log.length - steps * 2).toBeGreaterThanOrEqual(0);
          expect(log.length - steps * 2).toBeLessThanOrEqual(1);
        }
      } finally {
        await store.close();
      }
    }, 120_000);
  });
}
