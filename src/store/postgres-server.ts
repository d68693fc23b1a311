import { StoreOpenError } from "./shared.js";

/** Where a PostgreSQL URL points, without its password: for messages and the banner. */
export interface ServerAddress {
  host: string;
  port: number;
  user: string;
  database: string;
  /** `postgres://user@host:port/database`: never the password nor the query (which may hold keys). */
  display: string;
}

/** Whether a `--db` value names a PostgreSQL server rather than a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

export function describeServer(url: string): ServerAddress {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // the URL itself is not repeated: it may carry a password
    throw new StoreOpenError(
      "the --db / TOOLSIM_DB value is not a valid PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE); percent-encode special characters in the user name and password (@ is %40, / is %2F)",
    );
  }
  const socketHost = parsed.searchParams.get("host");
  const host = decodeURIComponent(parsed.hostname.replace(/^\[(.+)\]$/, "$1")) || socketHost || "localhost";
  const port = Number(parsed.port || parsed.searchParams.get("port") || 5432);
  const user = decodeURIComponent(parsed.username) || parsed.searchParams.get("user") || "";
  const database = decodeURIComponent(parsed.pathname.slice(1)) || user;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    host,
    port,
    user,
    database,
    display: `${parsed.protocol}//${user ? `${encodeURIComponent(user)}@` : ""}${shownHost}:${port}/${encodeURIComponent(database)}`,
  };
}

/** Why a PostgreSQL server could not be used, naming the server and what to check. */
export function connectFailure(server: ServerAddress, error: unknown): string {
  const at = `PostgreSQL at ${server.host}:${server.port}`;
  const reason = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case "ECONNREFUSED":
      return `cannot connect to ${at}: connection refused. Check that the server is running and listens on that address and port (listen_addresses and port in postgresql.conf), and that --db / TOOLSIM_DB names the right host and port`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `cannot connect to ${at}: the host name "${server.host}" does not resolve; check the host in --db / TOOLSIM_DB`;
    case "ETIMEDOUT":
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `cannot connect to ${at}: no route or no answer (${code}); check that the host is reachable from here (firewall, security group, VPN) and the port is right`;
    case "ECONNRESET":
      return `${at} closed the connection (${reason}); if the server requires TLS, add ?sslmode=verify-full to the URL; otherwise check its log`;
    case "28P01":
      return `${at} refused the password of user "${server.user}"; check the password (in the URL, PGPASSWORD or ~/.pgpass)`;
    case "28000":
      return `${at} refused the connection (${reason}); check that pg_hba.conf admits user "${server.user}" to database "${server.database}" from this address, and whether the server requires TLS (?sslmode=verify-full)`;
    case "3D000":
      return `database "${server.database}" does not exist on ${at}; create it (createdb ${server.database}, or CREATE DATABASE) or name another in the URL`;
    case "57P03":
      return `${at} is starting up or shutting down; try again in a moment`;
    case "53300":
      return `${at} has no free connections (max_connections); lower --pg-pool-size / TOOLSIM_PG_POOL_SIZE or the number of toolsim processes (processes × pool size must stay under max_connections), or raise max_connections on the server`;
    case "42501":
      return `user "${server.user}" lacks a privilege in database "${server.database}" on ${at} (${reason}); toolsim creates its tables on first start, so grant CREATE on the schema or start it once as the database owner`;
  }
  if (
    /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(reason)
  ) {
    return `cannot connect to ${at}: no answer within the connect timeout; check that the host is reachable (firewall, security group, VPN) and the port is right`;
  }
  if (/does not support SSL/i.test(reason)) {
    return `${at} does not accept TLS; remove sslmode from the URL or enable ssl on the server`;
  }
  if (/SSL|TLS|certificate|self.signed/i.test(reason)) {
    return `TLS with ${at} failed (${reason}); check sslmode and sslrootcert in the URL (see docs/scale-out.md)`;
  }
  if (/Connection terminated/i.test(reason)) {
    return `${at} closed the connection (${reason}); check that the server is up and its log`;
  }
  return `${at}: ${reason}`;
}
