/**
 * The embedder for any OpenAI-compatible `/embeddings` endpoint (OpenAI, Ollama, LM Studio,
 * vLLM, llama.cpp's server). It owns the wire format, the validation of what comes back and
 * the wording of every failure: one line that says what went wrong and which `[embedding]`
 * key to check. Reading the API key from the environment belongs to the config layer.
 */
import { z } from 'zod';

import { EngramError } from '../errors.js';
import { type Embedder, normalize } from './embedder.js';

/** Options of {@link createOpenAiEmbedder}. */
export interface OpenAiEmbedderOptions {
  /** The API root, e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The model name sent with every request. */
  model: string;
  /** Sent as `Authorization: Bearer <key>` when present and not empty; never shown in a message. */
  apiKey?: string | undefined;
  /** Texts per request. @default 32 */
  batchSize?: number;
  /** Milliseconds a request may take, reading the answer included. @default 30000 */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * The share of a text the model has words for (see `Embedder.readableShare`), for a model
   * known to read only some languages. @default every text read whole (1): a hosted model is
   * usually multilingual
   */
  readableShare?: (text: string) => number;
}

// Only what we read is checked; other fields (`object`, `usage`) may be anything.
const EmbeddingsResponseSchema = z.object({
  data: z.array(
    z.object({
      embedding: z.array(z.number()).min(1),
      index: z.number().int().min(0),
    }),
  ),
});

/** Error codes that mean the server could not be reached at all, as opposed to TLS or protocol trouble. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const SNIPPET_LENGTH = 200;

/** What one request needs, fixed when the embedder is created. */
interface Endpoint {
  url: string;
  /** The URL as messages show it: without any user:password. */
  shownUrl: string;
  model: string;
  apiKey: string | undefined;
  timeoutMs: number;
  fetch: typeof fetch | undefined;
}

/**
 * Creates an embedder that talks to an OpenAI-compatible server. Its id is `openai:<model>`:
 * the same model name on two servers (OpenAI and an Ollama mirror, say) counts as the same
 * model, so switching servers needs no reindex; a different model name does. `dimensions`
 * stays null until the first answer and then is the length of its vectors.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): Embedder {
  const { baseUrl, model, batchSize = 32, timeoutMs = 30_000 } = options;
  // An empty key (an environment variable set to "") means no key.
  const apiKey = options.apiKey?.trim() || undefined;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new EngramError('embedder_failed', `the embedding batch size must be a whole number of at least 1, not ${batchSize}`);
  }
  // A key with a line break would make fetch throw an error that quotes the header, key and all.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    const message =
      'the API key contains spaces, line breaks or non-ASCII characters: check the API key (see [embedding] api_key_env)';
    throw new EngramError('embedder_failed', message);
  }
  const url = `${baseUrl.replace(/\/+$/, '')}/embeddings`;
  const endpoint: Endpoint = { url, shownUrl: withoutCredentials(url), model, apiKey, timeoutMs, fetch: options.fetch };
  let dimensions: number | null = null;
  return {
    id: `openai:${model}`,
    get dimensions() {
      return dimensions;
    },
    readableShare: options.readableShare ?? (() => 1),
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize);
        try {
          const batchVectors = readVectors(endpoint, await postBatch(endpoint, batch), batch.length, dimensions);
          dimensions = (batchVectors[0] as Float32Array).length;
          vectors.push(...batchVectors);
        } catch (error) {
          throw withoutApiKey(error, apiKey);
        }
      }
      return vectors;
    },
  };
}

/** Sends one batch and returns the parsed JSON; every transport, HTTP or JSON failure becomes an EngramError. */
async function postBatch(endpoint: Endpoint, input: readonly string[]): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (endpoint.apiKey !== undefined) headers['authorization'] = `Bearer ${endpoint.apiKey}`;
  const send = endpoint.fetch ?? fetch;
  let response: Response;
  let body: string;
  try {
    // One signal for the whole exchange, so a server that stalls mid-body also times out.
    const signal = AbortSignal.timeout(endpoint.timeoutMs);
    const request = { method: 'POST', headers, body: JSON.stringify({ model: endpoint.model, input }), signal };
    response = await send(endpoint.url, request);
    body = await response.text();
  } catch (error) {
    throw describeTransportError(endpoint, error);
  }
  if (!response.ok) throw describeHttpError(endpoint, response.status, body);
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    const message =
      `the embedding server at ${endpoint.shownUrl} answered with something other than JSON (${snippet(body)}): ` +
      'check that [embedding] base_url is the API root of an OpenAI-compatible server, e.g. http://127.0.0.1:11434/v1';
    throw new EngramError('embedder_failed', message, { cause: error });
  }
}

