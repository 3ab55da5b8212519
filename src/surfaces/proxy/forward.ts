/**
 * Talking to the upstream: which headers go each way (the client's key passes through as sent,
 * and is never stored or logged), where a path goes, and relaying an answer to the client —
 * status, headers and body unchanged, the body chunk by chunk as it arrives.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/** Headers about this connection, not the request; and ours. */
const NOT_FORWARDED = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  // fetch refuses an Expect header; a proxy's credentials are for this hop only.
  'expect',
  'proxy-authorization',
  // The proxy reads streamed answers, so it asks for them uncompressed.
  'accept-encoding',
]);
/** Headers of the upstream's connection and encoding: fetch has already decoded the body. */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** The headers for the upstream: the client's, minus hop-by-hop ones and Engram's own. */
export function upstreamHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  // Headers the client named in `Connection` are hop-by-hop too.
  const connection = new Set((incoming.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_FORWARDED.has(name) || connection.has(name) || name.startsWith('x-engram-')) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** The upstream URL for a proxy path: `/v1/chat/completions` under a base such as `http://host/v1`. */
export function upstreamUrl(base: URL, pathAndQuery: string): string {
  const rest = pathAndQuery.replace(/^\/v1(?=\/|\?|$)/, '');
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${rest}`;
}

/** Writes the upstream's status and headers to the client. */
export function relayHead(response: Response, res: ServerResponse, extra: Record<string, string> = {}): void {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // No CORS grant of the upstream's reaches a browser: the proxy is for local programs only.
    if (!NOT_RELAYED.has(name) && !name.startsWith('access-control-')) headers[name] = value;
  });
  res.writeHead(response.status, { ...headers, ...extra });
}

/** Copies the upstream's body to the client as it arrives, handing each chunk to `onChunk`. */
export async function relayBody(response: Response, res: ServerResponse, onChunk?: (chunk: Uint8Array) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    onChunk?.(read.value);
    res.write(read.value);
  }
}
