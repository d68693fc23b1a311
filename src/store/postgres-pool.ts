import { createHash } from "node:crypto";
import pg from "pg";
import { connectFailure, type ServerAddress } from "./postgres-server.js";
import type { Row } from "./rows.js";
import { StoreUnavailableError } from "./shared.js";
import type { StoreHealth } from "./types.js";

export const DEFAULT_POOL_SIZE = 10;

/**
 * Defaults that the URL's own parameters override (`?statement_timeout=…`, `?connect_timeout=…`):
 * a statement or a lock wait that runs this long means something is wrong, and a
 * connection idle inside a transaction (a frozen process) must not hold a session's row
 * lock for ever.
 */
const STATEMENT_TIMEOUT_MS = 15_000;
const IDLE_IN_TRANSACTION_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_CONNECTION_MS = 5_000;
/** What a client that met an outage is told to wait before it sends again. */
export const RETRY_AFTER_SECONDS = 5;
/** After the server refused a connection, the pool grows again by one connection per this long. */
const REGROW_MS = 1_000;
/** A health probe answers within this, whatever the database does. */
const PROBE_MS = 2_000;

export type Queryable = Pick<pg.PoolClient, "query">;

interface Waiter {
  resolve(): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * This process's connections to one PostgreSQL server, and what to do when they fail.
 *
 * Statements take turns for at most `size` connections: a statement that finds them all
 * busy waits in line, up to the connect timeout. When the server itself has no connection
 * to spare (`max_connections`: "too many clients"), the pool shrinks to the connections it
 * holds and the statement waits for one of them, growing back once the server accepts more.
 * A statement that waited past the bound fails with a message naming max_connections and
 * the pool size setting. A server that cannot be reached fails at once, naming the database
 * and when to try again.
 */
export class PostgresPool {
  readonly size: number;
  private readonly pool: pg.Pool;
  private readonly waitMs: number;
  private readonly line: Waiter[] = [];
  private inUse = 0;
  private limit: number;
  /** When the server last refused a connection for want of free ones (0: never), and its words. */
  private refused: { at: number; reason: string } | undefined;
  private lastSuccess = 0;
  private probing: Promise<StoreHealth> | undefined;

  constructor(
    url: string,
    readonly server: ServerAddress,
    size = DEFAULT_POOL_SIZE,
  ) {
    this.size = size;
    this.limit = size;
    // libpq's connect_timeout (seconds) in the URL, which node-postgres itself ignores
    const connectTimeout = Number(new URL(url).searchParams.get("connect_timeout") ?? "");
    this.waitMs = connectTimeout > 0 ? connectTimeout * 1000 : CONNECT_TIMEOUT_MS;
    this.pool = new pg.Pool({
      connectionString: url,
      max: size,
      application_name: "toolsim",
      statement_timeout: STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_MS,
      connectionTimeoutMillis: this.waitMs,
      // a connection idle this long goes back to the server, where other processes may need it
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      keepAlive: true,
    });
    // An idle connection the server closed (restart, failover) is dropped from the pool and
    // replaced on next use; without a listener the error would end the process.
    this.pool.on("error", () => {});
  }