function describeTransportError(endpoint: Endpoint, error: unknown): EngramError {
  const { shownUrl } = endpoint;
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    const message =
      `the embedding server at ${shownUrl} did not answer within ${endpoint.timeoutMs} ms: ` +
      'is it overloaded or still loading the model? raise [embedding] timeout_ms or check [embedding] base_url';
    return new EngramError('embedder_failed', message, { cause: error });
  }
  const code = findErrorCode(error);
  if (code !== undefined && UNREACHABLE_CODES.has(code)) {
    const message = `cannot reach the embedding server at ${shownUrl} (${code}): is it running? check [embedding] base_url`;
    return new EngramError('embedder_failed', message, { cause: error });
  }
  const detail = code === undefined ? deepestMessage(error) : `${code}: ${deepestMessage(error)}`;
  const message = `the request to the embedding server at ${shownUrl} failed (${detail}): check [embedding] base_url`;
  return new EngramError('embedder_failed', message, { cause: error });
}

function describeHttpError(endpoint: Endpoint, status: number, body: string): EngramError {
  const prefix = `the embedding server at ${endpoint.shownUrl}`;
  if (status === 401 || status === 403) {
    const message = `${prefix} refused the request (HTTP ${status}: ${snippet(body)}): check the API key (see [embedding] api_key_env)`;
    return new EngramError('embedder_failed', message);
  }
  if (status === 404) {
    const message =
      `${prefix} answered HTTP 404 (${snippet(body)}): check the model name "${endpoint.model}" ([embedding] model) ` +
      'and that [embedding] base_url is the API root, e.g. ending in /v1';
    return new EngramError('embedder_failed', message);
  }
  return new EngramError('embedder_failed', `${prefix} answered HTTP ${status}: ${snippet(body)}`);
}

/** Checks the response and returns one unit-length vector per text, in input order. */
function readVectors(endpoint: Endpoint, json: unknown, count: number, knownDimensions: number | null): Float32Array[] {
  const fail = (problem: string) => new EngramError('embedder_failed', `the embedding server at ${endpoint.shownUrl} ${problem}`);
  const parsed = EmbeddingsResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue !== undefined && issue.path.length > 0 ? `at ${issue.path.join('.')}: ` : '';
    const problem = `${where}${issue?.message ?? 'invalid'}`;
    throw fail(`answered in an unexpected shape (${problem}): is [embedding] base_url an OpenAI-compatible API?`);
  }
  const data = [...parsed.data.data].sort((a, b) => a.index - b.index);
  if (data.length !== count) throw fail(`returned ${data.length} vectors for ${count} texts`);
  if (data.some((item, position) => item.index !== position)) {
    throw fail(`returned vectors with missing or repeated indexes (expected 0 to ${count - 1})`);
  }
  const expected = knownDimensions ?? (data[0] as { embedding: number[] }).embedding.length;
  const odd = data.find((item) => item.embedding.length !== expected);
  if (odd !== undefined) {
    throw knownDimensions === null
      ? fail(`returned vectors of different lengths (${expected} and ${odd.embedding.length}) in one answer`)
      : fail(
          `returned ${odd.embedding.length}-dimensional vectors after ${knownDimensions}-dimensional ones: ` +
            `did the model "${endpoint.model}" change?`,
        );
  }
  return data.map((item) => normalize(Float32Array.from(item.embedding)));
}

/** The same error with the key replaced: a server may echo the key in a body we quote. */
function withoutApiKey(error: unknown, apiKey: string | undefined): unknown {
  if (apiKey === undefined || !(error instanceof EngramError) || !error.message.includes(apiKey)) return error;
  return new EngramError(error.code, error.message.split(apiKey).join('[redacted]'), { cause: error.cause });
}
/** The first `code` on the error, its causes or, for an AggregateError, its members. */
function findErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  for (const inner of [cause, ...(Array.isArray(errors) ? errors : [])]) {
    const found = findErrorCode(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** undici wraps the useful message ("connect ECONNREFUSED …") in a bare "fetch failed". */
function deepestMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

/** A body as one short line, for messages. */
function snippet(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim();
  if (line === '') return 'empty body';
  return line.length > SNIPPET_LENGTH ? `${line.slice(0, SNIPPET_LENGTH)}…` : line;
}

/** The URL with any user:password removed, for messages. */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}
