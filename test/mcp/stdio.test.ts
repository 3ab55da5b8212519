/** `engram mcp` as a real child process, driven by the MCP SDK's own client over stdio. */
import { spawn } from 'node:child_process';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { childEnv, CLI, dbIn, LEXICAL, makeTempDir } from '../cli/helpers.js';
import { connectStdio, exerciseEveryTool, expectSessionContext } from './helpers.js';

describe('engram mcp (stdio)', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.remove());

  it('lists the memory tools and answers a call to each one', async () => {
    const { client, protocolErrors } = await connectStdio(temp.dir, ['--db', dbIn(temp.dir), '--scope', 'project:x']);
    try {
      await exerciseEveryTool(client);
      expect(protocolErrors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('serves the session-start prompt and the context and receipt resources', async () => {
    const { client } = await connectStdio(temp.dir, ['--db', dbIn(temp.dir)]);
    try {
      await exerciseEveryTool(client);
      await expectSessionContext(client);
    } finally {
      await client.close();
    }
  });

  it('hands the handoff note of one connection to the next one', async () => {
    const first = await connectStdio(temp.dir, ['--scope', 'project:x']);
    await first.client.callTool({ name: 'write_session_handoff', arguments: { content: 'Left off at the CSV importer' } });
    await first.client.close();
    const second = await connectStdio(temp.dir, ['--scope', 'project:x']);
    try {
      const prompt = await second.client.getPrompt({ name: 'session_start' });
      expect((prompt.messages[0]?.content as { text: string }).text).toContain('Left off at the CSV importer');
    } finally {
      await second.client.close();
    }
  });

  it('writes nothing but JSON-RPC messages to standard output and exits 0 when the client hangs up', async () => {
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'think', arguments: { thought: 'a raw call' } } },
      { jsonrpc: '2.0', id: 4, method: 'prompts/get', params: { name: 'session_start' } },
    ];
    const child = spawn(process.execPath, [CLI, 'mcp', '--db', dbIn(temp.dir)], {
      cwd: temp.dir,
      env: childEnv(LEXICAL),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    for (const message of messages) child.stdin.write(`${JSON.stringify(message)}\n`);
    // Hang up only once every answer is in, as a client would.
    await new Promise<void>((resolve) => {
      const check = () => (stdout.split('\n').filter(Boolean).length >= 4 ? resolve() : setTimeout(check, 20));
      check();
    });
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n').filter((line) => line.length > 0);
    const parsed = lines.map((line) => JSON.parse(line) as { jsonrpc: string; id: number; result?: unknown });
    expect(parsed.map((message) => message.jsonrpc)).toEqual(['2.0', '2.0', '2.0', '2.0']);
    // Answers to concurrent requests may come in any order.
    expect(parsed.map((message) => message.id).sort()).toEqual([1, 2, 3, 4]);
    expect(JSON.stringify(parsed.find((message) => message.id === 3)?.result)).toContain('Thought recorded.');
    expect(stderr).toMatch(/engram mcp: serving session \S+ \(scope global\) over stdio/);
    expect(stderr).toMatch(/session \S+ ended/);
  });
});
