/**
 * `engram serve` as a real child process: what it prints, where it keeps the database, the
 * API through it, graceful shutdown under load, and the binds it refuses.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { expectOneLineError, LEXICAL, makeTempDir, readDatabase, runCli, spawnCli } from '../cli/helpers.js';
import { holdAfterHeaders, holdBeforeHeadersEnd } from './held-requests.js';
import { expectApiError, type JsonReply, send, startServeProcess } from './helpers.js';

const TOKEN = 'serve-test-token-0123456789';

describe('engram serve', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.remove());

  it('is what npm start runs, on the embedded default database, and says where the API and MCP are', async () => {
    const manifest = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // scripts/start.mjs checks the port, builds if a source changed, then runs `engram serve` (test/dist-build).
    expect(manifest.scripts.start).toBe('node scripts/start.mjs');

    const child = spawnCli(['serve', '--port', '0'], { cwd: temp.dir, env: LEXICAL });
    let stdout = '';
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await new Promise<void>((resolve) =>
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('Ctrl+C')) resolve();
      }),
    );
    expect(stdout).toMatch(/^Engram is serving \.engram\/engram\.db$/m);
    const api = /HTTP API\s+(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(stdout)?.[1];
    expect(api).toBeDefined();
    expect(stdout).toContain(`MCP endpoint  ${api}/mcp`);
    expect(stdout).toContain(`inspector     ${api}/ `);
    expect(stdout).toContain(`${api}/openapi.json`);
    expect(existsSync(path.join(temp.dir, '.engram', 'engram.db'))).toBe(true);

    const created = await send(api as string, 'POST', '/v1/memories', { body: { text: 'Served through the CLI' } });
    expect(created.status).toBe(201);
    const found = await send<{ hits: { memory: { text: string } }[] }>(api as string, 'POST', '/v1/search', {
      body: { query: 'served' },
    });
    expect(found.body.hits[0]?.memory.text).toBe('Served through the CLI');

    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stderr).toMatch(/^engram serve: stopping/);
  });

  it('finishes the writes it began when stopped, refuses later ones cleanly, and loses none', async () => {
    const db = path.join(temp.dir, 'load.db');
    const server = await startServeProcess(temp.dir, ['--db', db]);
    const memory = (i: number) => ({ text: `memory ${i} written under load` });
    const idOf = (reply: JsonReply) => (reply.body as { memory: { id: string } }).memory.id;

    // Acknowledged before the signal.
    const answered = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(server.url, 'POST', '/v1/memories', { body: memory(i) })),
    );
    // Under way at the signal: begun by the server, their bodies still to come.
    const begun = await Promise.all(
      Array.from({ length: 10 }, (_, i) => holdAfterHeaders(server.url, 'POST', '/v1/memories', memory(20 + i))),
    );
    // A search, begun too and finished last: its reply is the last one the server writes before it
    // closes every connection, and it must not be cut off.
    const last = await holdAfterHeaders(server.url, 'POST', '/v1/search', { query: 'memory' });
    // Half-way through its headers at the signal; a round trip after it proves the server has read that half.
    const unbegun = await holdBeforeHeadersEnd(server.url, 'POST', '/v1/memories', memory(30));
    expect((await send(server.url, 'GET', '/health')).status).toBe(200);

    const stopped = server.stop('SIGTERM');
    await vi.waitFor(() => expect(server.stderr()).toMatch(/^engram serve: stopping/m), { timeout: 10_000, interval: 5 });
    expect(server.stderr()).toMatch(/^engram serve: stopping \(finishing 11 request\(s\), then closing the database\)$/m);

    // Refused cleanly: a new connection is not accepted, and a request begun after the signal gets a 503.
    await expect(send(server.url, 'POST', '/v1/memories', { body: memory(31) })).rejects.toThrow();
    expectApiError(await unbegun.finish(), 503, 'shutting_down');
    // Finished: every write begun before the signal.
    const finished = await Promise.all(begun.map((request) => request.finish()));
    const searched = await last.finish();
    expect((await stopped).code).toBe(0);
    expect(searched.status).toBe(200);

    const acknowledged = [...answered, ...finished];
    for (const reply of acknowledged) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const stored = readDatabase(db).memories as { id: string; text: string }[];
    expect(stored.map((row) => row.id).sort()).toEqual(acknowledged.map(idOf).sort());
    expect(stored.map((row) => row.text).sort()).toEqual(Array.from({ length: 30 }, (_, i) => memory(i).text).sort());
  });

  it('refuses to listen beyond loopback without a token, in one line', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], { cwd: temp.dir, env: LEXICAL });
    expectOneLineError(result, /listening on 0\.0\.0\.0 needs a bearer token: set ENGRAM_TOKEN/);
    expect(result.stdout).toBe('');
  });

  it('refuses weak or malformed tokens, naming the variable but never the token', async () => {
    const short = await runCli(['serve', '--port', '0'], { cwd: temp.dir, env: { ...LEXICAL, ENGRAM_TOKEN: 'secret' } });
    expect(expectOneLineError(short, /ENGRAM_TOKEN: a token must be at least 16 characters/)).not.toContain('secret');
    const malformed = await runCli(['serve', '--port', '0'], {
      cwd: temp.dir,
      env: { ...LEXICAL, ENGRAM_TOKENS: `${TOKEN}=acme,${TOKEN}x` },
    });
    expect(expectOneLineError(malformed, /ENGRAM_TOKENS entry 2 is not token=tenant/)).not.toContain(TOKEN);
  });

  it('listens beyond loopback with a token, and asks for it', async () => {
    const server = await startServeProcess(temp.dir, ['--host', '0.0.0.0'], { ...LEXICAL, ENGRAM_TOKEN: TOKEN });
    try {
      expect(server.where.auth).toBe('bearer tokens for 1 tenant(s)');
      const local = server.url.replace('0.0.0.0', '127.0.0.1');
      expectApiError(await send(local, 'GET', '/v1/stats'), 401, 'unauthorized');
      expect((await send(local, 'GET', '/v1/stats', { token: TOKEN })).status).toBe(200);
      expect((await send(local, 'GET', '/health')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('says so in one line when the port is taken or invalid', async () => {
    const first = await startServeProcess(temp.dir);
    try {
      const port = new URL(first.url).port;
      const second = await runCli(['serve', '--port', port], { cwd: temp.dir, env: LEXICAL });
      expectOneLineError(second, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is in use: choose another with --port`));
    } finally {
      await first.stop();
    }
    expectOneLineError(
      await runCli(['serve', '--port', 'http'], { cwd: temp.dir, env: LEXICAL }),
      /--port must be a whole number/,
    );
  });
});
