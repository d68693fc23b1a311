/**
 * The scripted model of the runs bench in a process of its own, as a real model is: it
 * works the bench toolset's tasks (test/support/task-player.ts), answering each request
 * after `--delay` ms, and prints "MODEL URL <url>" when it listens.
 *
 *   node dist-bench/bench/model-server.js --toolset FILE --delay 50
 */
import { parseArgs } from "node:util";
import { Catalog, loadToolsets } from "../src/catalog/index.js";
import { startFakeOpenAI } from "../test/support/fake-openai.js";
import { taskPlayer } from "../test/support/task-player.js";

const { values } = parseArgs({
  options: { toolset: { type: "string" }, delay: { type: "string", default: "0" } },
  strict: true,
});
const catalog = new Catalog(loadToolsets([values.toolset ?? ""]).toolsets);
const model = await startFakeOpenAI({
  delayMs: Number(values.delay),
  respond: taskPlayer(catalog.allTasks().map((t) => t.task)),
  record: false,
});
process.stdout.write(`MODEL URL ${model.url}\n`);
process.on("SIGTERM", () => {
  void model.close().then(() => process.exit(0));
});
