/**
 * A throw-away PostgreSQL server for tests and benchmarks: initdb in a temporary folder,
 * pg_ctl start on a free loopback port with its socket in that folder, stop and remove it
 * after. Run as root, initdb and pg_ctl run as the `postgres` user (they refuse root).
 * Imports nothing of vitest, so bench/ uses it too.
 */
import { execFile, execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import pg from "pg";

export interface PostgresServer {
  host: string;
  port: number;
  /** The postmaster's process id (its backends are its children), for CPU accounting. */
  pid: number;
  /** The superuser's password (the server asks for it over TCP). */
  password: string;
  /** With `tls`: the CA certificate a client verifies the server with (`sslrootcert`). */
  caFile?: string;
  /** A URL of a database on this server (the maintenance database `postgres` by default). */
  url(database?: string): string;
  /** What the server wrote to its log so far. */
  log(): string;
  /** Stops the server as an outage would (its connections are cut), keeping its data and port. */
  pause(): Promise<void>;
  /** Starts it again after `pause`, on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Keep fsync and synchronous commit on, as a production server would (benchmarks); tests turn them off. */
  durable?: boolean;
  maxConnections?: number;
  /** Serve TLS too, with a certificate for 127.0.0.1 and localhost signed by a CA of its own (see `caFile`). */
  tls?: boolean;
}

const SUPERUSER = "postgres";

/**
 * The folder of initdb and pg_ctl: TOOLSIM_PG_BIN, else Debian's (newest version first),
 * else the first on PATH (Homebrew and most other packagings put them there); undefined
 * when PostgreSQL is not installed.
 */
export function postgresBinaries(): string | undefined {
  const explicit = process.env.TOOLSIM_PG_BIN;
  if (explicit) return existsSync(join(explicit, "initdb")) ? explicit : undefined;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(join(root, version, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0] !== undefined) return join(root, versions[0], "bin");
  return (process.env.PATH ?? "")
    .split(delimiter)
    .find((dir) => dir !== "" && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")));
}

/** Why no test server can be started here, or undefined when one can. */
export function postgresUnavailable(): string | undefined {
  if (!postgresBinaries()) {
    const explicit = process.env.TOOLSIM_PG_BIN;
    return explicit
      ? `TOOLSIM_PG_BIN=${explicit} has no initdb`
      : "PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin or on PATH; apt-get install postgresql, or set TOOLSIM_PG_BIN to the folder of initdb and pg_ctl)";
  }
  if (isRoot() && runAsUser() === undefined) {
    return "running as root and there is no `postgres` user to run initdb and pg_ctl as";
  }
  return undefined;
}

export async function startPostgres(options: StartOptions = {}): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const unavailable = postgresUnavailable();
  if (!bin || unavailable) throw new Error(unavailable ?? "PostgreSQL is not installed");
  const dir = mkdtempSync(join(tmpdir(), "toolsim-pg-"));
  const data = join(dir, "data");
  const password = `pw-${randomBytes(9).toString("hex")}`;
  const owner = runAsUser();
  try {
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const pwfile = join(dir, "pwfile");
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (owner) chownSync(pwfile, owner.uid, owner.gid);
    await run(join(bin, "initdb"), [
      "-D",
      data,
      "-U",
      SUPERUSER,
      `--pwfile=${pwfile}`,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
      "--no-instructions",
    ]);
    rmSync(pwfile);
    const caFile = options.tls ? certificates(dir, owner) : undefined;
    const port = await startOnFreePort(bin, dir, data, options);
    const host = "127.0.0.1";
    return {
      host,
      port,
      pid: Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]),
      password,
      ...(caFile ? { caFile } : {}),
      url: (database = "postgres") =>
        `postgres://${SUPERUSER}:${encodeURIComponent(password)}@${host}:${port}/${database}`,
      log: () => readFileSync(join(dir, "server.log"), "utf8"),
      pause: () => run(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]),
      resume: () => startOn(bin, dir, data, port, options),
      stop: async () => {
        await run(join(bin, "pg_ctl"), ["-D", data, "-m", "fast", "-w", "stop"]).catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A new, empty database on the server; `drop` removes it (closing what still connects to it). */
export async function createDatabase(
  serverUrl: string,
  prefix = "toolsim_test",
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function startOnFreePort(
  bin: string,
  dir: string,
  data: string,
  options: StartOptions,
): Promise<number> {
  let lastError: unknown;
  // another process may take the port between choosing and binding it: try a few
  for (let attempt = 0; attempt < 4; attempt++) {
    const port = await freePort();
    try {
      await startOn(bin, dir, data, port, options);
      return port;
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

function startOn(bin: string, dir: string, data: string, port: number, options: StartOptions): Promise<void> {
  const settings = [
    "-c listen_addresses=127.0.0.1",
    `-k ${dir}`,
    ...(options.tls
      ? [
          "-c ssl=on",
          `-c ssl_cert_file=${join(dir, "server.crt")}`,
          `-c ssl_key_file=${join(dir, "server.key")}`,
        ]
      : []),
    `-c max_connections=${options.maxConnections ?? 300}`,
    ...(options.durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ];
  return run(join(bin, "pg_ctl"), [
    "-D",
    data,
    "-l",
    join(dir, "server.log"),
    "-w",
    "-t",
    "60",
    "-o",
    `-p ${port} ${settings.join(" ")}`,
    "start",
  ]);
}

/**
 * A CA and a server certificate it signs, for 127.0.0.1 and localhost, made with openssl in
 * the server's folder; the key is the server's own (PostgreSQL refuses a key others can read).
 * Returns the CA certificate's path.
 */
function certificates(dir: string, owner: { uid: number; gid: number } | undefined): string {
  const at = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=toolsim test CA",
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.crt"),
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    "/CN=localhost",
    "-keyout",
    at("server.key"),
    "-out",
    at("server.csr"),
  );
  writeFileSync(at("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  openssl(
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.crt"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-days",
    "2",
    "-extfile",
    at("server.ext"),
    "-out",
    at("server.crt"),
  );
  chmodSync(at("server.key"), 0o600);
  if (owner) for (const name of ["server.key", "server.crt"]) chownSync(at(name), owner.uid, owner.gid);
  return at("ca.crt");
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** The `postgres` user root runs the server as (undefined when not root, or when it does not exist). */
function runAsUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  try {
    const uid = Number(execFileSync("id", ["-u", SUPERUSER], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", SUPERUSER], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** Runs a PostgreSQL program, as the `postgres` user when this process is root. */
function run(program: string, args: string[]): Promise<void> {
  const [command, commandArgs] = isRoot()
    ? ["runuser", ["-u", SUPERUSER, "--", program, ...args]]
    : [program, args];
  return new Promise((resolveRun, reject) => {
    // in /: the postgres user may not be allowed into the caller's working directory
    execFile(command, commandArgs, { timeout: 120_000, cwd: "/" }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${program} ${args.join(" ")} failed: ${error.message}\n${stdout}${stderr}`));
      else resolveRun();
    });
  });
}
