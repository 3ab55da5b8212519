/**
 * `engram mcp` answering what a broken client sends: every request that carries an id gets an
 * answer (a silent drop leaves the client waiting forever), and a wrong argument is the
 * client's mistake (-32602 with one line naming the field), not an internal error.
 */
import { spawn } from 'node:child_process';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { childEnv, CLI, dbIn, LEXICAL, makeTempDir } from '../cli/helpers.js';

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string };
}

/** Sends `messages` (lines) after initializing, and collects the answers to ids 10 and up. */
async function exchange(
  dir: string,
  lines: readonly string[],
  expected: number,
): Promise<{ answers: Answer[]; code: number | null }> {
  const child = spawn(process.execPath, [CLI, 'mcp', '--db', dbIn(dir)], { cwd: dir, env: childEnv(LEXICAL), stdio: 'pipe' });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  for (const line of lines) child.stdin.write(`${line}\n`);
  const answers = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Answer)
      .filter((answer) => answer.id >= 10);
  await new Promise<void>((resolve) => {
    const deadline = Date.now() + 10_000;
    const check = () => (answers().length >= expected || Date.now() > deadline ? resolve() : setTimeout(check, 20));
    check();
  });
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { answers: answers().sort((a, b) => a.id - b.id), code };
}

describe('engram mcp (stdio) with a broken client', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.remove());

  it('answers a request whose params are not an object with -32600 instead of dropping it', { timeout: 30_000 }, async () => {
    const { answers, code } = await exchange(
      temp.dir,
      [
        JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: null }),
        JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'ping', params: [] }),
        'not json at all',
        JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'ping' }),
      ],
      3,
    );
    expect(code).toBe(0);
    expect(answers.map((answer) => [answer.id, answer.error?.code ?? 'result'])).toEqual([
      [10, -32600],
      [11, -32600],
      [12, 'result'],
    ]);
  });

  it('answers tool arguments of the wrong type with -32602 and one line naming the field', { timeout: 30_000 }, async () => {
    const { answers } = await exchange(
      temp.dir,
      [
        JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'think', arguments: 42 } }),
        JSON.stringify({ jsonrpc: '2.0', id: 11, method: 'prompts/get', params: { name: 'session_start', arguments: { a: 1 } } }),
        JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'resources/read', params: { uri: 'not a uri' } }),
      ],
      3,
    );
    expect(answers.map((answer) => answer.error?.code)).toEqual([-32602, -32602, -32602]);
    for (const answer of answers) expect(answer.error?.message).not.toContain('\n');
    expect(answers[0]?.error?.message).toMatch(/tools\/call: params\.arguments: Invalid input/);
  });
});
