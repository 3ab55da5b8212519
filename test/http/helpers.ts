/**
 * Shared by the HTTP tests: a server in this process on a free port (fast, for the many-case
 * tests), `engram serve` as a real child process (for the CLI's behaviour), and a small JSON
 * client that never throws on an HTTP error status.
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';

import { expect } from 'vitest';
import type { z } from 'zod';

import { openEngram } from '../../src/index.js';
import { API_ROUTES, type RunningHttpServer, startHttpServer, type TokenBinding } from '../../src/surfaces/http/index.js';
import { dbIn, LEXICAL, spawnCli } from '../cli/helpers.js';

/** Starts the API in this process on a free loopback port, lexical only, on `<dir>/engram.db`. */
export function startInProcess(dir: string, tokens: readonly TokenBinding[] = []): Promise<RunningHttpServer> {
  return startHttpServer({
    openEngine: (tenant) => openEngram({ path: dbIn(dir), tenant, embedder: null }),
    port: 0,
    tokens,
    log: () => undefined,
  });
}

/** A running `engram serve` child process. */
export interface ServeProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** What `--json` printed: api, mcp, openapi, health, database, auth. */
  where: Record<string, string>;
  stderr: () => string;
  /** Sends a signal and resolves with how the process ended. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `engram serve --port 0 --json <args>` in `cwd` and waits until it listens. */
export function startServeProcess(
  cwd: string,
  args: readonly string[] = [],
  env: Readonly<Record<string, string>> = LEXICAL,
): Promise<ServeProcess> {
  const child = spawnCli(['serve', '--port', '0', '--json', ...args], { cwd, env });
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const onData = (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      child.stdout?.off('data', onData);
      const where = JSON.parse(stdout.slice(0, newline)) as Record<string, string>;
      resolve({
        child,
        url: (where.api as string).replace(/\/v1$/, ''),
        where,
        stderr: () => stderr,
        stop: (signal = 'SIGTERM') => {
          child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    void exited.then(({ code }) => reject(new Error(`engram serve exited (${code}) before listening: ${stderr}`)));
  });
}

/** A response: status and parsed JSON body (null when the body was not JSON). */
export interface JsonReply<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** How to send one request. */
export interface SendOptions {
  body?: unknown;
  /** Sent as is, instead of `body` as JSON. */
  raw?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
}

/** Sends a request to `base + path` and parses the reply. */
export async function send<T = unknown>(
  base: string,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<JsonReply<T>> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await fetch(`${base}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** Asserts an error reply: the status, `{ error: { code, message } }`, and no stack trace. */
export function expectApiError(reply: JsonReply, status: number, code: string, message?: RegExp): string {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  const error = (reply.body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  expect(error?.code).toBe(code);
  expect(typeof error?.message).toBe('string');
  expect(error?.message as string).not.toMatch(/\n\s+at /);
  if (message) expect(error?.message as string).toMatch(message);
  return error?.message as string;
}

/** The documented success schema of a route, e.g. `responseSchema('post', '/v1/memories')`. */
export function responseSchema(method: string, path: string): z.ZodType {
  const route = API_ROUTES.find((candidate) => candidate.method === method && candidate.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route.response;
}

/** Asserts a success reply of a documented route and returns its body, parsed by the route's own schema. */
export function expectDocumented<T = Record<string, unknown>>(reply: JsonReply, method: string, path: string): T {
  const route = API_ROUTES.find((candidate) => candidate.method === method && candidate.path === path);
  expect(reply.status, JSON.stringify(reply.body)).toBe(route?.status ?? 200);
  const parsed = responseSchema(method, path).safeParse(reply.body);
  expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues)).toBe(true);
  return reply.body as T;
}

/** A GET with headers fetch() will not send (Host), over node:http. */
export function getWithHeaders(base: string, path: string, headers: Record<string, string>): Promise<JsonReply> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown, headers: new Headers() }),
      );
    });
    request.on('error', reject);
  });
}
