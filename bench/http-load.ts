/**
 * A closed-loop HTTP load generator: `connections` keep-alive connections, each sending its
 * next request as soon as the last one is answered, for a fixed time. Latency is measured per
 * request at the client, from send to the last byte of the answer. Given several servers, the
 * connections are spread over them in turn (connection i to server i mod n), as a load
 * balancer's round robin would.
 */
import http from 'node:http';

/** One request to send: the path and the JSON body. */
export interface LoadRequest {
  path: string;
  body: unknown;
}

/** What one run measured. */
export interface LoadResult {
  connections: number;
  requests: number;
  /** Answers that were not 2xx, and requests that failed outright. */
  errors: number;
  seconds: number;
  perSecond: number;
  latenciesMs: number[];
}

/** How to load a server. */
export interface LoadOptions {
  /** e.g. http://127.0.0.1:7077, or several servers of one database. */
  baseUrl: string | readonly string[];
  connections: number;
  durationMs: number;
  /** The request a connection sends next; `connection` is 0-based, `sequence` counts its requests. */
  next: (connection: number, sequence: number) => LoadRequest;
  headers?: Record<string, string>;
}

/** Runs the load and returns what it measured. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const servers = typeof options.baseUrl === 'string' ? [options.baseUrl] : options.baseUrl;
  const latenciesMs: number[] = [];
  let errors = 0;
  const started = performance.now();
  const end = started + options.durationMs;
  try {
    await Promise.all(
      Array.from({ length: options.connections }, async (_, connection) => {
        for (let sequence = 0; performance.now() < end; sequence++) {
          const request = options.next(connection, sequence);
          const at = performance.now();
          const server = servers[connection % servers.length] as string;
          const status = await post(agent, server, request, options.headers ?? {}).catch(() => 0);
          latenciesMs.push(performance.now() - at);
          if (status < 200 || status >= 300) errors++;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    connections: options.connections,
    requests: latenciesMs.length,
    errors,
    seconds,
    perSecond: latenciesMs.length / seconds,
    latenciesMs,
  };
}

function post(agent: http.Agent, baseUrl: string, request: LoadRequest, headers: Record<string, string>): Promise<number> {
  const body = JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      `${baseUrl}${request.path}`,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}
