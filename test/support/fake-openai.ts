import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A scripted OpenAI-compatible HTTP server for tests and benches. The real `openai`
 * client talks to it over HTTP. Each chat request takes the next scripted step (or the
 * default responder's), so a test can make the "model" answer well, answer badly, fail or
 * stall, and then count what was asked.
 */

export type FakeStep =
  /** A well-formed completion whose content is this value as JSON. */
  | { kind: "json"; value: unknown }
  /** A completion whose content is this text as is (e.g. broken JSON). */
  | { kind: "text"; content: string }
  /** An HTTP error, e.g. 429 (optionally with Retry-After seconds) or 500. */
  | { kind: "status"; status: number; message?: string; retryAfter?: number }
  /** No answer until the client gives up (or until `ms` passes, then the next scripted step answers). */
  | { kind: "stall"; ms?: number }
  /** The model calls tools: a completion whose message carries these tool calls (arguments as objects). */
  | { kind: "tools"; calls: Array<{ name: string; arguments: Record<string, unknown> }> };

export interface RecordedMessage {
  role: string;
  content: string;
  /** Tool calls of an assistant message, as the client sent them back. */
  toolCalls?: Array<{ name: string; arguments: string }>;
}

export interface RecordedRequest {
  path: string;
  /** When it arrived (Date.now()). */
  at: number;
  model?: string;
  messages: RecordedMessage[];
  responseFormat?: { type: string; json_schema?: { name?: string; schema?: unknown } };
  /** The embeddings request's input texts. */
  input?: string[];
  body: Record<string, unknown>;
}

export interface FakeOpenAIOptions {
  /** Answers requests no script step is left for (default: a 500 saying the script ran out). */
  respond?: (request: RecordedRequest) => FakeStep;
  /** Answer 400 to response_format json_schema, like endpoints without structured output. */
  rejectJsonSchema?: boolean;
  /** Dimensions of the embeddings (default 64). */
  dimensions?: number;
  /** Every chat answer waits this long first (ms): a model with a fixed latency (default 0). */
  delayMs?: number;
  /** Where to listen (default 127.0.0.1 on a free port); "::" with a port stands in for a local server. */
  host?: string;
  port?: number;
  /** Keep every request in `requests` (default true); a bench of thousands of requests keeps none. */
  record?: boolean;
}

export interface FakeOpenAI {
  /** Base URL ending in /v1. */
  url: string;
  /** Every request received, in order (chat and embeddings). */
  requests: RecordedRequest[];
  /** Queues steps for the next chat requests. */
  script(...steps: FakeStep[]): void;
  /** Chat requests received so far. */
  chatCount(): number;
  /** The most chat requests that were waiting for their answer at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const requests: RecordedRequest[] = [];
  const queue: FakeStep[] = [];
  const sockets = new Set<Socket>();
  const stalled = new Set<ServerResponse>();
  let inFlight = 0;
  let chats = 0;
  let mostInFlight = 0;

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: "server_error" } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    if (req.method === "GET" && path === "/v1/models") {
      return sendJson(res, 200, {
        object: "list",
        data: [{ id: "fake-model", object: "model", owned_by: "toolsim" }],
      });
    }
    if (req.method !== "POST")
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    if (path === "/v1/embeddings") return embeddings(res, body);
    if (path !== "/v1/chat/completions")
      return sendJson(res, 404, { error: { message: `no route POST ${path}` } });

    const recorded: RecordedRequest = {
      path,
      at: Date.now(),
      model: typeof body.model === "string" ? body.model : undefined,
      messages: (Array.isArray(body.messages) ? body.messages : []).map(recordMessage),
      responseFormat: body.response_format as RecordedRequest["responseFormat"],
      body,
    };
    if (options.record !== false) requests.push(recorded);
    chats++;
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    res.once("close", () => {
      inFlight--;
    });
    if (options.rejectJsonSchema && recorded.responseFormat?.type === "json_schema") {
      return sendJson(res, 400, {
        error: {
          message: "response_format json_schema is not supported by this server",
          type: "invalid_request_error",
        },
      });
    }
    const step = queue.shift() ??
      options.respond?.(recorded) ?? { kind: "status", status: 500, message: "fake script ran out" };
    if (options.delayMs && step.kind !== "stall") await new Promise((r) => setTimeout(r, options.delayMs));
    if (res.destroyed) return;
    await answer(res, step, recorded);
  }

  async function answer(res: ServerResponse, step: FakeStep, request: RecordedRequest): Promise<void> {
    switch (step.kind) {
      case "json":
        return sendCompletion(res, request, JSON.stringify(step.value));
      case "text":
        return sendCompletion(res, request, step.content);
      case "tools":
        return sendCompletion(res, request, null, step.calls);
      case "status": {
        const headers: Record<string, string> = {};
        if (step.retryAfter !== undefined) headers["retry-after"] = String(step.retryAfter);
        return sendJson(
          res,
          step.status,
          { error: { message: step.message ?? `scripted ${step.status}`, type: "server_error" } },
          headers,
        );
      }
      case "stall": {
        stalled.add(res);
        res.on("close", () => stalled.delete(res));
        if (step.ms === undefined) return; // held open until the client aborts or the server closes
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        stalled.delete(res);
        if (res.destroyed) return;
        const next = queue.shift() ?? options.respond?.(request) ?? { kind: "status", status: 500 };
        return answer(res, next, request);
      }
    }
  }

  function embeddings(res: ServerResponse, body: Record<string, unknown>) {
    const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? "")];
    requests.push({
      path: "/v1/embeddings",
      at: Date.now(),
      model: String(body.model ?? ""),
      messages: [],
      input,
      body,
    });
    const dimensions = options.dimensions ?? 64;
    const base64 = body.encoding_format === "base64";
    const data = input.map((text, index) => {
      const vector = bagOfWords(text, dimensions);
      const embedding = base64 ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
      return { object: "embedding", index, embedding };
    });
    const tokens = input.reduce((sum, text) => sum + tokensOf(text), 0);
    sendJson(res, 200, {
      object: "list",
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...steps) => queue.push(...steps),
    chatCount: () => chats,
    maxInFlight: () => mostInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of stalled) res.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

type ScriptedCall = { name: string; arguments: Record<string, unknown> };

function recordMessage(m: { role?: unknown; content?: unknown; tool_calls?: unknown }): RecordedMessage {
  const calls = Array.isArray(m.tool_calls)
    ? (m.tool_calls as Array<{ function?: { name?: string; arguments?: string } }>)
    : [];
  return {
    role: String(m.role),
    content: typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""),
    ...(calls.length
      ? {
          toolCalls: calls.map((c) => ({
            name: String(c.function?.name),
            arguments: String(c.function?.arguments),
          })),
        }
      : {}),
  };
}

/** A chat completion with text or tool calls; as server-sent chunks when the request asked for a stream. */
function sendCompletion(
  res: ServerResponse,
  request: RecordedRequest,
  content: string | null,
  calls: ScriptedCall[] = [],
) {
  const promptTokens = request.messages.reduce((sum, m) => sum + tokensOf(m.content), 0);
  const completionText = content ?? JSON.stringify(calls);
  const id = `chatcmpl-${createHash("sha256").update(completionText).digest("hex").slice(0, 12)}`;
  const toolCalls = calls.map((call, index) => ({
    id: `call_${request.messages.length}_${index}`,
    type: "function",
    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
  }));
  const finishReason = calls.length ? "tool_calls" : "stop";
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: tokensOf(completionText),
    total_tokens: promptTokens + tokensOf(completionText),
  };
  const model = request.model ?? "fake-model";
  if (request.body.stream === true) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const chunk = (
      delta: Record<string, unknown>,
      finish: string | null,
      extra: Record<string, unknown> = {},
    ) =>
      res.write(
        `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created: 0, model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`,
      );
    chunk({ role: "assistant", ...(content !== null ? { content } : {}) }, null);
    if (toolCalls.length) chunk({ tool_calls: toolCalls.map((call, index) => ({ index, ...call })) }, null);
    chunk({}, finishReason, { usage });
    res.end("data: [DONE]\n\n");
    return;
  }
  sendJson(res, 200, {
    id,
    object: "chat.completion",
    created: 0,
    model,
    choices: [
      {
        index: 0,
        finish_reason: finishReason,
        message: { role: "assistant", content, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      },
    ],
    usage,
  });
}

/** Roughly what a tokenizer counts for English and JSON: one token per four characters. */
function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Deterministic vectors where texts sharing words point the same way (enough for similarity tests). */
function bagOfWords(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const slot = createHash("sha256").update(word).digest().readUInt32BE(0) % dimensions;
    vector[slot] = (vector[slot] ?? 0) + 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      text += chunk;
    });
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
