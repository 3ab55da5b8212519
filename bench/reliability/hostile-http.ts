/**
 * Hostile input, HTTP: `engram serve` (a real process on a real port, a bearer token required)
 * takes `count` seeded requests over every route its OpenAPI document lists, plus `/mcp`,
 * `/health` and paths that exist nowhere: wrong methods, missing or wrong tokens, path tricks,
 * hostile ids and query strings, bodies that are broken, huge, deeply nested or of the wrong
 * shape. Requests go one at a time, so a refused one can be held to the database's
 * data_version: unchanged. Every answer is checked for its status, its shape and its leaks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { findLeak, isErrorBody, watchDatabase } from './answer-checks.js';
import { emptyFigures, recordProblem, type SurfaceFigures } from './hostile-figures.js';
import { brokenBody, encodeLoosely, hostileId, hostileString, hostileValue } from './hostile-values.js';
import { childEnv, killHard, LEXICAL_ENV, type Served, startServe } from './processes.js';
import { type JsonSchema, valueForSchema } from './schema-values.js';
import { between, pickOne, type Random, seededRandom } from './seeded.js';
import { checkStoredAfter, seedDatabase, snapshotMemories } from './stored-snapshot.js';

/** Long enough for a 1 MiB body on a busy machine; an answer later than this is a hang. */
const ANSWER_MS = 15_000;
const TOKEN = 'hostile-input-bench-token-0123456789';

interface Route {
  method: string;
  path: string;
  body: JsonSchema | undefined;
  query: string[];
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  /** The memory id in the path when the route takes one. */
  id: string | null;
  route: Route;
}

export async function fuzzHttp({ count, seed }: { count: number; seed: number }): Promise<SurfaceFigures> {
  const figures = emptyFigures('http');
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-hostile-http-'));
  const file = path.join(directory, 'engram.db');
  const random = seededRandom(seed);
  const env = childEnv({ ...LEXICAL_ENV, ENGRAM_TOKEN: TOKEN });
  let served: Served | null = null;
  try {
    const seeded = await seedDatabase(file);
    const before = await snapshotMemories(file, seeded);
    served = await startServe(file, env);
    const routes = await listRoutes(served.url);
    const ids = [...seeded];
    const touched = new Set<string>();
    const watch = watchDatabase(file);
    try {
      for (let i = 0; i < count; i++) {
        const request = buildRequest(random, served.url, routes, ids);
        const version = watch.version();
        const answer = await send(request);
        figures.inputs++;
        const label = `${request.method} ${request.url.slice(served.url.length, served.url.length + 120)}`;
        if (answer.kind === 'no-answer') {
          if (served.running.child.exitCode !== null || served.running.child.signalCode !== null) {
            const finished = await served.running.done;
            recordProblem(figures, 'crashes', `${label}: the server exited: ${finished.stderr.trim().slice(-300)}`);
            served = await startServe(file, env);
          } else if (answer.reason === 'timeout') recordProblem(figures, 'hangs', `${label}: no answer in ${ANSWER_MS} ms`);
          else if (!answer.bodyTooLarge) recordProblem(figures, 'badErrors', `${label}: ${answer.reason}`);
          else figures.refused++; // a body over the limit is refused and the connection closed mid-upload
          continue;
        }
        checkAnswer(figures, request, answer, label, [directory]);
        if (answer.status >= 400) {
          figures.refused++;
          if (watch.version() !== version) recordProblem(figures, 'refusedChanges', `${label} answered ${answer.status}`);
        } else {
          figures.accepted++;
          noteAccepted(request, answer, ids, touched);
        }
      }
    } finally {
      watch.close();
    }
    if (served.running.child.exitCode !== null) recordProblem(figures, 'crashes', 'the server exited at the end');
    await stopServe(served);
    served = null;
    await checkStoredAfter(figures, file, before, touched);
    return figures;
  } finally {
    if (served) await killHard(served.running);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The routes of the OpenAPI document, with `{id}` left in the path. */
async function listRoutes(base: string): Promise<Route[]> {
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<
      string,
      Record<
        string,
        { requestBody?: { content?: Record<string, { schema?: JsonSchema }> }; parameters?: { in: string; name: string }[] }
      >
    >;
  };
  const routes: Route[] = [];
  for (const [where, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      routes.push({
        method: method.toUpperCase(),
        path: where,
        body: operation.requestBody?.content?.['application/json']?.schema,
        query: (operation.parameters ?? []).filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
      });
    }
  }
  return routes;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'] as const;

function buildRequest(random: Random, base: string, routes: readonly Route[], ids: readonly string[]): FuzzRequest {
  const route = pickOne(random, routes);
  const method = random() < 0.85 ? route.method : pickOne(random, METHODS);
  const id = route.path.includes('{id}') ? (random() < 0.5 && ids.length > 0 ? pickOne(random, ids) : hostileId(random)) : null;
  let where = route.path.replace('{id}', id ?? '');
  if (random() < 0.1) where = trickPath(random, where);
  const query = buildQuery(random, route);
  const headers: Record<string, string> = {};
  const authorization = pickAuthorization(random);
  if (authorization !== null) headers.authorization = authorization;
  let body: string | Uint8Array | undefined;
  if (method !== 'GET' && method !== 'HEAD' && (route.body || random() < 0.3)) {
    const roll = random();
    if (roll < 0.6) body = JSON.stringify(valueForSchema(route.body, random, 0.15));
    else if (roll < 0.85) body = JSON.stringify(hostileValue(random, 3)) ?? '';
    else body = brokenBody(random);
    headers['content-type'] =
      random() < 0.9 ? 'application/json' : pickOne(random, ['text/plain', 'application/x-www-form-urlencoded', '']);
  }
  return { method, url: `${base}${where}${query}`, headers, body, id: route.path.includes('{id}') ? id : null, route };
}

/** A path the router must not be fooled by: dot segments, doubled slashes, encodings, junk. */
function trickPath(random: Random, where: string): string {
  return pickOne(random, [
    `${where}/`,
    where.replace('/v1/', '/v1//'),
    where.replace('/v1/', '/v1/../v1/'),
    where.toUpperCase(),
    `${where};jsessionid=1`,
    `${where}/${hostileId(random)}`,
    `/v1/${hostileId(random)}`,
    `/${hostileId(random)}`,
    `/v2${where.slice(3)}`,
    `${where}%00`,
    `${where}/%2e%2e/%2e%2e/stats`,
    `/v1/memories/${'a/'.repeat(between(random, 10, 500))}`,
  ]);
}

function buildQuery(random: Random, route: Route): string {
  if (random() < 0.4) return '';
  const names =
    route.query.length > 0 && random() < 0.8 ? route.query : ['q', 'limit', '__proto__', hostileString(random).slice(0, 20)];
  const pairs: string[] = [];
  for (let i = between(random, 1, 3); i > 0; i--) {
    const name = pickOne(random, names);
    const value =
      random() < 0.5
        ? pickOne(random, ['-1', '0', '1', '51', '1001', 'abc', '1e999', 'true', 'NaN', '', '%ZZ', '%E0%A4%A', '2', 'newest'])
        : encodeLoosely(hostileString(random).slice(0, 300));
    pairs.push(`${encodeLoosely(name)}=${value}`);
  }
  return `?${pairs.join('&')}`;
}

function pickAuthorization(random: Random): string | null {
  if (random() < 0.88) return `Bearer ${TOKEN}`;
  return pickOne(random, [
    null,
    'Bearer',
    'Bearer ',
    'Bearer wrong-token-wrong-token-wrong',
    `Bearer ${TOKEN}x`,
    `bearer ${TOKEN.toUpperCase()}`,
    `Basic ${Buffer.from('user:pass').toString('base64')}`,
    `Bearer ${TOKEN} ${TOKEN}`,
    `Bearer ${'a'.repeat(4_000)}`,
    'Bearer \u00e9\u00e9',
  ]);
}

type Answer =
  | { kind: 'answer'; status: number; text: string; contentType: string }
  | { kind: 'no-answer'; reason: string; bodyTooLarge: boolean };

async function send(request: FuzzRequest): Promise<Answer> {
  try {
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(ANSWER_MS),
    });
    const text = await response.text();
    return { kind: 'answer', status: response.status, text, contentType: response.headers.get('content-type') ?? '' };
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : describeFetchError(error);
    return { kind: 'no-answer', reason, bodyTooLarge: (request.body?.length ?? 0) > 1024 * 1024 };
  }
}

