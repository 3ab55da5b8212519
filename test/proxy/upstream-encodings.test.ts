/**
 * An upstream that compresses its answers anyway (the proxy asks for them uncompressed): the
 * proxy decompresses gzip, deflate and brotli, so it still reads the model's step and the
 * client gets the plain JSON; an encoding it does not know reaches the client as it came, with
 * its header, for the client to decode.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Engram } from '../../src/index.js';
import { type RunningRecallProxy, startRecallProxy } from '../../src/surfaces/proxy/index.js';
import { openTestEngram } from '../activation-helpers.js';

const COMPLETION = JSON.stringify({
  id: 'c1',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Plain answer.' }, finish_reason: 'stop' }],
});
const ENCODERS: Record<string, (text: string) => Buffer> = {
  gzip: (text) => gzipSync(text),
  deflate: (text) => deflateSync(text),
  br: (text) => brotliCompressSync(text),
  // Not a real encoding: bytes the proxy cannot decode and must pass on untouched.
  'x-unknown': (text) => Buffer.from(text.split('').reverse().join('')),
};

let upstream: Server;
let proxy: RunningRecallProxy;
let engram: Engram;

beforeAll(async () => {
  ({ engram } = await openTestEngram());
  await engram.remember('The merge loop can stall when specificity is too strict.');
  // Answers in the encoding the request's x-test-encoding header names (the proxy forwards it).
  upstream = createServer((req, res) => {
    const encoding = String(req.headers['x-test-encoding']);
    req.resume().on('end', () => {
      const body = (ENCODERS[encoding] as (text: string) => Buffer)(COMPLETION);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding, 'content-length': body.length });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  proxy = await startRecallProxy({ engram, upstream: `http://127.0.0.1:${port}/v1`, port: 0, log: () => undefined });
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => upstream.close(resolve));
  await engram.close();
});

async function ask(encoding: string): Promise<Response> {
  return fetch(`${proxy.url}/chat/completions`, {
    method: 'POST',
    // fetch would decode gzip, deflate and brotli itself: ask for the bytes exactly as relayed.
    headers: {
      'content-type': 'application/json',
      'x-engram-session': `enc-${encoding}`,
      'x-test-encoding': encoding,
      'accept-encoding': 'identity',
    },
    body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Why does the merge loop stall?' }] }),
  });
}

describe('compressed upstream answers', () => {
  it.each(['gzip', 'deflate', 'br'])('decompresses %s, and the client gets plain JSON', async (encoding) => {
    const response = await ask(encoding);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('x-engram-recall')).toBe(`on: session enc-${encoding}`);
    expect(await response.text()).toBe(COMPLETION);
  });

  it('relays an encoding it does not know as it came, with its header', async () => {
    const response = await ask('x-unknown');

    expect(response.headers.get('content-encoding')).toBe('x-unknown');
    expect(Buffer.from(await response.arrayBuffer()).equals(ENCODERS['x-unknown']?.(COMPLETION) as Buffer)).toBe(true);
  });
});