  async end(): Promise<void> {
    for (const waiter of this.line.splice(0)) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error("the store was closed"));
    }
    await this.pool.end().catch(() => {});
  }

  /**
   * One statement on any pooled connection. A connection found lost (the server restarted
   * or failed over since it was opened) is replaced and the statement sent again, unless it
   * must not run twice (`once`): every other statement here reads, or writes the same thing
   * however often it runs. After a restart every idle connection of the pool may be dead,
   * so it may take as many tries as the pool holds connections.
   */
  async rows(text: string, values: unknown[] = [], once = false): Promise<Row[]> {
    const query = prepared(text, values);
    for (let attempt = 1; ; attempt++) {
      const client = await this.acquire();
      let broken: Error | undefined;
      try {
        const result = (await client.query(query)).rows as Row[];
        this.lastSuccess = Date.now();
        return result;
      } catch (error) {
        if (isConnectionError(error)) broken = asError(error);
        if (once || !broken || attempt > this.size) throw this.failure(error, "sent");
      } finally {
        this.release(client, broken);
      }
    }
  }

  /**
   * Runs `work` in one transaction on one connection; any error rolls it back. A connection
   * found lost before the transaction began is replaced; after that nothing is retried here
   * (the engine answers a failed call as failed, and a client may send it again).
   */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.acquire();
      let begun = false;
      let broken: Error | undefined;
      try {
        await client.query("BEGIN");
        begun = true;
        const result = await work(client);
        await client.query("COMMIT");
        this.lastSuccess = Date.now();
        return result;
      } catch (error) {
        if (!begun) {
          broken = asError(error);
          if (attempt <= this.size && isConnectionError(error)) continue;
          throw this.failure(error);
        }
        await client.query("ROLLBACK").catch((rollback: unknown) => {
          // a connection that cannot even roll back is closed rather than reused
          broken = asError(rollback);
        });
        throw this.failure(error, "sent");
      } finally {
        this.release(client, broken);
      }
    }
  }

  /** A connection of its own for `work` (migrations); it goes back to the pool after. */
  async session<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.acquire();
    try {
      return await work(client);
    } finally {
      this.release(client);
    }
  }

  /**
   * Whether the database answers: a statement that succeeded within the last second, with no
   * failure to reach the database since, says so (a busy pool is not probed again); otherwise
   * `SELECT 1`, answered within 2 s either way. Probes that arrive together share one.
   */
  health(): Promise<StoreHealth> {
    if (Date.now() - this.lastSuccess < 1_000) return Promise.resolve(this.state("up"));
    this.probing ??= this.probe().finally(() => {
      this.probing = undefined;
    });
    return this.probing;
  }

  private async probe(): Promise<StoreHealth> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`no answer within ${PROBE_MS / 1000} s`), PROBE_MS);
    });
    try {
      const reason = await Promise.race([
        this.rows("SELECT 1").then(
          () => undefined,
          (error: unknown) => asError(error).message,
        ),
        late,
      ]);
      return reason === undefined ? this.state("up") : this.state("down", reason);
    } finally {
      clearTimeout(timer);
    }
  }

  private state(state: "up" | "down", reason?: string): StoreHealth {
    return {
      backend: "postgres",
      location: this.server.display,
      state,
      ...(reason ? { reason } : {}),
      pool: {
        size: this.size,
        open: this.pool.totalCount,
        idle: this.pool.idleCount,
        inUse: this.inUse,
        waiting: this.line.length,
      },
    };
  }

  // ── taking turns for connections ─────────────────────────────────────────

  private async acquire(): Promise<pg.PoolClient> {
    const deadline = Date.now() + this.waitMs;
    for (let refusals = 0; ; ) {
      await this.turn(deadline);
      try {
        return await this.pool.connect();
      } catch (error) {
        this.leave();
        if (!isTooManyClients(error)) throw this.failure(error);
        // the server has no connection to spare: use the ones this process already holds
        refusals++;
        this.refused = { at: Date.now(), reason: asError(error).message };
        this.limit = Math.max(1, this.pool.totalCount);
        if (Date.now() >= deadline) throw this.exhausted();
        // holding none, ask the server again after a pause (it frees connections as others finish)
        if (this.pool.totalCount === 0) await pause(Math.min(25 * 2 ** refusals, 500, deadline - Date.now()));
      }
    }
  }

  private release(client: pg.PoolClient, broken?: Error): void {
    client.release(broken);
    this.leave();
  }

  /** Resolves once this statement may use a connection (counted in `inUse`); fails past the deadline. */
  private turn(deadline: number): Promise<void> {
    this.regrow();
    if (this.line.length === 0 && this.inUse < this.limit) {
      this.inUse++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        timer: setTimeout(
          () => {
            const index = this.line.indexOf(waiter);
            if (index >= 0) this.line.splice(index, 1);
            reject(this.exhausted());
          },
          Math.max(0, deadline - Date.now()),
        ),
      };
      this.line.push(waiter);
    });
  }

  private leave(): void {
    this.inUse--;
    this.regrow();
    while (this.line.length > 0 && this.inUse < this.limit) {
      const next = this.line.shift() as Waiter;
      clearTimeout(next.timer);
      this.inUse++;
      next.resolve();
    }
  }

  /** Back towards the configured size, one connection per quiet second after a refusal. */
  private regrow(): void {
    if (this.limit >= this.size || !this.refused) return;
    const grown = Math.floor((Date.now() - this.refused.at) / REGROW_MS);
    if (grown > 0) this.limit = Math.min(this.size, Math.max(1, this.pool.totalCount) + grown);
  }

  /** A statement waited for a connection past the bound: why, and the two settings that decide it. */
  private exhausted(): StoreUnavailableError {
    this.lastSuccess = 0;
    const at = `PostgreSQL at ${this.server.host}:${this.server.port}`;
    const waited = `${Math.round(this.waitMs / 100) / 10} s`;
    const settings =
      `--pg-pool-size / TOOLSIM_PG_POOL_SIZE (${this.size} here) × the number of toolsim processes ` +
      "must stay under the server's max_connections";
    const refusedLately = this.refused && Date.now() - this.refused.at < this.waitMs + REGROW_MS;
    const message = refusedLately
      ? `${at} has no free connections (max_connections reached: "${this.refused?.reason}"), and none of the ${this.pool.totalCount} this process holds came free within ${waited}. ${settings}: run fewer processes, give each a smaller pool, or raise max_connections on the server`
      : `all ${this.size} connections of this process to ${at} stayed busy for ${waited} (slow statements or a stuck database). ${settings}: raise --pg-pool-size if the server allows, or check the database`;
    return new StoreUnavailableError(
      `${message} (database ${this.server.display})`,
      this.server.display,
      RETRY_AFTER_SECONDS,
    );
  }

  /**
   * A lost or refused connection becomes a message naming the database; anything else passes
   * through. `sent`: the statement had left, so it may have committed before the connection
   * was lost (`StatementLost`).
   */
  private failure(error: unknown, when: "unsent" | "sent" = "unsent"): unknown {
    if (error instanceof StoreUnavailableError || !isConnectionError(error)) return error;
    this.lastSuccess = 0; // the next health check asks the database
    const Failure = when === "sent" ? StatementLost : StoreUnavailableError;
    return new Failure(
      `the database ${this.server.display} is unavailable: ${connectFailure(this.server, error)}`,
      this.server.display,
      RETRY_AFTER_SECONDS,
      { cause: error },
    );
  }
}

/** The connection was lost after a statement was sent: it may or may not have committed. */
export class StatementLost extends StoreUnavailableError {}

const statementNames = new Map<string, string>();

/**
 * A statement named after its text, so each connection parses and plans it once and
 * afterwards only binds values (node-postgres prepares named statements per connection).
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig {
  let name = statementNames.get(text);
  if (!name) {
    name = `toolsim_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

export async function first(tx: Queryable, text: string, values: unknown[]): Promise<Row> {
  const [row] = (await tx.query(prepared(text, values))).rows as Row[];
  if (!row) throw new Error(`expected a row from: ${text.trim().slice(0, 60)}`);
  return row;
}

function isTooManyClients(error: unknown): boolean {
  // 53300: too_many_connections (max_connections, or a role's or database's connection limit)
  return (error as { code?: unknown } | undefined)?.code === "53300";
}

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (
    typeof code === "string" &&
    /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE)$/.test(code)
  )
    return true;
  // 08: connection exception; 57P01-57P03: the server is shutting down or starting
  if (typeof code === "string" && (/^08/.test(code) || /^57P0[1-3]$/.test(code))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    error.message,
  );
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
