/**
 * Engram as a Claude Agent SDK agent's memory: its hooks, its memory tools as an in-process MCP
 * server and the tool names to allow, spread into `query()`'s options.
 * Run it with `npx tsx examples/claude-agent-sdk.ts` (after `npm ci`).
 *
 *   const engram = await openEngram({ path: '.engram/engram.db' });
 *   for await (const message of query({ prompt, options: { ...engramForAgentSdk({ engram }) } })) { … }
 *
 * `query()` here is the SDK's own: it runs the Claude Code executable the SDK installs, which
 * calls Engram's hooks and tools in this process. The model is NOT Claude: a scripted stand-in
 * on loopback answers the Messages API (ANTHROPIC_BASE_URL), so the example runs offline and
 * without an account, and prints what the model was sent. Conversation 1 asks the agent to
 * remember a fact and the model stores it with write_memory; conversation 2 runs on a new engine
 * over the same file — a restarted program — and the model's first request already carries the
 * fact, recalled by the UserPromptSubmit hook; in conversation 3 the model reads files, and after
 * two tool calls (`every_tool_turns = 2` here) the PostToolUse hook's nudge reaches it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { query } from '@anthropic-ai/claude-agent-sdk';

import { openEngram } from '../src/index.js';
import { engramForAgentSdk } from '../src/surfaces/claude-agent-sdk/index.js';

type Block = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
interface MessagesRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content: unknown }[];
}

/** Every string of the request a model reads: system prompt, messages, tool results. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (['text', 'content', 'system'].includes(key) ? textsOf(inner) : []));
}

/** How Engram's reflection nudge begins (seed 001). */
const NUDGE = "You've been using tools for a while.";

/** The scripted stand-in for the model: what it answers to the request of `conversation`. */
function answer(conversation: number, request: MessagesRequest & { system?: unknown }, directory: string): Block[] {
  const results = request.messages.flatMap((message) =>
    Array.isArray(message.content) ? message.content.filter((block: { type?: string }) => block.type === 'tool_result') : [],
  ).length;
  const read = textsOf([request.system, request.messages]).join('\n');
  const between = (open: string, close: string) => read.slice(read.indexOf(open), read.indexOf(close) + close.length);
  switch (conversation) {
    case 1:
      if (results === 0) {
        return [
          {
            type: 'tool_use',
            id: 'toolu_remember',
            name: 'mcp__engram__write_memory',
            input: { key: 'billing-database', content: 'Billing keeps its invoices in PostgreSQL 16.' },
          },
        ];
      }
      return [{ type: 'text', text: 'Noted: billing keeps its invoices in PostgreSQL 16.' }];
    case 2:
      console.log(`[conversation 2] the model's first request holds:\n${between('<engram-memories>', '</engram-memories>')}`);
      return [{ type: 'text', text: read.includes('PostgreSQL 16') ? 'In PostgreSQL 16.' : 'I do not know.' }];
    default:
      if (results < 2) {
        const file = ['a.toml', 'b.toml'][results] ?? 'a.toml';
        return [
          { type: 'tool_use', id: `toolu_read_${results}`, name: 'Read', input: { file_path: path.join(directory, file) } },
        ];
      }
      for (const text of textsOf(request.messages).filter((candidate) => candidate.includes(NUDGE))) {
        // Claude Code puts a hook's context next to the tool result, with a line of its own before it.
        console.log(
          `[conversation 3] after ${results} tool calls the model reads:\n${text.slice(text.indexOf(NUDGE)).split('\n')[0]}`,
        );
      }
      return [{ type: 'text', text: 'Both config files read.' }];
  }
}

/** A Messages API on loopback, streaming each scripted answer as the API streams one. */
async function scriptedModel(conversation: () => number, directory: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages') || req.url.includes('count_tokens')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"not_found_error"}}');
        return;
      }
      const request = JSON.parse(raw) as MessagesRequest & { tools?: unknown[] };
      // Claude Code also asks the model small side questions without tools (a title); the script answers those briefly.
      const blocks: Block[] = request.tools?.length
        ? answer(conversation(), request, directory)
        : [{ type: 'text', text: 'Billing' }];
      const stop = blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
      const usage = { input_tokens: 10, output_tokens: 5 };
      const message = { id: `msg_${Date.now()}`, type: 'message', role: 'assistant', model: request.model, usage };
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (type: string, data: object) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      send('message_start', { message: { ...message, content: [], stop_reason: null, stop_sequence: null } });
      blocks.forEach((block, index) => {
        if (block.type === 'text') {
          send('content_block_start', { index, content_block: { type: 'text', text: '' } });
          send('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
        } else {
          send('content_block_start', { index, content_block: { ...block, input: {} } });
          send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
        }
        send('content_block_stop', { index });
      });
      send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage });
      send('message_stop', {});
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-agent-sdk-'))): Promise<void> {
  const file = path.join(directory, 'engram.db');
  writeFileSync(path.join(directory, 'a.toml'), 'retries = 3\n');
  writeFileSync(path.join(directory, 'b.toml'), 'timeout = "30s"\n');
  let conversation = 0;
  const model = await scriptedModel(() => conversation, directory);
  // Claude Code's settings and transcripts go to the temporary folder; the API is the stand-in.
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: directory,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'scripted-model',
    // No telemetry or update checks: the only server Claude Code talks to is the stand-in.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
  const config = { memory: { intrusive: { every_tool_turns: 2 } } };

  async function converse(prompt: string): Promise<void> {
    conversation += 1;
    const engram = await openEngram({ path: file, config });
    const memory = engramForAgentSdk({ engram, scope: 'project:billing' });
    const options = { ...memory, allowedTools: [...memory.allowedTools, 'Read'], cwd: directory, env, maxTurns: 6 };
    console.log(`\n[conversation ${conversation}] user: ${prompt}`);
    for await (const message of query({ prompt, options })) {
      if (message.type === 'assistant') {
        for (const block of message.message.content) {
          if (block.type === 'tool_use') console.log(`[conversation ${conversation}] the model called: ${block.name}`);
        }
      }
      if (message.type === 'result' && message.subtype === 'success')
        console.log(`[conversation ${conversation}] agent: ${message.result}`);
    }
    // As after a restart: the next conversation opens a new engine on the same file.
    await engram.close();
  }

  await converse('Remember that billing keeps its invoices in PostgreSQL 16.');
  await converse('Which database holds the billing invoices?');
  await converse('Check the two config files.');
  model.server.close();
  rmSync(directory, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
