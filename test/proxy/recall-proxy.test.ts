/**
 * `engram proxy` with the official OpenAI client against a scripted upstream on loopback, on a
 * real SQLite file with the real local model: the recall block at position 1 once per user
 * message, the client's key passed through (and nowhere else), the nudge after N tool-only
 * turns, streams relayed chunk by chunk, upstream errors unchanged, bad requests refused clearly.
 */
import { readFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';

import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { NUDGE_TEXT, RECALL_OPEN } from '../../src/context/format.js';
import { type Engram, openEngram } from '../../src/index.js';
import { type RunningRecallProxy, startRecallProxy } from '../../src/surfaces/proxy/index.js';
import { freshDatabase, openTestEngram, sharedEmbedder } from '../activation-helpers.js';
import { type ChatMessage, type ScriptedUpstream, startScriptedUpstream, toolCall } from './scripted-upstream.js';

const KEY = 'sk-test-secret-4f9c2e';
const FACT = 'The merge loop can stall when specificity is too strict; 0.4 works.';
const SYSTEM = { role: 'system' as const, content: 'You are a careful engineer.' };
const TOOLS = [
  {
    type: 'function' as const,
    function: {
      name: 'read_file',
      description: 'Reads a file',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
    },
  },
];

let upstream: ScriptedUpstream;
let proxy: RunningRecallProxy;
let engram: Engram;
let file: string;
const logged: string[] = [];

beforeAll(async () => {
  ({ engram, file } = await openTestEngram({ memory: { intrusive: { every_tool_turns: 2 } } }));
  await engram.remember(FACT);
  upstream = await startScriptedUpstream();
  proxy = await startRecallProxy({ engram, upstream: upstream.url, port: 0, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
  await engram.close();
});
beforeEach(() => {
  upstream.received.length = 0;
});

const client = (session?: string) =>
  new OpenAI({
    baseURL: proxy.url,
    apiKey: KEY,
    maxRetries: 0,
    defaultHeaders: session ? { 'x-engram-session': session } : {},
  });
/** A request with headers fetch would not send as given (Host, Expect, Connection). */
function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}
const chatBody = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'm', messages: [{ role: 'user', content }], ...extra });
const systemTexts = (messages: readonly ChatMessage[]) =>
  messages.flatMap((m) => (m.role === 'system' && typeof m.content === 'string' ? [m.content] : []));

