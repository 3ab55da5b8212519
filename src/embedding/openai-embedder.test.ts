import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { EngramError } from '../errors.js';
import type { Embedder } from './embedder.js';
import { createOpenAiEmbedder, type OpenAiEmbedderOptions } from './openai-embedder.js';

const SECRET = 'sk-test-0123456789abcdef';
const DIMENSIONS = 8;

interface RecordedRequest {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: { model: string; input: string[] };
}

type Handler = (request: RecordedRequest, response: ServerResponse) => void;

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map(closeServer));
});

/** A deterministic, never-zero vector for `text`, from its SHA-256. */
function fakeVector(text: string, length = DIMENSIONS): number[] {
  const digest = createHash('sha256').update(text).digest();
  return Array.from({ length }, (_, i) => ((digest[i % digest.length] as number) + 1) / 16);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Answers like OpenAI or Ollama, listing the vectors in reverse so order must come from `index`. */
const answerLikeOpenAi: Handler = (request, response) => {
  const data = request.body.input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) }));
  sendJson(response, 200, { object: 'list', model: request.body.model, data: data.reverse(), usage: { prompt_tokens: 1 } });
};

/** Starts a real HTTP server on 127.0.0.1 standing in for the embedding API. */
async function startServer(handler: Handler = answerLikeOpenAi) {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming, response) => {
    let raw = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk: string) => (raw += chunk));
    incoming.on('end', () => {
      const request = { method: incoming.method, url: incoming.url, headers: incoming.headers, body: JSON.parse(raw) };
      requests.push(request);
      handler(request, response);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function embedderFor(baseUrl: string, options: Partial<OpenAiEmbedderOptions> = {}): Embedder {
  return createOpenAiEmbedder({ baseUrl, model: 'nomic-embed-text', apiKey: SECRET, ...options });
}

/** The message of the EngramError that `embed` rejects with; checks the code and that the key is not in it. */
async function embedFailure(embedder: Embedder, texts: readonly string[] = ['hello']): Promise<string> {
  const error: unknown = await embedder.embed(texts).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(EngramError);
  const { code, message } = error as EngramError;
  expect(code).toBe('embedder_failed');
  expect(message).not.toContain(SECRET);
  expect(message).not.toContain('\n');
  return message;
}

function norm(vector: Float32Array): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

describe('createOpenAiEmbedder', () => {
  it('returns unit-length vectors in input order even when the server lists them out of order', async () => {
    const { baseUrl } = await startServer();
    const texts = ['the cat sat', 'on the mat', 'and purred'];

    const vectors = await embedderFor(baseUrl).embed(texts);

    expect(vectors).toHaveLength(texts.length);
    vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(norm(vector)).toBeCloseTo(1, 5);
      const raw = fakeVector(texts[i] as string);
      const rawNorm = Math.sqrt(raw.reduce((sum, value) => sum + value * value, 0));
      raw.forEach((value, j) => expect(vector[j]).toBeCloseTo(value / rawNorm, 5));
    });
  });

  it('posts the model and the texts as JSON to <baseUrl>/embeddings, trailing slash or not', async () => {
    const { baseUrl, requests } = await startServer();

    await embedderFor(`${baseUrl}/`).embed(['one', 'two']);

    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/embeddings');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({ model: 'nomic-embed-text', input: ['one', 'two'] });
  });

  it('splits the texts into ceil(n / batchSize) sequential requests and keeps their order', async () => {
    const { baseUrl, requests } = await startServer();
    const texts = Array.from({ length: 7 }, (_, i) => `text ${i}`);

    const vectors = await embedderFor(baseUrl, { batchSize: 3 }).embed(texts);

    expect(requests.map((request) => request.body.input)).toEqual([texts.slice(0, 3), texts.slice(3, 6), texts.slice(6)]);
    const single = await embedderFor(baseUrl).embed(['text 4']);
    expect(vectors[4]).toEqual(single[0]);
  });

  it('batches 32 texts per request by default', async () => {
    const { baseUrl, requests } = await startServer();

    await embedderFor(baseUrl).embed(Array.from({ length: 33 }, (_, i) => `text ${i}`));

    expect(requests.map((request) => request.body.input.length)).toEqual([32, 1]);
  });

  it('returns [] for no texts without calling the server', async () => {
    const { baseUrl, requests } = await startServer();

    await expect(embedderFor(baseUrl).embed([])).resolves.toEqual([]);
    expect(requests).toHaveLength(0);
  });

  it('sends the API key as a bearer token when one is set', async () => {
    const { baseUrl, requests } = await startServer();

    await embedderFor(baseUrl).embed(['hello']);

    expect(requests[0]?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it.each([undefined, ''])('sends no Authorization header when the API key is %j', async (apiKey) => {
    const { baseUrl, requests } = await startServer();

    await embedderFor(baseUrl, { apiKey }).embed(['hello']);

    expect(requests[0]?.headers).not.toHaveProperty('authorization');
  });

  it('has the id openai:<model>, whatever the server', () => {
    expect(embedderFor('http://127.0.0.1:1/v1').id).toBe('openai:nomic-embed-text');
    expect(embedderFor('https://api.openai.com/v1').id).toBe('openai:nomic-embed-text');
  });

  it('learns its dimensions from the first answer', async () => {
    const { baseUrl } = await startServer();
    const embedder = embedderFor(baseUrl);

    expect(embedder.dimensions).toBeNull();
    await embedder.embed(['hello']);
    expect(embedder.dimensions).toBe(DIMENSIONS);
  });

  it('uses the injected fetch', async () => {
    const { baseUrl } = await startServer();
    const urls: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      urls.push(String(input));
      return fetch(input, init);
    };

    await embedderFor(baseUrl, { fetch: recordingFetch }).embed(['hello']);

    expect(urls).toEqual([`${baseUrl}/embeddings`]);
  });

  it('reads every text whole unless told what share of a text its model reads', () => {
    expect(embedderFor('http://127.0.0.1:1/v1').readableShare?.('日本語 🍕')).toBe(1);
    const englishOnly = embedderFor('http://127.0.0.1:1/v1', { readableShare: (text) => (/^[\x20-\x7e]*$/.test(text) ? 1 : 0) });
    expect(englishOnly.readableShare?.('日本語')).toBe(0);
    expect(englishOnly.readableShare?.('billing')).toBe(1);
  });

  it('rejects a batch size below 1', () => {
    expect(() => embedderFor('http://127.0.0.1:1/v1', { batchSize: 0 })).toThrow(/batch size/);
  });
});

describe('createOpenAiEmbedder errors', () => {
  it('tells to check the API key on 401, without quoting it even when the server echoes it', async () => {
    const { baseUrl } = await startServer((request, response) =>
      sendJson(response, 401, { error: { message: `Incorrect API key provided: ${request.headers.authorization}` } }),
    );

    const message = await embedFailure(embedderFor(baseUrl));

    expect(message).toContain('HTTP 401');
    expect(message).toContain('check the API key (see [embedding] api_key_env)');
    expect(message).toContain('[redacted]');
  });

  it('tells to check the API key on 403', async () => {
    const { baseUrl } = await startServer((_, response) => sendJson(response, 403, { error: 'forbidden' }));

    expect(await embedFailure(embedderFor(baseUrl))).toContain('check the API key (see [embedding] api_key_env)');
  });

  it('points at the model name and the base URL on 404', async () => {
    const { baseUrl } = await startServer((_, response) =>
      sendJson(response, 404, { error: 'model "nomic-embed-text" not found, try pulling it first' }),
    );

    const message = await embedFailure(embedderFor(baseUrl));

    expect(message).toContain('HTTP 404');
    expect(message).toContain('[embedding] model');
    expect(message).toContain('[embedding] base_url');
    expect(message).toContain('try pulling it first');
  });

  it('quotes the status and the first 200 characters of the body on other errors', async () => {
    const body = `overloaded ${SECRET} ${'x'.repeat(300)}`;
    const { baseUrl } = await startServer((_, response) => response.writeHead(500).end(body));

    const message = await embedFailure(embedderFor(baseUrl));

    expect(message).toContain(`${baseUrl}/embeddings answered HTTP 500: overloaded [redacted] xxx`);
    expect(message).not.toContain('x'.repeat(200));
  });

  it('says when the answer is not JSON', async () => {
    const { baseUrl } = await startServer((_, response) => response.writeHead(200).end('<html>welcome</html>'));

    const message = await embedFailure(embedderFor(baseUrl));

    expect(message).toContain('other than JSON (<html>welcome</html>)');
    expect(message).toContain('[embedding] base_url');
  });

  it.each([
    ['no data field', () => ({ embeddings: [[1, 2]] }), /unexpected shape \(at data: /],
    ['a string embedding', () => ({ data: [{ index: 0, embedding: 'AAAA' }] }), /unexpected shape \(at data\.0\.embedding: /],
    ['a missing index', () => ({ data: [{ embedding: [1, 2] }] }), /unexpected shape \(at data\.0\.index: /],
    ['too few vectors', () => ({ data: [{ index: 0, embedding: [1, 2] }] }), /returned 1 vectors for 2 texts/],
    [
      'a repeated index',
      () => ({
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 0, embedding: [3, 4] },
        ],
      }),
      /missing or repeated indexes/,
    ],
    [
      'vectors of differing length',
      () => ({
        data: [
          { index: 0, embedding: [1, 2] },
          { index: 1, embedding: [1, 2, 3] },
        ],
      }),
      /different lengths \(2 and 3\)/,
    ],
  ])('rejects an answer with %s', async (_, answer, expected) => {
    const { baseUrl } = await startServer((__, response) => sendJson(response, 200, answer()));

    expect(await embedFailure(embedderFor(baseUrl), ['one', 'two'])).toMatch(expected);
  });

  it('rejects vectors whose length differs from the dimensions seen before', async () => {
    let length = DIMENSIONS;
    const { baseUrl } = await startServer((request, response) =>
      sendJson(response, 200, {
        data: request.body.input.map((text, index) => ({ index, embedding: fakeVector(text, length) })),
      }),
    );
    const embedder = embedderFor(baseUrl);
    await embedder.embed(['hello']);

    length = 4;

    expect(await embedFailure(embedder)).toContain('returned 4-dimensional vectors after 8-dimensional ones');
    expect(embedder.dimensions).toBe(DIMENSIONS);
  });

  it('says the server cannot be reached when nothing listens on the port', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await closeServer(server);
    const baseUrl = `http://127.0.0.1:${port}/v1`;

    const message = await embedFailure(embedderFor(baseUrl));

    expect(message).toBe(
      `cannot reach the embedding server at ${baseUrl}/embeddings (ECONNREFUSED): is it running? check [embedding] base_url`,
    );
  });

  it('gives up after timeoutMs when the server never answers', async () => {
    const { baseUrl } = await startServer(() => {
      // never answers
    });

    const message = await embedFailure(embedderFor(baseUrl, { timeoutMs: 200 }));

    expect(message).toContain('did not answer within 200 ms');
    expect(message).toContain('[embedding] timeout_ms');
  });

  it('keeps user:password in the base URL out of messages', async () => {
    const { baseUrl, requests } = await startServer((_, response) => response.writeHead(500).end('boom'));
    const withCredentials = baseUrl.replace('http://', 'http://user:hunter2@');
    const credentialsFetch: typeof fetch = (input, init) => {
      // fetch refuses URLs with credentials; a proxy-aware fetch would turn them into a header.
      const url = new URL(String(input));
      url.username = '';
      url.password = '';
      return fetch(url, init);
    };

    const message = await embedFailure(embedderFor(withCredentials, { fetch: credentialsFetch }));

    expect(requests).toHaveLength(1);
    expect(message).not.toContain('hunter2');
    expect(message).toContain(`${baseUrl}/embeddings answered HTTP 500: boom`);
  });
});
