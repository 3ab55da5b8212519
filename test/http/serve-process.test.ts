/**
 * `engram serve` as a real child process: what it prints, where it keeps the database, the
 * API through it, graceful shutdown under load, and the binds it refuses.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, LEXICAL, makeTempDir, readDatabase, runCli, spawnCli } from '../cli/helpers.js';
import { expectApiError, send, startServeProcess } from './helpers.js';

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
    expect(manifest.scripts.start).toMatch(/dist\/surfaces\/cli\/main\.js serve$/);

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

  it('finishes accepted writes when stopped under load, and loses none of them', async () => {
    const server = await startServeProcess(temp.dir, ['--db', path.join(temp.dir, 'load.db')]);
    const requests = Array.from({ length: 60 }, (_, i) =>
      send(server.url, 'POST', '/v1/memories', { body: { text: `memory ${i} written under load` } }).catch(() => null),
    );
    await Promise.race(requests);
    const stopped = server.stop('SIGTERM');
    const replies = await Promise.all(requests);
    expect((await stopped).code).toBe(0);
    const accepted = replies
      .filter((reply) => reply?.status === 201)
      .map((reply) => (reply?.body as { memory: { id: string } }).memory.id);
    // Anything refused was refused cleanly: a 503 while draining, or a connection that was never accepted.
    for (const reply of replies) if (reply && reply.status !== 201) expectApiError(reply, 503, 'shutting_down');
    expect(accepted.length).toBeGreaterThan(0);
    const stored = (readDatabase(path.join(temp.dir, 'load.db')).memories as { id: string }[]).map((row) => row.id);
    expect(stored.sort()).toEqual(accepted.sort());
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
