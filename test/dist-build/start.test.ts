/**
 * `npm start` (scripts/start.mjs) on a small project laid out like Engram's, whose `engram`
 * binary prints its arguments: it serves at once from a current dist/ (the stamp is untouched),
 * builds first when a source changed, and says a port is taken before it builds anything.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer, type Server as NetServer } from 'node:net';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type Fixture, makeFixture, ROOT } from './fixture.js';

/** Listens on a free loopback port until closed. */
async function holdPort(server: NetServer | Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('npm start', () => {
  let built: Fixture;
  beforeAll(async () => {
    built = makeFixture();
    const result = await built.run('build.mjs');
    expect(result.code, result.stderr).toBe(0);
  }, 120_000);
  afterAll(() => built?.remove());

  let project: Fixture;
  beforeEach(() => {
    project = built.clone();
  });
  afterEach(() => project.remove());

  it('is scripts/start.mjs', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(manifest.scripts.start).toBe('node scripts/start.mjs');
  });

  it('serves from a current dist/ without building: engram serve with the options given after --', async () => {
    const stamp = project.stamp();
    const result = await project.run('start.mjs', ['--port', '0', '--db', 'x.db']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual({ argv: ['serve', '--port', '0', '--db', 'x.db'], version: 'one' });
    expect(project.stamp()).toBe(stamp);
  });

  it('builds first when a source changed, then serves the new build', async () => {
    const stamp = project.stamp();
    project.writeSource('version.ts', "export const VERSION: string = 'two';\n");
    const result = await project.run('start.mjs', ['--port', '0']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^building dist\/ \(sources changed since dist\/ was built\)/);
    expect(JSON.parse(result.stdout)).toEqual({ argv: ['serve', '--port', '0'], version: 'two' });
    expect(project.stamp()).not.toBe(stamp);
  });

  it('says the port is taken, and which one is free, before building anything', async () => {
    const fresh = makeFixture();
    const holder = createServer();
    try {
      const port = await holdPort(holder);
      const result = await fresh.run('start.mjs', ['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^engram: port ${port} on 127\\.0\\.0\\.1 is in use: another program holds it\\. ` +
            `Choose another port with npm start -- --port \\d+\\n$`,
        ),
      );
      expect(existsSync(path.join(fresh.dir, 'dist'))).toBe(false);
    } finally {
      holder.close();
      fresh.remove();
    }
  });

  it('names the Engram already serving on the port', async () => {
    const engram = createHttpServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ status: 'ok', version: '0.1.0' }));
    });
    try {
      const port = await holdPort(engram);
      const stamp = project.stamp();
      const result = await project.run('start.mjs', ['--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `engram: port ${port} on 127.0.0.1 is in use: Engram is already serving there (http://127.0.0.1:${port}/).`,
      );
      expect(project.stamp()).toBe(stamp);
    } finally {
      engram.close();
    }
  });

  it('says how to write an option that npm kept for itself (npm start --port 7080)', async () => {
    // What npm hands the script for `npm start --port 7080`: the value alone, the flag in its config.
    const result = await project.run('start.mjs', ['7080'], { npm_config_port: 'true' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `engram: engram serve's options go after "--" (npm kept --port for itself): write npm start -- --port 7080\n`,
    );
  });
});