describe('the recall proxy', () => {
  it('puts the recall block at position 1 and passes the key through to the upstream', async () => {
    upstream.script([{ kind: 'message', content: 'Lower merge.specificity to 0.4.' }]);

    const { data: completion, response } = await client('plain')
      .chat.completions.create({
        model: 'test-model',
        messages: [SYSTEM, { role: 'user', content: 'Why does the merge loop stall?' }],
      })
      .withResponse();

    expect(completion.choices[0]?.message.content).toBe('Lower merge.specificity to 0.4.');
    expect(response.headers.get('x-engram-recall')).toBe('on: session plain');
    // what recall cost before forwarding, and the query embedding within it
    const timing = /^engram;dur=([\d.]+), engram-embed;dur=([\d.]+)$/.exec(response.headers.get('server-timing') ?? '');
    expect(Number(timing?.[2])).toBeGreaterThan(0);
    expect(Number(timing?.[1])).toBeGreaterThanOrEqual(Number(timing?.[2]));
    const [received] = upstream.received;
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(received?.headers['x-engram-session']).toBeUndefined();
    expect(received?.body.model).toBe('test-model');
    expect(received?.body.messages[0]).toEqual(SYSTEM);
    expect(received?.body.messages[1]?.role).toBe('system');
    expect(received?.body.messages[1]?.content).toContain(RECALL_OPEN);
    expect(received?.body.messages[1]?.content).toContain(FACT);
    expect(received?.body.messages[2]).toEqual({ role: 'user', content: 'Why does the merge loop stall?' });
  });

  it('recalls once per user message and nudges after N tool-only turns of a tool loop', async () => {
    upstream.script([
      { kind: 'message', content: 'Reading the config.', toolCalls: [toolCall('read_file', { path: 'merge.yaml' })] },
      { kind: 'message', content: 'Reading the defaults.', toolCalls: [toolCall('read_file', { path: 'defaults.yaml' })] },
      { kind: 'message', content: 'Lower merge.specificity to 0.4.' },
    ]);
    const openai = client('loop');
    const messages: ChatCompletionMessageParam[] = [SYSTEM, { role: 'user', content: 'The merge loop stalls. Why?' }];
    for (;;) {
      const reply = (await openai.chat.completions.create({ model: 'test-model', messages, tools: TOOLS })).choices[0]?.message;
      if (!reply) throw new Error('no reply');
      messages.push(reply);
      if (!reply.tool_calls?.length) break;
      for (const call of reply.tool_calls)
        messages.push({ role: 'tool', tool_call_id: call.id, content: 'merge.specificity = 0.9' });
    }

    expect(upstream.received).toHaveLength(3);
    for (const { body } of upstream.received) {
      expect(body.tools).toEqual(TOOLS);
      expect(systemTexts(body.messages)[1]).toContain(FACT);
    }
    expect(systemTexts(upstream.received[1]?.body.messages ?? []).some((text) => text.startsWith(NUDGE_TEXT))).toBe(false);
    const third = upstream.received[2]?.body.messages ?? [];
    expect(third.at(-2)?.role).toBe('tool');
    expect(third.at(-1)).toMatchObject({ role: 'system' });
    expect(String(third.at(-1)?.content)).toContain(NUDGE_TEXT);
    const receipts = await engram.receipts({ sessionId: 'loop', limit: 10 });
    expect(receipts.filter((receipt) => receipt.path === 'active')).toHaveLength(1);
    expect(receipts.filter((receipt) => receipt.path === 'intrusive')).toHaveLength(1);
  });

  it('relays a stream chunk by chunk, and counts streamed tool calls toward the nudge', async () => {
    upstream.script([
      { kind: 'message', content: null, toolCalls: [toolCall('read_file', { path: 'merge.yaml' })] },
      { kind: 'message', content: null, toolCalls: [toolCall('read_file', { path: 'defaults.yaml' })] },
      { kind: 'message', content: 'Lower merge specificity to 0.4, then rerun the job.' },
    ]);
    const openai = client();
    const messages: ChatCompletionMessageParam[] = [SYSTEM, { role: 'user', content: 'The merge loop stalls. Why?' }];
    let text = '';
    let chunks = 0;
    for (let step = 0; step < 3; step++) {
      const stream = await openai.chat.completions.create({ model: 'm', messages, tools: TOOLS, stream: true, user: 'streamer' });
      const calls: { id: string; name: string }[] = [];
      for await (const chunk of stream) {
        chunks += 1;
        const delta = chunk.choices[0]?.delta;
        text += delta?.content ?? '';
        for (const call of delta?.tool_calls ?? []) if (call.id) calls.push({ id: call.id, name: call.function?.name ?? '' });
      }
      if (calls.length === 0) break;
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: '{}' } })),
      });
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: 'merge.specificity = 0.9' });
    }

    expect(text).toBe('Lower merge specificity to 0.4, then rerun the job.');
    // every event but [DONE] reached the client as its own chunk
    expect(chunks).toBe(4 + 4 + (upstream.streamedChunks - 1));
    // the session came from the request's `user` field
    expect(systemTexts(upstream.received[0]?.body.messages ?? [])[1]).toContain(FACT);
    expect(String(upstream.received[2]?.body.messages.at(-1)?.content)).toContain(NUDGE_TEXT);
    expect(upstream.received[2]?.body.user).toBe('streamer');
  });

  it('relays upstream errors unchanged: status, body and headers', async () => {
    const unauthorized = JSON.stringify({
      error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
    const limited = JSON.stringify({
      error: { message: 'Rate limit reached.', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
    upstream.script([
      { kind: 'error', status: 401, body: unauthorized },
      { kind: 'error', status: 429, body: limited, headers: { 'retry-after': '7' } },
      { kind: 'error', status: 429, body: limited, headers: { 'retry-after': '7' } },
    ]);
    const request = { model: 'm', messages: [{ role: 'user' as const, content: 'Hello there' }] };

    const denied = await client('errors')
      .chat.completions.create(request)
      .catch((error: unknown) => error);
    const throttled = await client('errors')
      .chat.completions.create(request)
      .catch((error: unknown) => error);
    const raw = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}`, 'x-engram-session': 'errors' },
      body: JSON.stringify(request),
    });

    expect(denied).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(denied).toMatchObject({ status: 401, code: 'invalid_api_key', message: expect.stringContaining('Incorrect API key') });
    expect(throttled).toBeInstanceOf(OpenAI.RateLimitError);
    expect((throttled as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    expect(raw.status).toBe(429);
    expect(await raw.text()).toBe(limited);
  });

  it('records no turn whose request failed upstream, and records a retry of it once one succeeds', async () => {
    const failed = JSON.stringify({ error: { message: 'The server had an error.', type: 'server_error' } });
    const limited = JSON.stringify({ error: { message: 'Rate limit reached.', type: 'requests', code: 'rate_limit_exceeded' } });
    upstream.script([
      { kind: 'error', status: 500, body: failed },
      { kind: 'message', content: 'Set it to 0.4.' },
      { kind: 'error', status: 429, body: limited },
      { kind: 'message', content: 'Lower merge.specificity to 0.4.' },
    ]);
    const ask = (session: string, content: string) =>
      client(session)
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content }] })
        .catch((error: unknown) => error);

    // A request that failed, then a new user message: no model ever saw the first turn's recall.
    expect(await ask('error-turn', 'Why does the merge loop stall?')).toMatchObject({ status: 500 });
    expect(await ask('error-turn', 'What should merge.specificity be?')).toMatchObject({ choices: expect.any(Array) });
    // The second call waited for whatever the first left to write, so one receipt means the first wrote none.
    await vi.waitFor(async () => expect(await engram.receipts({ sessionId: 'error-turn', limit: 5 })).not.toHaveLength(0));
    const receipts = await engram.receipts({ sessionId: 'error-turn', limit: 5 });
    expect(receipts.map((receipt) => receipt.query)).toEqual(['What should merge.specificity be?']);

    // A client's retry of the same message carries the same recall block, and records it once.
    expect(await ask('retried-turn', 'Why does the merge loop stall?')).toMatchObject({ status: 429 });
    expect(await ask('retried-turn', 'Why does the merge loop stall?')).toMatchObject({ choices: expect.any(Array) });
    expect(upstream.received.at(-1)?.body.messages[0]?.content).toContain(FACT);
    await vi.waitFor(async () => expect(await engram.receipts({ sessionId: 'retried-turn', limit: 5 })).toHaveLength(1));
    const [retried] = await engram.receipts({ sessionId: 'retried-turn', limit: 5 });
    expect(retried?.chosen.map((entry) => entry.preview).join('\n')).toContain('The merge loop can stall');
  });

  it('records no turn when the upstream cannot be reached', async () => {
    const { engram: other } = await openTestEngram();
    await other.remember(FACT);
    const lonely = await startRecallProxy({ engram: other, upstream: 'http://127.0.0.1:9/v1', port: 0, log: () => undefined });
    const ask = (content: string) =>
      new OpenAI({ baseURL: lonely.url, apiKey: KEY, maxRetries: 0 }).chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content }], user: 'lost-turn' })
        .catch((error: unknown) => error);

    expect(await ask('Why does the merge loop stall?')).toMatchObject({ status: 502 });
    // The second request of the conversation waits for anything the first left to write.
    expect(await ask('What should merge.specificity be?')).toMatchObject({ status: 502 });

    expect(await other.receipts({ sessionId: 'lost-turn', limit: 5 })).toEqual([]);
    await lonely.close();
    await other.close();
  });

  it('answers a bad request with an OpenAI-shaped error and forwards nothing', async () => {
    const post = (body: string) =>
      fetch(`${proxy.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    const invalid = await post('{"model": "m", "messages": [');
    const empty = await post('{"model": "m", "messages": []}');
    const roleless = await post('{"model": "m", "messages": [{"content": "hi"}]}');
    const wrongRoute = await fetch(proxy.url.replace('/v1', '/chat'), { method: 'POST', body: '{}' });

    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: {
        message: 'the request body is not valid JSON: send a Chat Completions request object',
        type: 'invalid_request_error',
        param: null,
        code: null,
      },
    });
    expect(((await empty.json()) as { error: { message: string } }).error.message).toBe(
      '"messages" must be a non-empty list of chat messages',
    );
    expect(((await roleless.json()) as { error: { message: string } }).error.message).toMatch(
      /messages\[0\] must be an object with a "role"/,
    );
    expect(wrongRoute.status).toBe(404);
    expect(upstream.received).toHaveLength(0);
  });

  it('forwards a request naming no session untouched, and says recall was off', async () => {
    upstream.script([{ kind: 'message', content: 'Hi.' }]);
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Why does the merge loop stall?' }] });

    const response = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body,
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-engram-recall')).toMatch(/^off: no session/);
    expect(upstream.received[0]?.raw).toBe(body);
  });

  it('says clearly when the upstream cannot be reached', async () => {
    const { engram: other } = await openTestEngram();
    const lonely = await startRecallProxy({ engram: other, upstream: 'http://127.0.0.1:9/v1', port: 0, log: () => undefined });
    const error = await new OpenAI({ baseURL: lonely.url, apiKey: KEY, maxRetries: 0 }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hello' }], user: 'u' })
      .catch((caught: unknown) => caught);
    await lonely.close();
    await other.close();

    expect(error).toMatchObject({
      status: 502,
      message: expect.stringMatching(/the upstream http:\/\/127\.0\.0\.1:9 did not answer/),
    });
  });

  it('refuses requests addressed to another host or sent by a web page, and grants no CORS', async () => {
    upstream.script([
      { kind: 'error', status: 400, body: '{"error":{"message":"no"}}', headers: { 'access-control-allow-origin': '*' } },
    ]);
    const json = { 'content-type': 'application/json', 'x-engram-session': 'web' };

    const rebound = await rawRequest(
      `${proxy.url}/chat/completions`,
      'POST',
      { ...json, host: 'evil.example:7078' },
      chatBody('hi'),
    );
    const simplePost = await rawRequest(
      `${proxy.url}/chat/completions`,
      'POST',
      { 'content-type': 'text/plain', origin: 'https://evil.example' },
      chatBody('hi', { user: 'web' }),
    );
    const preflight = await rawRequest(`${proxy.url}/chat/completions`, 'OPTIONS', { origin: 'http://localhost:3000' });
    const local = await rawRequest(
      `${proxy.url}/chat/completions`,
      'POST',
      { ...json, origin: 'http://localhost:3000' },
      chatBody('hi'),
    );

    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toMatchObject({
      error: { code: 'forbidden', message: expect.stringContaining('evil.example') },
    });
    expect(simplePost.status).toBe(403);
    expect(JSON.parse(simplePost.body)).toMatchObject({ error: { code: 'forbidden', type: 'invalid_request_error' } });
    expect(preflight.status).toBe(405);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(upstream.received).toHaveLength(1);
    expect(local.status).toBe(400);
    expect(local.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('does not forward Expect, Proxy-Authorization or headers the Connection header names', async () => {
    upstream.script([{ kind: 'message', content: 'Hi.' }]);

    const response = await rawRequest(
      `${proxy.url}/chat/completions`,
      'POST',
      {
        'content-type': 'application/json',
        authorization: `Bearer ${KEY}`,
        expect: '100-continue',
        'proxy-authorization': 'Basic cHJveHk6c2VjcmV0',
        connection: 'keep-alive, x-hop-only',
        'x-hop-only': '1',
        'x-kept': 'yes',
      },
      chatBody('Hello there'),
    );

    expect(response.status).toBe(200);
    const headers = upstream.received[0]?.headers ?? {};
    expect(headers.expect).toBeUndefined();
    expect(headers['proxy-authorization']).toBeUndefined();
    expect(headers['x-hop-only']).toBeUndefined();
    expect(headers['x-kept']).toBe('yes');
    expect(headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('percent-encodes a session id a header cannot carry', async () => {
    upstream.script([{ kind: 'message', content: 'Hi.' }]);

    const response = await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chatBody('Hello there', { user: 'Zoë\nwork' }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-engram-recall')).toBe('on: session Zo%C3%AB%0Awork');
  });

  it('puts the recall block after a leading developer message', async () => {
    upstream.script([{ kind: 'message', content: 'Lower it.' }]);
    const developer = { role: 'developer', content: 'Answer briefly.' };

    await fetch(`${proxy.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engram-session': 'dev' },
      body: JSON.stringify({ model: 'm', messages: [developer, { role: 'user', content: 'Why does the merge loop stall?' }] }),
    });

    const sent = upstream.received[0]?.body.messages ?? [];
    expect(sent[0]).toEqual(developer);
    expect(String(sent[1]?.content)).toContain(FACT);
  });

  it('forwards without recall when recall fails, logging one line and never the key', async () => {
    let failing = false;
    const embedder = {
      id: sharedEmbedder.id,
      dimensions: sharedEmbedder.dimensions,
      embed: (texts: readonly string[]) =>
        failing ? Promise.reject(new Error('the embedder is down')) : sharedEmbedder.embed(texts),
    };
    const broken = await openEngram({ path: freshDatabase(), embedder });
    await broken.remember(FACT);
    failing = true;
    const lines: string[] = [];
    const other = await startRecallProxy({
      engram: broken,
      upstream: upstream.url,
      port: 0,
      log: (line) => {
        lines.push(line);
        logged.push(line);
      },
    });
    upstream.script([{ kind: 'message', content: 'Hi.' }]);
    const body = chatBody('Why does the merge loop stall?', { user: 'u' });

    const response = await fetch(`${other.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body,
    });
    await other.close();
    await broken.close();

    expect(response.status).toBe(200);
    expect(response.headers.get('x-engram-recall')).toBe('off: recall failed');
    expect(upstream.received[0]?.raw).toBe(body);
    expect(lines).toEqual([expect.stringMatching(/^engram proxy: recall failed.*the embedder is down$/)]);
    expect(lines.join('\n')).not.toContain(KEY);
  });

  it('makes no upstream call for a client that hung up during recall', async () => {
    let gate: { started: () => void; release: Promise<void> } | null = null;
    const embedder = {
      id: sharedEmbedder.id,
      dimensions: sharedEmbedder.dimensions,
      embed: async (texts: readonly string[]) => {
        if (gate) {
          gate.started();
          await gate.release;
        }
        return sharedEmbedder.embed(texts);
      },
    };
    const slow = await openEngram({ path: freshDatabase(), embedder });
    await slow.remember(FACT);
    const other = await startRecallProxy({ engram: slow, upstream: upstream.url, port: 0, log: () => undefined });
    let release = () => undefined as void;
    const started = new Promise<void>((resolve) => {
      gate = { started: resolve, release: new Promise<void>((done) => (release = done)) };
    });
    upstream.script([{ kind: 'message', content: 'Hi.' }]);

    const req = httpRequest(`${other.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(chatBody('Why does the merge loop stall?', { user: 'gone' }));
    await started;
    req.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await other.close();
    await slow.close();

    expect(upstream.received).toHaveLength(0);
  });

  it('never stores or logs the key', () => {
    const stored = ['', '-wal'].map((suffix) => {
      try {
        return readFileSync(`${file}${suffix}`).toString('latin1');
      } catch {
        return '';
      }
    });
    expect(stored.join('')).not.toContain(KEY);
    // a request sent with the key did log (the failed recall above): the line names no key
    expect(logged.some((line) => line.includes('recall failed'))).toBe(true);
    expect(logged.join('\n')).not.toContain(KEY);
  });
});
