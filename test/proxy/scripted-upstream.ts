/**
 * An honest stand-in for a hosted model: a real HTTP server on loopback speaking the Chat
 * Completions API, answering each request with the next reply of a script (JSON, server-sent
 * events, or an error), and recording what it received.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ChatMessage = { role: string; content?: unknown; tool_calls?: unknown; tool_call_id?: string };
export type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

/** One scripted reply. */
export type Reply =
  | { kind: 'message'; content: string | null; toolCalls?: ToolCall[] }
  | { kind: 'error'; status: number; body: string; headers?: Record<string, string> };

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: { messages: ChatMessage[]; stream?: boolean } & Record<string, unknown>;
  raw: string;
}

export interface ScriptedUpstream {
  /** Base URL, as an OpenAI client's baseURL: `http://127.0.0.1:PORT/v1`. */
  url: string;
  received: Received[];
  /** Chunks of the last streamed answer, as sent. */
  streamedChunks: number;
  script(replies: Reply[]): void;
  close(): Promise<void>;
}

let calls = 0;
export function toolCall(name: string, args: Record<string, unknown>): ToolCall {
  calls += 1;
  return { id: `call_${calls}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

export async function startScriptedUpstream(): Promise<ScriptedUpstream> {
  let replies: Reply[] = [];
  const state: ScriptedUpstream = {
    url: '',
    received: [],
    streamedChunks: 0,
    script: (next) => {
      replies = [...next];
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw) as Received['body'];
      state.received.push({ path: req.url ?? '', headers: req.headers, body, raw });
      const reply = replies.shift();
      if (!reply) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"the script ran out"}}');
        return;
      }
      if (reply.kind === 'error') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers }).end(reply.body);
        return;
      }
      const message = { role: 'assistant', content: reply.content, ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}) };
      const finish = reply.toolCalls ? 'tool_calls' : 'stop';
      if (!body.stream) {
        res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${state.received.length}` });
        res.end(
          JSON.stringify({
            id: `chatcmpl-${state.received.length}`,
            object: 'chat.completion',
            created: 1_770_000_000,
            model: String(body.model),
            choices: [{ index: 0, message, finish_reason: finish }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
        `data: ${JSON.stringify({
          id: `chatcmpl-${state.received.length}`,
          object: 'chat.completion.chunk',
          created: 1_770_000_000,
          model: String(body.model),
          choices: [{ index: 0, delta, finish_reason: finishReason }],
        })}\n\n`;
      const events = [chunk({ role: 'assistant', content: '' })];
      for (const word of (reply.content ?? '').split(/(?<= )/).filter(Boolean)) events.push(chunk({ content: word }));
      (reply.toolCalls ?? []).forEach((call, index) => {
        events.push(
          chunk({
            tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
          }),
        );
        events.push(chunk({ tool_calls: [{ index, function: { arguments: call.function.arguments } }] }));
      });
      events.push(chunk({}, finish), 'data: [DONE]\n\n');
      state.streamedChunks = events.length;
      // One event per write, a moment apart, so the proxy relays a real stream.
      let index = 0;
      const next = () => {
        const event = events[index++];
        if (event === undefined) res.end();
        else res.write(event, () => setTimeout(next, 2));
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}
