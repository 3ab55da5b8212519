/**
 * `engram proxy` as a function: an OpenAI-compatible endpoint on loopback that forwards to an
 * upstream speaking the same API and adds Engram's recall to `POST /v1/chat/completions`. Every
 * other `/v1/` route is relayed unchanged (e.g. `GET /v1/models`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ConfigError, type Engram, InvalidInputError, isEngramError } from '../../index.js';
import { ApiError } from '../http/api-error.js';
import { assertLocalRequest } from '../http/local-origin.js';
import { type ChatContext, fetchUpstream, handleChatCompletions } from './chat-completions.js';
import { relayBody, relayHead } from './forward.js';
import { openAiError } from './openai-error.js';
import { ProxySessions } from './proxy-sessions.js';
import { DEFAULT_MAX_REQUEST_BYTES, readRequestBody } from './read-request.js';
import { sendJson } from './send-json.js';
import { UpstreamClient } from './upstream-client.js';

/** The port `engram proxy` listens on unless told otherwise. */
export const DEFAULT_PROXY_PORT = 7078;

export interface RecallProxyOptions {
  engram: Engram;
  /** The upstream's base URL, as an OpenAI client's `baseURL`: e.g. `http://127.0.0.1:11434/v1`. */
  upstream: string;
  /** 0 picks a free port. @default 7078 */
  port?: number;
  /** Scope of sessions whose request names none. @default "global" */
  scope?: string;
  /** @default 32 MiB */
  maxRequestBytes?: number;
  /** @default standard error */
  log?: (line: string) => void;
}

export interface RunningRecallProxy {
  /** e.g. `http://127.0.0.1:7078/v1`, the base URL to give an OpenAI client. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Parses `--upstream`: an http(s) URL. */
export function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidInputError(`--upstream must be a URL such as http://127.0.0.1:11434/v1 (got "${text}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidInputError(`--upstream must be an http:// or https:// URL (got "${text}")`);
  }
  return url;
}

/** Starts the proxy on 127.0.0.1 (it carries no credentials of its own, so it never listens wider). */
export async function startRecallProxy(options: RecallProxyOptions): Promise<RunningRecallProxy> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const upstream = parseUpstream(options.upstream);
  const context: ChatContext = {
    sessions: new ProxySessions(options.engram),
    upstream,
    client: new UpstreamClient(upstream),
    defaultScope: options.scope ?? 'global',
    log,
  };
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const server = createServer((req, res) => {
    route(context, maxBytes, req, res).catch((error: unknown) => {
      // Never the client's key: only the error's message is logged.
      const message = isEngramError(error) ? error.message : error instanceof Error ? error.message : String(error);
      log(`engram proxy: ${req.method} ${req.url}: ${message}`);
      if (!res.headersSent) sendJson(res, 500, openAiError(`Engram could not handle the request: ${message}`, 'engram_error'));
      else res.destroy();
    });
  });
  const wanted = options.port ?? DEFAULT_PROXY_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        reject(new ConfigError(`port ${wanted} on 127.0.0.1 is in use: choose another with --port`));
      else reject(error);
    });
    server.listen(wanted, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        context.client.close();
      }),
  };
}

async function route(context: ChatContext, maxBytes: number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A web page must not reach the user's memories: not by DNS rebinding, not by a simple POST.
  try {
    assertLocalRequest(req.headers.host, req.headers.origin);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return sendJson(res, 403, openAiError(error.message, 'invalid_request_error', 'forbidden'));
  }
  if (req.method === 'OPTIONS') {
    return sendJson(
      res,
      405,
      openAiError(
        'the proxy does not answer CORS preflight: call it from a local program',
        'invalid_request_error',
        'method_not_allowed',
      ),
    );
  }
  const path = new URL(req.url ?? '/', 'http://proxy').pathname;
  if (req.method === 'GET' && path === '/health') return sendJson(res, 200, { ok: true, upstream: context.upstream.origin });
  if (!path.startsWith('/v1/')) {
    return sendJson(res, 404, openAiError(`no route ${path}: the proxy serves the OpenAI API under /v1/`, 'not_found_error'));
  }
  const body = await readRequestBody(req, maxBytes);
  if (body === null) {
    return sendJson(res, 413, openAiError(`the request is larger than ${maxBytes} bytes: send a shorter conversation`));
  }
  if (req.method === 'POST' && path === '/v1/chat/completions') return handleChatCompletions(context, req, res, body);
  const response = await fetchUpstream(context, req, res, body);
  if (!response) return;
  relayHead(response, res);
  await relayBody(response, res);
  res.end();
}