function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return `${error.message}${cause instanceof Error ? `: ${cause.message}` : ''}`;
}

function checkAnswer(
  figures: SurfaceFigures,
  request: FuzzRequest,
  answer: Extract<Answer, { kind: 'answer' }>,
  label: string,
  privatePaths: readonly string[],
): void {
  if (answer.status >= 500)
    recordProblem(figures, 'serverErrors', `${label} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
  const leak = findLeak(answer.text, privatePaths);
  if (leak) recordProblem(figures, 'leaks', `${label}: the answer holds ${leak}: ${answer.text.slice(0, 300)}`);
  if (answer.status < 400 || request.method === 'HEAD') return;
  // Paths outside the API are the web inspector's, which answers people with HTML error pages.
  if (!isApiPath(new URL(request.url).pathname) && answer.contentType.startsWith('text/html')) return;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    recordProblem(
      figures,
      'badErrors',
      `${label} answered ${answer.status} with a body that is not JSON: ${answer.text.slice(0, 200)}`,
    );
    return;
  }
  const mcpError = request.url.includes('/mcp') && isJsonRpcError(body);
  if (!isErrorBody(body) && !mcpError) {
    recordProblem(
      figures,
      'badErrors',
      `${label} answered ${answer.status} without { error: { code, message } }: ${answer.text.slice(0, 200)}`,
    );
  }
}

function isApiPath(pathname: string): boolean {
  return /^\/(v1(\/|$)|mcp$|health$|openapi\.json$)/.test(pathname);
}

function isJsonRpcError(body: unknown): boolean {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'number' && typeof error.message === 'string' && error.message !== '';
}

/** Keeps new ids for later requests and marks the seeded memories an accepted request changed. */
function noteAccepted(
  request: FuzzRequest,
  answer: Extract<Answer, { kind: 'answer' }>,
  ids: string[],
  touched: Set<string>,
): void {
  if (request.id !== null && (request.method === 'PATCH' || request.method === 'DELETE')) touched.add(request.id);
  if (answer.status === 201 && request.route.path === '/v1/memories' && ids.length < 2_000) {
    try {
      const { memory } = JSON.parse(answer.text) as { memory?: { id?: string } };
      if (memory?.id) ids.push(memory.id);
    } catch {
      // a 201 that is not JSON is caught by checkAnswer's leak check or not at all; nothing to keep
    }
  }
}

/** Stops the server as a user would (SIGTERM), so it finishes its writes. */
async function stopServe(served: Served): Promise<void> {
  served.running.child.kill('SIGTERM');
  const timer = setTimeout(() => served.running.child.kill('SIGKILL'), 10_000);
  await served.running.done;
  clearTimeout(timer);
}
