/**
 * A caller's mistakes over a real port: malformed JSON, wrong types, unknown fields, oversized
 * bodies, unknown ids and routes all get a 4xx with a message that says what to fix — never a
 * 500 — and none of them changes what the database holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningHttpServer } from '../../src/surfaces/http/index.js';
import { makeTempDir } from '../cli/helpers.js';
import { expectApiError, getWithHeaders, type JsonReply, send, startInProcess } from './helpers.js';

describe('the HTTP API with bad input', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  let id: string;
  let before: unknown;
  const snapshot = async () => (await send(server.url, 'GET', '/v1/memories?all=true&limit=1000')).body;

  beforeAll(async () => {
    temp = makeTempDir();
    server = await startInProcess(temp.dir);
    const created = await send<{ memory: { id: string } }>(server.url, 'POST', '/v1/memories', {
      body: { text: 'We chose PostgreSQL for billing', kind: 'decision' },
    });
    id = created.body.memory.id;
    before = await snapshot();
  });
  afterAll(async () => {
    // Nothing any of the requests below sent was stored, changed or lost.
    expect(await snapshot()).toEqual(before);
    await server.close();
    temp.remove();
  });

  it('refuses malformed JSON with 400 invalid_json', async () => {
    for (const raw of ['{"text": "unterminated', '{text: 1}', 'null null', '\u0000']) {
      expectApiError(await send(server.url, 'POST', '/v1/memories', { raw }), 400, 'invalid_json', /not valid JSON/);
    }
    expectApiError(await send(server.url, 'POST', '/v1/search', { raw: '{"query":' }), 400, 'invalid_json');
  });

  it('names the field when a type is wrong', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/v1/memories', { text: 42 }, /body\.text: text must be a string/],
      ['POST', '/v1/memories', { text: 'x', tags: 'a,b' }, /body\.tags: tags must be a list of strings/],
      ['POST', '/v1/memories', { text: 'x', pinned: 'yes' }, /body\.pinned: pinned must be true or false/],
      ['POST', '/v1/memories', { text: 'x', kind: 'rumour' }, /body\.kind/],
      ['POST', '/v1/search', { query: ['billing'] }, /body\.query: query must be a string/],
      [
        'POST',
        '/v1/search',
        { query: 'billing', limit: '10' },
        /body\.limit: limit must be a whole number from 1 to 1000 \(got "10"\)/,
      ],
      ['POST', '/v1/sessions/s/before-turn', { message: 7 }, /body\.message: message must be a string: the user message/],
      ['POST', '/v1/sessions/s/after-step', { toolCalls: 3 }, /body\.toolCalls: expected array/],
      [
        'POST',
        '/v1/solutions',
        { goal: 'g', approach: 'a', outcome: 'o', confidence: 'high' },
        /body\.confidence: confidence must be a number/,
      ],
      ['PATCH', `/v1/memories/ID`, { tier: 5 }, /body\.tier/],
    ];
    for (const [method, path, body, message] of cases) {
      expectApiError(await send(server.url, method, path.replace('ID', id), { body }), 400, 'invalid_input', message);
    }
  });

  it('refuses a body that is not an object, or missing where one is needed', async () => {
    expectApiError(
      await send(server.url, 'POST', '/v1/memories', { body: ['a'] }),
      400,
      'invalid_input',
      /must be a JSON object/,
    );
    expectApiError(
      await send(server.url, 'POST', '/v1/memories', { body: 'text' }),
      400,
      'invalid_input',
      /must be a JSON object/,
    );
    expectApiError(await send(server.url, 'POST', '/v1/memories'), 400, 'invalid_input', /needs a JSON object body/);
    expectApiError(
      await send(server.url, 'POST', '/v1/search', { raw: '   ' }),
      400,
      'invalid_input',
      /needs a JSON object body/,
    );
  });

  it('refuses unknown fields, and a tenant in the body above all', async () => {
    expectApiError(
      await send(server.url, 'POST', '/v1/memories', { body: { text: 'x', tenant: 'other' } }),
      400,
      'invalid_input',
      /unknown field tenant/,
    );
    expectApiError(
      await send(server.url, 'POST', '/v1/search', { body: { query: 'x', lmit: 3 } }),
      400,
      'invalid_input',
      /unknown field lmit/,
    );
  });

  it('passes on the engine’s checks of meaning as 400s', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/v1/memories', { text: '   ' }, /text is empty/],
      ['POST', '/v1/memories', { text: 'x', trust: 7 }, /trust must be between 0 and 1/],
      [
        'POST',
        '/v1/memories',
        { text: 'x', occurredAt: 'yesterday' },
        /occurredAt is not a valid date: "yesterday"; give an ISO 8601 date such as 2026-01-31/,
      ],
      ['POST', '/v1/search', { query: '' }, /query is empty/],
      ['POST', '/v1/search', { query: 'x', limit: 0 }, /limit must be a whole number from 1/],
      [
        'POST',
        '/v1/sessions/s/before-turn',
        { message: ' ' },
        /^body\.message: message is empty: send the user message to recall memories for$/,
      ],
      ['POST', '/v1/solutions', { goal: 'g', approach: 'a', outcome: 'o', confidence: 300 }, /confidence must be from 0 to 100/],
      ['POST', '/v1/solutions/recall', { goal: 'g', threshold: 3 }, /threshold must be between 0 and 1/],
    ];
    for (const [method, path, body, message] of cases) {
      expectApiError(await send(server.url, method, path, { body }), 400, 'invalid_input', message);
    }
  });

  it('checks the query string', async () => {
    expectApiError(
      await send(server.url, 'GET', '/v1/memories?limit=ten'),
      400,
      'invalid_input',
      /query\.limit: must be a whole number/,
    );
    expectApiError(await send(server.url, 'GET', '/v1/memories?limit=0'), 400, 'invalid_input', /at least 1/);
    expectApiError(await send(server.url, 'GET', '/v1/memories?kind=rumour'), 400, 'invalid_input', /query\.kind/);
    expectApiError(await send(server.url, 'GET', '/v1/memories?all=yes'), 400, 'invalid_input', /true or false/);
    expectApiError(
      await send(server.url, 'GET', '/v1/memories?colour=red'),
      400,
      'invalid_input',
      /unknown query parameter colour/,
    );
    expectApiError(await send(server.url, 'GET', '/v1/receipts?turn=-1'), 400, 'invalid_input', /query\.turn/);
    expectApiError(await send(server.url, 'DELETE', `/v1/memories/${id}?hard=maybe`), 400, 'invalid_input', /true or false/);
  });

  it('answers 413 for a body over 1 MiB, declared or streamed', async () => {
    const big = JSON.stringify({ text: 'a'.repeat(1024 * 1024) });
    expectApiError(await send(server.url, 'POST', '/v1/memories', { raw: big }), 413, 'payload_too_large', /larger than 1 MiB/);
    // Without a Content-Length the body is counted as it streams in.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode('a'.repeat(100_000)));
        controller.close();
      },
    });
    const response = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });

  it('answers 404 for ids it does not hold', async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { text: 'changed' }],
      ['DELETE', undefined],
    ] as const) {
      expectApiError(
        await send(server.url, method, '/v1/memories/01NOSUCHMEMORY', { body }),
        404,
        'not_found',
        /no memory with id 01NOSUCHMEMORY/,
      );
    }
    expectApiError(
      await send(server.url, 'POST', '/v1/memories', { body: { text: 'x', supersedes: '01NOSUCHMEMORY' } }),
      404,
      'not_found',
      /cannot supersede/,
    );
  });

  it('answers 404 for unknown routes and 405 for a wrong method', async () => {
    expectApiError(await send(server.url, 'GET', '/v1/nothing'), 404, 'route_not_found', /openapi\.json/);
    // `/` is the web inspector's (test/web/inspector.test.ts); other paths outside /v1 answer JSON.
    expectApiError(await send(server.url, 'GET', '/nothing'), 404, 'route_not_found');
    const wrong: JsonReply = await send(server.url, 'PUT', `/v1/memories/${id}`, { body: { text: 'x' } });
    expectApiError(wrong, 405, 'method_not_allowed', /takes GET, PATCH, DELETE/);
    expect(wrong.headers.get('allow')).toBe('GET, PATCH, DELETE');
  });

  it('refuses requests addressed to another host name (DNS rebinding) with 403', async () => {
    expectApiError(
      await getWithHeaders(server.url, '/v1/stats', { host: 'evil.example' }),
      403,
      'forbidden',
      /addressed to this machine/,
    );
    expect((await getWithHeaders(server.url, '/v1/stats', { host: 'localhost:7077' })).status).toBe(200);
    expectApiError(await send(server.url, 'GET', '/v1/stats', { headers: { origin: 'https://evil.example' } }), 403, 'forbidden');
    expect((await send(server.url, 'GET', '/v1/stats', { headers: { origin: 'http://localhost:3000' } })).status).toBe(200);
  });
});
