/**
 * `engram doctor` and `engram backup` of the real CLI on a PostgreSQL database (a server the
 * test starts itself): a healthy store exits 0, a store with a fault prints the finding with
 * its fix and exits 1, `--repair --json` prints a report that parses and fixes it, an
 * unreachable server is a one-line error, and `backup` says in one line to use pg_dump.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { DoctorReport } from '../../src/entries/maintenance.js';
import { type PostgresServer, startPostgres } from '../fixtures/postgres-server.js';
import { expectOneLineError, LEXICAL, makeTempDir, runCli, runOk } from './helpers.js';

let server: PostgresServer;
let databases = 0;

beforeAll(async () => {
  server = await startPostgres();
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function sql(url: string, text: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe('engram doctor on PostgreSQL', () => {
  let dir: string;
  let remove: () => void;
  let url: string;

  beforeEach(async () => {
    ({ dir, remove } = makeTempDir());
    url = await server.createDatabase(`cli_doctor_${++databases}`);
  });
  afterEach(() => remove());

  it('exits 0 on a healthy store, 1 with the finding and its fix on a damaged one, and repairs it', async () => {
    const run = { cwd: dir, env: LEXICAL };
    await runOk(['--store', url, 'add', 'The billing service uses PostgreSQL 15'], run);
    await runOk(['--store', url, 'add', 'Alice prefers green tea'], run);

    const healthy = await runCli(['--store', url, 'doctor'], run);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect(healthy.stdout).toMatch(/^notice +integrity +PostgreSQL .* answers; .*amcheck is not used/m);
    expect(healthy.stdout).toMatch(/^ok +full-text +2 memories indexed/m);
    expect(healthy.stdout).toMatch(
      /^healthy: postgres:\/\/engram:\*\*\*@127\.0\.0\.1:\d+\/cli_doctor_\d+ \(schema \d+\) passes every check$/m,
    );
    expect(healthy.stdout).not.toContain(server.password);

    await sql(url, `UPDATE memories SET search_vector = ''::tsvector WHERE text LIKE 'The billing%'`);
    const damaged = await runCli(['--store', url, 'doctor'], run);
    expect(damaged.code).toBe(1);
    expect(damaged.stdout).toMatch(
      /^problem +full-text +1 memory without full-text words \(\w+\): search by words cannot find them — engram doctor --repair writes their words again$/m,
    );
    expect(damaged.stdout).toMatch(/^1 problem in .*: run engram doctor --repair$/m);

    const repaired = await runCli(['--store', url, 'doctor', '--repair', '--json'], run);
    expect(repaired.code, repaired.stderr).toBe(0);
    const report = JSON.parse(repaired.stdout) as DoctorReport;
    expect(report.healthy).toBe(true);
    expect(report.repairs).toEqual([{ check: 'full_text', message: 'wrote the full-text words of 1 memory again' }]);
    expect(report.before?.some((finding) => finding.status === 'problem')).toBe(true);
    expect(await sql(url, `SELECT count(*)::int AS n FROM memories`)).toEqual([{ n: 2 }]);

    const search = await runOk(['--store', url, 'search', 'billing'], run);
    expect(search).toContain('The billing service uses PostgreSQL 15');
  }, 60_000);

  it('reads the store from ENGRAM_STORE_URL and prints a --json report that parses', async () => {
    const run = { cwd: dir, env: { ...LEXICAL, ENGRAM_STORE_URL: url } };
    await runOk(['add', 'Deploys happen on Tuesdays'], run);

    const result = await runCli(['doctor', '--json'], run);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.healthy).toBe(true);
    expect(report.findings.map((finding) => finding.check)).toEqual([
      'integrity',
      'schema',
      'full_text',
      'vectors',
      'embedder',
      'sessions',
      'graph',
    ]);
  }, 60_000);

  it('says in one line that the server does not answer, and that backup is pg_dump’s job', async () => {
    const run = { cwd: dir, env: LEXICAL };
    expectOneLineError(
      await runCli(['--store', 'postgres://engram:secret@127.0.0.1:1/engram', 'doctor'], run),
      /^engram: PostgreSQL at postgres:\/\/engram:\*\*\*@127\.0\.0\.1:1\/engram: nothing accepts connections there/,
    );
    expectOneLineError(
      await runCli(['--store', url, 'backup', 'copy.db'], run),
      /engram backup works on a SQLite file only: back up PostgreSQL with pg_dump/,
    );
  }, 60_000);
});
