/**
 * `POST /v1/chat/completions` through the proxy: this turn's recall block (position 1) and
 * nudges go into the messages, the request goes upstream with the client's own key, and the
 * answer — streamed or whole, success or error — comes back unchanged while the session counts
 * the step. A request naming no session is forwarded untouched. A turn's receipt and injections
 * are written only once an upstream answered with success: after an error answer, or none, no
 * model saw the recall, so they wait for a retry of the message and are dropped if none comes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { applyInsertions } from '../../entries/tools.js';
import { type ChatRequest, parseChatRequest, transcriptOf } from './chat-request.js';
import { readBody, relayBody, relayHead, upstreamHeaders, upstreamUrl } from './forward.js';
import { openAiError } from './openai-error.js';
import type { ProxySessions } from './proxy-sessions.js';
import { embeddingWaitedFor, serverTiming } from './recall-timing.js';
import { sendJson } from './send-json.js';
import { stepOfCompletion, StreamedStep } from './stream-step.js';
import type { UpstreamAnswer, UpstreamClient } from './upstream-client.js';

/** The header naming the session; without it, the request's `user` field does. */
export const SESSION_HEADER = 'x-engram-session';
/** The header naming the session's scope; without it, the proxy's default scope. */
export const SCOPE_HEADER = 'x-engram-scope';
/** Tells the client whether recall ran, and if not, why. */
export const RECALL_HEADER = 'x-engram-recall';

export interface ChatContext {
  sessions: ProxySessions;
  upstream: URL;
  /** Sends requests to `upstream` over kept-alive connections. */
  client: UpstreamClient;
  defaultScope: string;
  log: (line: string) => void;
}

export async function handleChatCompletions(
  context: ChatContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
): Promise<void> {
  // Made first, so a client that hangs up during recall cancels the upstream call before it is made.
  const abort = abortOnClose(res);
  const parsed = parseChatRequest(body.toString('utf8'));
  if ('problem' in parsed) return sendJson(res, 400, openAiError(parsed.problem));
  const sessionId = headerValue(req, SESSION_HEADER) ?? parsed.user;
  if (!sessionId) {
    const note = `off: no session (send the ${SESSION_HEADER} header or the "user" field)`;
    return forward(context, req, res, body, parsed, null, { [RECALL_HEADER]: note }, abort);
  }
  const scope = headerValue(req, SCOPE_HEADER) ?? context.defaultScope;
  const conversation = context.sessions.conversation(sessionId, scope);
  const started = performance.now();
  const previousStep = context.sessions.takeLastStep(conversation);
  let prepared: Awaited<ReturnType<typeof conversation.beforeCall>>;
  try {
    prepared = await conversation.beforeCall(transcriptOf(parsed.body.messages));
  } catch (error) {
    // Recall is an addition: without it the request still goes through, as sent.
    context.log(`engram proxy: recall failed, forwarding without it: ${describe(error)}`);
    return forward(context, req, res, body, parsed, null, { [RECALL_HEADER]: 'off: recall failed' }, abort);
  }
  const { insertions, recall, written, callEnded, callFailed } = prepared;
  written.catch((error: unknown) => context.log(`engram proxy: writing the turn's receipt failed: ${describe(error)}`));
  try {
    const messages = applyInsertions(parsed.body.messages, insertions, (message) => ({ ...message }));
    const outgoing = Buffer.from(JSON.stringify({ ...parsed.body, messages }));
    // What the proxy added before forwarding, and how much of it was waiting for query embeddings.
    const engramMs = performance.now() - started;
    const embedMs = (recall?.receipt?.latencyMs.embed ?? 0) + (await embeddingWaitedFor(previousStep, started));
    const timing = serverTiming(engramMs, embedMs);
    return await forward(
      context,
      req,
      res,
      outgoing,
      parsed,
      conversation,
      // A header carries only visible ASCII: the id as the client sent it, percent-encoded.
      { [RECALL_HEADER]: `on: session ${encodeURIComponent(sessionId)}`, 'server-timing': timing },
      abort,
    );
  } finally {
    // The turn's receipt is written once a successful answer is passed on (counting the step
    // starts it then). An error answer, no upstream, or a client gone before the upstream
    // answered: the model never had the recall, so nothing is written unless a retry succeeds.
    if (upstreamSucceeded(res)) callEnded();
    else callFailed();
  }
}

/** Whether the answer relayed to the client is an upstream's success (the proxy's own answers are errors). */
function upstreamSucceeded(res: ServerResponse): boolean {
  return res.headersSent && res.statusCode >= 200 && res.statusCode <= 299;
}

async function forward(
  context: ChatContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer,
  request: ChatRequest,
  conversation: ReturnType<ProxySessions['conversation']> | null,
  extraHeaders: Record<string, string>,
  abort: AbortController,
): Promise<void> {
  const response = await fetchUpstream(context, req, res, body, abort);
  if (!response) return;
  relayHead(response, res, extraHeaders);
  // An error answer is not a model step: relayed as it came, nothing counted.
  if (response.status < 200 || response.status > 299 || !conversation) {
    await relayBody(response, res);
    res.end();
    return;
  }
  let counted: Promise<unknown>;
  if (request.stream) {
    const step = new StreamedStep();
    await relayBody(response, res, (chunk) => step.push(chunk));
    counted = context.sessions.countStep(conversation, step.step());
  } else {
    const bytes = await readBody(response);
    counted = context.sessions.countStep(conversation, stepOfCompletion(parseJson(bytes)));
    res.write(bytes);
  }
  // The count is queued before the answer ends, so the client's next request sees its nudge.
  res.end();
  await counted.catch((error: unknown) => context.log(`engram proxy: counting the step failed: ${describe(error)}`));
}

/** The upstream's answer, or null after telling the client it could not be reached. */
export async function fetchUpstream(
  context: ChatContext,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | null,
  abort: AbortController = abortOnClose(res),
): Promise<UpstreamAnswer | null> {
  // The client hung up already: no upstream call it would not read (and the user would pay for).
  if (abort.signal.aborted || res.destroyed) return null;
  const method = req.method ?? 'GET';
  try {
    return await context.client.request(upstreamUrl(context.upstream, req.url ?? '/'), {
      method,
      headers: upstreamHeaders(req.headers),
      body: body && method !== 'GET' && method !== 'HEAD' ? body : null,
      signal: abort.signal,
    });
  } catch (error) {
    if (abort.signal.aborted) return null;
    const message = `the upstream ${context.upstream.origin} did not answer (${describe(error)}): check --upstream and that it is running`;
    sendJson(res, 502, openAiError(message, 'upstream_error', 'upstream_unreachable'));
    return null;
  }
}

/** A controller aborted when the client's connection closes. */
function abortOnClose(res: ServerResponse): AbortController {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  return abort;
}

function headerValue(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.trim().length > 0 ? text.trim() : null;
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
