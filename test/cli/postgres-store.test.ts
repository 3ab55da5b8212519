/**
 * The real CLI on a PostgreSQL database (a server the test starts itself): chosen with
 * `--store`, ENGRAM_STORE_URL or `[store] url` in engram.toml, adding and searching memories
 * with no SQLite file made; one-line errors for a bad URL, an unreachable server and a refused
 * password; and `export` from SQLite then `import` into PostgreSQL giving the same memories.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type PostgresServer, startPostgres } from '../fixtures/postgres-server.js';
import { expectOneLineError, exportMemories, LEXICAL, makeTempDir, parseJsonLines, runCli, runJson, runOk } from './helpers.js';

let server: PostgresServer;
let databases = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

interface Hit {
  memory: { id: string; text: string };
}

describe('engram on PostgreSQL', () => {
  let dir: string;
  let remove: () => void;
  let url: string;

  beforeEach(async () => {
    ({ dir, remove } = makeTempDir());
    url = await server.createDatabase(`cli_${++databases}`);
  });
  afterEach(() => remove());

  it('adds and searches memories in the database --store names, and makes no SQLite file', async () => {
    const run = { cwd: dir, env: LEXICAL };
    await runOk(['--store', url, 'add', 'The billing service uses PostgreSQL 15', '--kind', 'fact'], run);
    await runOk(['--store', url, 'add', 'Alice prefers green tea'], run);

    const hits = await runJson<Hit[]>(['--store', url, 'search', 'billing database', '--json'], run);

    expect(hits.map((hit) => hit.memory.text)).toEqual(['The billing service uses PostgreSQL 15']);
    expect(existsSync(path.join(dir, '.engram'))).toBe(false);
  }, 60_000);

  it('takes the database from ENGRAM_STORE_URL and from [store] url in engram.toml', async () => {
    await runOk(['add', 'Deploys happen on Tuesdays'], { cwd: dir, env: { ...LEXICAL, ENGRAM_STORE_URL: url } });
    writeFileSync(path.join(dir, 'engram.toml'), `[store]\nurl = "${url}"\n`);

    const hits = await runJson<Hit[]>(['search', 'deploys', '--json'], { cwd: dir, env: LEXICAL });

    expect(hits.map((hit) => hit.memory.text)).toEqual(['Deploys happen on Tuesdays']);
    expect(existsSync(path.join(dir, '.engram'))).toBe(false);
  }, 60_000);

  it('reports an unreachable server, a refused password, a URL that is no PostgreSQL one and a file-only command in one line', async () => {
    const run = { cwd: dir, env: LEXICAL };
    expectOneLineError(
      await runCli(['--store', 'postgres://engram@127.0.0.1:1/engram', 'add', 'x'], run),
      /nothing accepts connections there: is the server running/,
    );
    const wrong = url.replace(server.password, 'not-the-password');
    const refused = expectOneLineError(await runCli(['--store', wrong, 'search', 'x'], run), /the password was refused/);
    expect(refused).not.toContain('not-the-password');
    expectOneLineError(await runCli(['--store', 'engram.db', 'list'], run), /--store takes a postgres:\/\/ URL .* use --db/);
    const notPostgres = expectOneLineError(
      await runCli(['--store', 'mysql://engram:p@ss-secret@127.0.0.1/engram', 'list'], run),
      /--store takes a postgres:\/\/ URL \(got "mysql:\/\/engram:\*\*\*@127\.0\.0\.1\/engram"\)/,
    );
    expect(notPostgres).not.toContain('ss-secret');
    const atInPassword = expectOneLineError(
      await runCli(['--store', 'postgres://engram:p@ss-secret@127.0.0.1:1/engram', 'add', 'x'], run),
      /nothing accepts connections there/,
    );
    expect(atInPassword).not.toContain('ss-secret');
    expectOneLineError(
      await runCli(['--store', url, 'backup', 'copy.db'], run),
      /engram backup works on a SQLite file only: .*pg_dump/,
    );
    writeFileSync(path.join(dir, 'engram.toml'), `[store]\nurl = "mysql://localhost/x"\n`);
    expectOneLineError(await runCli(['list'], run), /store\.url must be empty .* or a postgres:\/\/ URL/);
  }, 60_000);

  it('imports what SQLite exported and exports the same memories again', async () => {
    const run = { cwd: dir, env: LEXICAL };
    await runOk(['add', 'Alice prefers short answers', '--kind', 'preference', '--tag', 'style', '--scope', 'user:alice'], run);
    await runOk(['add', 'Standup is at 9:30', '--key', 'standup', '--kind', 'fact', '--tier', 'must'], run);
    await runOk(['add', 'Standup is at 10:00', '--key', 'standup', '--kind', 'fact', '--tier', 'must'], run);
    const archived = await runJson<{ id: string }>(['add', 'Old office is in Berlin', '--json'], run);
    await runOk(['forget', archived.id], run);
    await runOk(['add', '-', '--kind', 'note', '--session', 's-1'], { ...run, input: 'ünïcödé, "quotes", emoji 🎉\n' });
    const fromSqlite = await exportMemories(run);
    const file = path.join(dir, 'memories.jsonl');
    writeFileSync(file, `${fromSqlite.map((memory) => JSON.stringify(memory)).join('\n')}\n`);

    await runOk(['--store', url, 'import', file], run);

    const fromPostgres = parseJsonLines<{ id: string }>(await runOk(['--store', url, 'export'], run)).sort((a, b) =>
      a.id.localeCompare(b.id),
    );
    expect(fromSqlite).toHaveLength(5);
    expect(fromPostgres).toEqual(fromSqlite);
    // They are in PostgreSQL itself, not in a file beside the SQLite one.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const stored = await client.query(`SELECT id FROM memories ORDER BY id`);
    await client.end();
    expect(stored.rows.map((row: { id: string }) => row.id)).toEqual(fromSqlite.map((memory) => memory.id));
  }, 60_000);
});
