import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

/**
 * Copies the write-ahead log back into the database file from a worker thread, so a call's
 * commit never pays for it. With SQLite's automatic checkpoint, one commit in a hundred or so
 * copies the last thousand pages and syncs the file before its call is answered; measured on
 * the call path that is about a third of a write's commit. A checkpoint in PASSIVE mode takes
 * no lock a writer waits for, and the log restarts from its beginning once a checkpoint has
 * copied all of it.
 *
 * The worker has its own connection, opened on the same file. If it cannot start or dies,
 * `onFailure` runs and the store turns the automatic checkpoint back on: the log never grows
 * without bound.
 */
export interface Checkpointer {
  stop(): Promise<void>;
}

/** How often the worker copies the log back: often enough that it stays a few megabytes at most. */
const INTERVAL_MS = 100;

// CommonJS, evaluated in the worker: a worker started from a file would need the built file
// next to this one, which a test run from the sources does not have.
const WORKER_SOURCE = `
const { workerData, parentPort } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const timer = setInterval(() => {
  try {
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch (error) {
    // SQLITE_BUSY while another process checkpoints: the next turn tries again
    if (error && error.code !== "SQLITE_BUSY" && error.code !== "SQLITE_LOCKED") throw error;
  }
}, workerData.intervalMs);
parentPort.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

const driverPath = createRequire(import.meta.url).resolve("better-sqlite3");

export function startCheckpointer(file: string, onFailure: (reason: string) => void): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver: driverPath, intervalMs: INTERVAL_MS },
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  worker.on("error", (error) => {
    if (!stopping) onFailure(error instanceof Error ? error.message : String(error));
  });
  worker.on("exit", (code) => {
    if (!stopping && code !== 0) onFailure(`the checkpoint thread exited with code ${code}`);
  });
  // a store left open must not keep the process alive
  worker.unref();
  return {
    async stop() {
      if (stopping) return exited;
      stopping = true;
      // while the store closes, the process waits for the thread: unreferenced, an exit that
      // is all the event loop has left would end the process before the close returns
      worker.ref();
      worker.postMessage("stop");
      const timeout = setTimeout(() => void worker.terminate(), 2000);
      timeout.unref();
      await exited;
      clearTimeout(timeout);
    },
  };
}
