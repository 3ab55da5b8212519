/**
 * Engram's recall for any program that talks to an OpenAI-compatible API, by changing one line:
 * its base URL points at `engram proxy` instead of the upstream.
 * Run it with `npx tsx examples/openai-proxy.ts` (after `npm ci && npm run build`).
 *
 *   const openai = new OpenAI({ baseURL: 'http://127.0.0.1:7078/v1', defaultHeaders: { 'x-engram-session': 'alice-1' } });
 *
 * The upstream here is a scripted server on loopback that answers like a model would and prints
 * what it received; the proxy is the real `engram proxy` command, in its own process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import OpenAI from 'openai';

import { openEngram } from '../src/index.js';

const CLI = fileURLToPath(new URL('../dist/surfaces/cli/main.js', import.meta.url));

/** The upstream: answers each request with the next scripted text, streamed when asked. */
async function scriptedUpstream(answers: string[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; stream?: boolean; messages: { role: string; content: string }[] };
      console.log(
        `[upstream] received ${body.messages.length} messages; key ${req.headers.authorization ? 'present' : 'absent'}`,
      );
      const second = body.messages[1];
      // Engram's recall block, when it has one for this message, is the system message at position 1.
      if (second?.role === 'system') console.log(`[upstream] position 1 (system):\n${second.content}`);
      else console.log('[upstream] no recall block this turn (the memory was just shown: its cooldown holds it back)');
      const content = answers.shift() ?? 'The script ran out.';
      const base = { id: 'chatcmpl-1', created: 1_770_000_000, model: body.model };
      if (!body.stream) {
        const choice = { index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' };
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ...base, object: 'chat.completion', choices: [choice] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      for (const word of content.split(/(?<= )/)) res.write(chunk({ content: word }, null));
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

/** Starts `engram proxy` and reads where it listens from its first line. */
async function startProxy(upstream: string, db: string): Promise<{ child: ChildProcess; url: string }> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [CLI, 'proxy', '--upstream', upstream, '--port', '0', '--json', '--db', db], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout?.setEncoding('utf8') ?? child, 'data')) as [string];
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

export async function main(directory = mkdtempSync(path.join(os.tmpdir(), 'engram-proxy-example-'))): Promise<void> {
  const db = path.join(directory, 'engram.db');
  const engram = await openEngram({ path: db });
  await engram.remember({ text: 'Invoices are exported every Friday at 17:00 as CSV.', scope: 'global' });
  await engram.close();

  const upstream = await scriptedUpstream(['Every Friday at 17:00, as CSV.', 'The export runs Fridays at 17:00.']);
  const proxy = await startProxy(upstream.url, db);
  console.log(`[proxy] listening at ${proxy.url}, forwarding to ${upstream.url}`);

  // The one-line change: the client's base URL is the proxy's.
  const openai = new OpenAI({ baseURL: proxy.url, apiKey: 'sk-your-key', defaultHeaders: { 'x-engram-session': 'alice-1' } });
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: 'system', content: 'You are a helpful assistant.' },
    { role: 'user', content: 'When are invoices exported?' },
  ];
  const answer = await openai.chat.completions.create({ model: 'any-model', messages });
  console.log(`[client] ${answer.choices[0]?.message.content}`);

  messages.push(answer.choices[0]?.message ?? { role: 'assistant', content: '' }, {
    role: 'user',
    content: 'And at what time does the invoice export run?',
  });
  let streamed = '';
  for await (const chunk of await openai.chat.completions.create({ model: 'any-model', messages, stream: true })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
  }
  console.log(`[client, streamed] ${streamed}`);

  proxy.child.kill('SIGTERM');
  await once(proxy.child, 'exit');
  upstream.server.close();
  rmSync(directory, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
