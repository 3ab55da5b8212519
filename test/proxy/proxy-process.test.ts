/**
 * `engram proxy` as a real child process (the built CLI) between the OpenAI client and a
 * scripted upstream on loopback, with the default local model: recall reaches the upstream, the
 * answer reaches the client, Ctrl+C stops it cleanly; a wrong --upstream is a one-line error.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RECALL_OPEN } from '../../src/context/format.js';
import { openEngram } from '../../src/index.js';
import { expectOneLineError, runCli, spawnCli } from '../cli/helpers.js';
import { type ScriptedUpstream, startScriptedUpstream } from './scripted-upstream.js';

let directory: string;
let upstream: ScriptedUpstream;
beforeAll(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'engram-proxy-'));
  upstream = await startScriptedUpstream();
});
afterAll(async () => {
  await upstream.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('engram proxy, the command', () => {
  it('serves recall between an OpenAI client and the upstream, and stops on SIGTERM', async () => {
    const db = path.join(directory, 'engram.db');
    const engram = await openEngram({ path: db });
    await engram.remember('Invoices are exported every Friday at 17:00 as CSV.');
    await engram.close();
    const child = spawnCli(['proxy', '--upstream', upstream.url, '--port', '0', '--json', '--db', db], { cwd: directory });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [line] = (await once(child.stdout?.setEncoding('utf8') ?? child, 'data')) as [string];
    const where = JSON.parse(line) as { url: string; upstream: string };
    upstream.script([{ kind: 'message', content: 'Fridays at 17:00.' }]);

    const openai = new OpenAI({ baseURL: where.url, apiKey: 'sk-process-key', maxRetries: 0 });
    const completion = await openai.chat.completions.create({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'When are invoices exported?' },
      ],
      user: 'alice',
    });
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];

    expect(where.upstream).toBe(upstream.url);
    expect(completion.choices[0]?.message.content).toBe('Fridays at 17:00.');
    const received = upstream.received.at(-1);
    expect(received?.headers.authorization).toBe('Bearer sk-process-key');
    expect(received?.body.messages[1]?.content).toContain(RECALL_OPEN);
    expect(received?.body.messages[1]?.content).toContain('Invoices are exported every Friday at 17:00 as CSV.');
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('refuses an upstream that is not an http URL, in one line', async () => {
    const result = await runCli(['proxy', '--upstream', 'localhost:11434'], { cwd: directory });
    expectOneLineError(result, /--upstream must be an http:\/\/ or https:\/\/ URL \(got "localhost:11434"\)/);
  });
});
