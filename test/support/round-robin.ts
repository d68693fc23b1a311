import { createServer, type IncomingMessage, request, type Server } from "node:http";

/**
 * The plainest HTTP load balancer: each request goes to the next upstream in turn, with no
 * affinity of any kind. Requests and responses (server-sent event streams included) are
 * piped through unchanged, but for the Host header, which names the upstream.
 */
export interface RoundRobin {
  url: string;
  /** The upstream index each request went to, in order. */
  routed: number[];
  close(): Promise<void>;
}

export async function startRoundRobin(upstreams: string[], path = "/mcp"): Promise<RoundRobin> {
  const targets = upstreams.map((upstream) => new URL(upstream));
  const routed: number[] = [];
  let next = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const index = next++ % targets.length;
    routed.push(index);
    const target = targets[index] as URL;
    const forwarded = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: target.host },
      },
      (response: IncomingMessage) => {
        outgoing.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(outgoing);
      },
    );
    forwarded.on("error", (error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`upstream ${index} failed: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolveListen) => server.listen(0, "127.0.0.1", resolveListen));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    routed,
    close: () =>
      new Promise((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
