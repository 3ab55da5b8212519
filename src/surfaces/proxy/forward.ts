/**
 * Talking to the upstream: which headers go each way (the client's key passes through as sent,
 * and is never stored or logged), where a path goes, and relaying an answer to the client —
 * status, headers and body unchanged, the body chunk by chunk as it arrives.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';

import type { UpstreamAnswer } from './upstream-client.js';

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
  // The body is sent whole, so nothing waits for a 100 Continue; a proxy's credentials are for this hop only.
  'expect',
  'proxy-authorization',
  // The proxy reads streamed answers, so it asks for them uncompressed.
  'accept-encoding',
]);
/** Headers of the upstream's connection (a decompressed body has lost its encoding's headers already). */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The headers for the upstream: the client's, minus hop-by-hop ones and Engram's own. */
export function upstreamHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  // Headers the client named in `Connection` are hop-by-hop too.
  const connection = new Set((incoming.connection ?? '').split(',').map((name) => name.trim().toLowerCase()));
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || NOT_FORWARDED.has(name) || connection.has(name) || name.startsWith('x-engram-')) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The upstream URL for a proxy path: `/v1/chat/completions` under a base such as `http://host/v1`. */
export function upstreamUrl(base: URL, pathAndQuery: string): string {
  const rest = pathAndQuery.replace(/^\/v1(?=\/|\?|$)/, '');
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}${rest}`;
}

/** Writes the upstream's status and headers to the client. */
export function relayHead(answer: UpstreamAnswer, res: ServerResponse, extra: Record<string, string> = {}): void {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(answer.headers)) {
    // No CORS grant of the upstream's reaches a browser: the proxy is for local programs only.
    if (value !== undefined && !NOT_RELAYED.has(name) && !name.startsWith('access-control-')) headers[name] = value;
  }
  res.writeHead(answer.status, { ...headers, ...extra });
}

/** Copies the upstream's body to the client as it arrives, handing each chunk to `onChunk`. */
export async function relayBody(
  answer: UpstreamAnswer,
  res: ServerResponse,
  onChunk?: (chunk: Uint8Array) => void,
): Promise<void> {
  for await (const chunk of answer.body) {
    onChunk?.(chunk as Uint8Array);
    res.write(chunk);
  }
}

/** The whole of the upstream's body. */
export async function readBody(answer: UpstreamAnswer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
