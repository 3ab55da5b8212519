/**
 * Requests held open at a known point, for tests that stop a server while they are under way:
 * one whose headers the server has read and begun (its body is still to come), and one of
 * which only the first header lines have arrived. Plain node:http and node:net, since fetch()
 * can send neither.
 */
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';

import type { JsonReply } from './helpers.js';

/** A request held open; `finish` sends the rest and resolves with the reply. */
export interface HeldRequest {
  finish(): Promise<JsonReply>;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * Sends the headers of a JSON request with `Expect: 100-continue` and resolves once the server
 * answers "100 Continue". Node's server sends that just before it hands the request to the
 * application, in the same turn of its event loop, so by then the request has begun there:
 * a signal sent afterwards is handled after it.
 */
export async function holdAfterHeaders(base: string, method: string, path: string, body: unknown): Promise<HeldRequest> {
  const payload = JSON.stringify(body);
  const request = http.request(`${base}${path}`, {
    method,
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(payload)),
      expect: '100-continue',
    },
  });
  const response = once(request, 'response') as Promise<[http.IncomingMessage]>;
  request.flushHeaders();
  await once(request, 'continue');
  return {
    async finish() {
      request.end(payload);
      const [incoming] = await response;
      let text = '';
      for await (const chunk of incoming.setEncoding('utf8')) text += chunk as string;
      return { status: incoming.statusCode ?? 0, body: parseJson(text), headers: new Headers() };
    },
  };
}

/** Decodes a body sent with `Transfer-Encoding: chunked`. */
function unchunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const newline = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, newline), 16);
    if (!(size > 0)) return out;
    out += rest.slice(newline + 2, newline + 2 + size);
    rest = rest.slice(newline + 2 + size + 2);
  }
}

/**
 * Opens a connection and sends the request line and the Host header of a JSON request, no
 * more: the server has a request under way on that connection, which it has not begun.
 * Resolves once those bytes are written; `finish` sends the rest and reads the reply.
 */
export async function holdBeforeHeadersEnd(base: string, method: string, path: string, body: unknown): Promise<HeldRequest> {
  const { hostname, port } = new URL(base);
  const socket = net.connect(Number(port), hostname);
  await once(socket, 'connect');
  let raw = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  const closed = once(socket, 'close');
  await new Promise<void>((resolve, reject) =>
    socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`, (error) => (error ? reject(error) : resolve())),
  );
  return {
    async finish() {
      const payload = JSON.stringify(body);
      socket.write(`content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`);
      await closed;
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.slice(0, split);
      const chunked = /^transfer-encoding:\s*chunked/im.test(head);
      const text = chunked ? unchunk(raw.slice(split + 4)) : raw.slice(split + 4);
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), body: parseJson(text), headers: new Headers() };
    },
  };
}
