/**
 * A database driver loads only when chosen. Child processes run the built package by its name
 * (`engram`, as an installed program would) with a loader hook that records every module the ESM
 * loader resolves (test/fixtures/loaded-modules/), and print `require.cache` (CommonJS packages
 * such as `pg` load their own files through it). Together they are every module the process loaded.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type PostgresServer, startPostgres } from './fixtures/postgres-server.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const register = fileURLToPath(new URL('fixtures/loaded-modules/register.mjs', import.meta.url));

const PG = /\/node_modules\/(pg|pg-[a-z-]+)\//;
const SQLITE = /\/node_modules\/(better-sqlite3|sqlite-vec[a-z0-9-]*)\//;
const COMPROMISE = /\/node_modules\/compromise(-dates)?\//;
const LANGCHAIN = /\/node_modules\/@langchain\//;
const OPENAI_AGENTS = /\/node_modules\/@openai\/agents/;

let directory: string;
let runs = 0;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-driver-loading-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** Runs `body` (an ES module's code) in a child process from the checkout; the modules it loaded, as paths or URLs. */
async function modulesLoadedBy(body: string, env: Record<string, string> = {}): Promise<string[]> {
  const record = path.join(directory, `resolved-${++runs}.txt`);
  const code = `${body}\nconst { createRequire } = await import('node:module');\nprocess.stdout.write(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', register, '--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, ...env, ENGRAM_LOADED_MODULES: record },
  });
  const resolved = readFileSync(record, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  return [...resolved, ...(JSON.parse(stdout) as string[])];
}

describe('database drivers', () => {
  it('a program that opens a SQLite engine, checks and copies its file loads better-sqlite3 and no module of pg', async () => {
    const loaded = await modulesLoadedBy(
      `
      import { openEngram } from 'engram';
      import { backupDatabase, doctorDatabase } from 'engram/maintenance';
      const file = process.env.DB;
      const engram = await openEngram({ path: file, embedder: null });
      await engram.remember('Deploys happen on Tuesdays');
      if ((await engram.search('deploys')).length !== 1) throw new Error('the memory was not found');
      await engram.close();
      if (!(await doctorDatabase({ path: file, embedder: null })).healthy) throw new Error('the file is not healthy');
      await backupDatabase({ path: file, to: file + '.copy' });
      `,
      { DB: path.join(directory, 'engram.db') },
    );
    expect(loaded.filter((module) => SQLITE.test(module))).not.toEqual([]);
    expect(loaded.filter((module) => PG.test(module))).toEqual([]);
  });

  it('importing the public entries other than the drivers loads no database driver', async () => {
    const loaded = await modulesLoadedBy(`
      for (const entry of ['engram', 'engram/tools', 'engram/model', 'engram/maintenance', 'engram/store', 'engram/ai-sdk']) {
        await import(entry);
      }
    `);
    expect(loaded.some((module) => module.endsWith('/dist/entries/maintenance.js'))).toBe(true);
    expect(loaded.filter((module) => PG.test(module) || SQLITE.test(module))).toEqual([]);
    // LangGraph, an optional peer dependency, loads only with engram/langgraph.
    expect(loaded.filter((module) => LANGCHAIN.test(module))).toEqual([]);
    expect(loaded.filter((module) => OPENAI_AGENTS.test(module))).toEqual([]);
  });

  it('engram/openai-agents loads the OpenAI Agents SDK and no database driver', async () => {
    const loaded = await modulesLoadedBy(`await import('engram/openai-agents');`);
    expect(loaded.filter((module) => OPENAI_AGENTS.test(module))).not.toEqual([]);
    expect(loaded.filter((module) => PG.test(module) || SQLITE.test(module))).toEqual([]);
  });

  it('engram/langgraph loads LangGraph’s store interface and no database driver', async () => {
    const loaded = await modulesLoadedBy(`await import('engram/langgraph');`);
    expect(loaded.filter((module) => /\/node_modules\/@langchain\/langgraph-checkpoint\//.test(module))).not.toEqual([]);
    expect(loaded.filter((module) => PG.test(module) || SQLITE.test(module))).toEqual([]);
  });

  it('engram/sqlite and engram/postgres load their own driver', async () => {
    const sqlite = await modulesLoadedBy(`await import('engram/sqlite');`);
    expect(sqlite.filter((module) => SQLITE.test(module))).not.toEqual([]);
    expect(sqlite.filter((module) => PG.test(module))).toEqual([]);
    const postgres = await modulesLoadedBy(`await import('engram/postgres');`);
    expect(postgres.filter((module) => PG.test(module))).not.toEqual([]);
    expect(postgres.filter((module) => SQLITE.test(module))).toEqual([]);
  });

  it('the engram command loads the entity extractor only to write, and no module of pg on a SQLite file', async () => {
    const cli = (args: string) => `
      const { runCli } = await import('./dist/surfaces/cli/run-cli.js');
      const write = process.stdout.write;
      process.stdout.write = () => true; // the command's own output; the modules are printed after it
      const code = await runCli([process.execPath, 'engram', ${args}, '--db', process.env.DB]);
      process.stdout.write = write;
      if (code !== 0) throw new Error('the command failed');
      `;
    const env = { DB: path.join(directory, 'engram.db'), ENGRAM_EMBEDDING__PROVIDER: 'none', ENGRAM_DAEMON__ENABLED: 'false' };
    const add = await modulesLoadedBy(cli(`'add', 'Alice deploys on Tuesdays'`), env);
    expect(add.filter((module) => COMPROMISE.test(module))).not.toEqual([]);
    const search = await modulesLoadedBy(cli(`'search', 'deploys'`), env);
    expect(search.filter((module) => SQLITE.test(module))).not.toEqual([]);
    expect(search.filter((module) => PG.test(module) || COMPROMISE.test(module))).toEqual([]);
  });

  describe('PostgreSQL', () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgres();
    }, 120_000);
    afterAll(() => server?.stop());

    it('a program that opens a PostgreSQL engine loads pg and no module of better-sqlite3 or sqlite-vec', async () => {
      const url = await server.createDatabase('driver_loading');
      const loaded = await modulesLoadedBy(
        `
        import { openEngram } from 'engram';
        const engram = await openEngram({ config: { store: { url: process.env.URL } }, embedder: null });
        await engram.remember('Deploys happen on Tuesdays');
        if ((await engram.search('deploys')).length !== 1) throw new Error('the memory was not found');
        await engram.close();
        `,
        { URL: url },
      );
      expect(loaded.filter((module) => PG.test(module))).not.toEqual([]);
      expect(loaded.filter((module) => SQLITE.test(module))).toEqual([]);
    });
  });
});
