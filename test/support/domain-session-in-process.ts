import { join } from "node:path";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";
import { Catalog, loadToolsets } from "../../src/catalog/index.js";
import { inferLoaded } from "../../src/infer/index.js";
import { createRuntime, type Runtime } from "../../src/runtime/index.js";
import { controlTools } from "../../src/server/index.js";
import { TaskDesk } from "../../src/tasks/index.js";
import {
  type Answer,
  callTool,
  DOMAINS,
  type DomainSession,
  domainHooks,
  type SchemaBreach,
} from "./domain-session.js";
import { tempDir } from "./processes.js";

export * from "./domain-session.js";

// ajv-formats ships CommonJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = addFormatsImport as unknown as typeof addFormatsImport.default;

/**
 * The domain sessions of `domain-session.ts` served in this process: what `toolsim serve --stdio
 * --engine offline` does (load the catalog, infer the effects in memory, serve one session), over
 * the SDK's in-memory transport. Mutation runs (vitest.mutate.config.ts) put it in place of the
 * stdio session, whose child process never loads a mutant of `src/`. Each reset loads and infers
 * the catalog again and opens a new session on it: the inference then runs inside every test
 * that resets, so a mutant of `src/infer/` is tried against every test of the domain, not only
 * the first.
 */
export async function openDomain(file: string): Promise<DomainSession> {
  const path = join(DOMAINS, file);
  const breaches: SchemaBreach[] = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  // compiled once per schema text: compiling every schema again at each reset would cost more
  // than the rest of the reset together
  const compiled = new Map<string, ValidateFunction>();
  const dir = tempDir("toolsim-domain-");
  let runtime: Runtime | undefined;
  let served: Served | undefined;

  /** A fresh session of the catalog as loaded and inferred again now, with a client of its own. */
  async function reset(): Promise<void> {
    await served?.client.close();
    const catalog = inferredCatalog(path);
    if (runtime) runtime.engine.replaceCatalog(catalog);
    else {
      runtime = await createRuntime({ catalog, db: join(dir.path, "toolsim.db"), seed: "0", pageSize: 500 });
      // `serve` offers the control tools too, and tests read the session's state through them
      runtime.hub.use(controlTools(new TaskDesk({ engine: runtime.engine, store: runtime.store })));
    }
    const session = await runtime.engine.openSession({ tenant: "" });
    const server = runtime.hub.createServer(session.id);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "toolsim-test", version: "1.0.0" });
    await client.connect(clientSide);
    const validators = new Map<string, ValidateFunction>();
    const { tools } = await client.listTools();
    for (const tool of tools) {
      if (!tool.outputSchema) continue;
      const text = JSON.stringify(tool.outputSchema);
      const validate = compiled.get(text) ?? ajv.compile(tool.outputSchema);
      compiled.set(text, validate);
      validators.set(tool.name, validate);
    }
    served = { client, validators };
  }

  async function call(name: string, args: Record<string, unknown> = {}): Promise<Answer> {
    if (!served) await reset();
    const { client, validators } = served as Served;
    return callTool(
      { client, validators, breaches, errorsText: (v) => ajv.errorsText(v.errors) },
      name,
      args,
    );
  }

  return {
    get client(): Client {
      if (!served) throw new Error("the in-process domain session is not started: call reset() first");
      return served.client;
    },
    call,
    reset,
    breaches,
    stderr: () => "",
    async close() {
      await served?.client.close();
      served = undefined;
      await runtime?.close();
      dir.cleanup();
    },
  };
}

interface Served {
  client: Client;
  validators: Map<string, ValidateFunction>;
}

/** The catalog file loaded and its effects inferred in memory, as `serve` does by default. */
function inferredCatalog(path: string): Catalog {
  const loaded = loadToolsets([path]);
  const errors = loaded.problems.filter((p) => p.severity === "error");
  if (errors.length > 0) throw new Error(`${path} has errors: ${JSON.stringify(errors, null, 2)}`);
  return new Catalog(inferLoaded(loaded.toolsets).loaded);
}

/** The in-process session of a test file, as `useDomain` of domain-session.ts opens the stdio one. */
export const useDomain = domainHooks(openDomain);
