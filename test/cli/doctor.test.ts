/**
 * `engram doctor` as a real process on real files: one line per finding and a summary, exit 0
 * for a healthy database and 1 for one with a problem, the same report as JSON, `--repair`
 * mending a file damaged on purpose (and refusing to write into one damaged beyond that), and
 * with the local model, memories that lost their vector embedded again.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DoctorReport } from '../../src/entries/maintenance.js';
import { LATEST_VERSION } from '../../src/store/sqlite/migrations.js';
import {
  copyDatabase,
  dbIn,
  expectOneLineError,
  LEXICAL,
  makeTempDir,
  runCli,
  runJson,
  runOk,
  writeSyntheticJsonl,
} from './helpers.js';

const CHECKS = 8;

let dir: string;
let remove: () => void;
/** A database seeded once (memories with their graph), copied for each test. */
let seeded: string;
const run = () => ({ cwd: dir, env: LEXICAL });

beforeAll(async () => {
  ({ dir, remove } = makeTempDir());
  seeded = dbIn(dir, 'seeded.db');
  for (const text of ['We chose PostgreSQL for billing', 'Caroline moved to Lyon in May 2023', 'Never deploy on Fridays']) {
    await runOk(['add', text, '--db', seeded], run());
  }
});
afterAll(() => remove());

let copies = 0;
function freshCopy(): string {
  copies += 1;
  const file = dbIn(dir, `copy-${copies}.db`);
  copyDatabase(seeded, file);
  return file;
}

function damage(file: string, ...statements: string[]): void {
  const db = new Database(file);
  try {
    for (const sql of statements) db.exec(sql);
  } finally {
    db.close();
  }
}

function hashOf(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

describe('engram doctor', () => {
  it('prints one line per check and a summary, and exits 0 on a healthy database', async () => {
    const db = freshCopy();
    const lines = (await runOk(['doctor', '--db', db], run())).trimEnd().split('\n');

    expect(lines).toHaveLength(CHECKS + 1);
    for (const line of lines.slice(0, CHECKS)) expect(line).toMatch(/^ok {8}\S/);
    expect(lines[CHECKS]).toBe(`healthy: ${db} (schema ${LATEST_VERSION}) passes every check`);
  });

  it('names each problem and exits 1; --repair mends the file, and the next check passes', async () => {
    const db = freshCopy();
    damage(
      db,
      `INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
         SELECT 'delete', rowid, text, abstract, tags, context FROM memories WHERE text LIKE '%billing%'`,
      `INSERT INTO mentions (entity_rowid, memory_rowid, role) SELECT min(rowid), 9999, 'subject' FROM entities`,
      `DROP INDEX memory_embeddings_by_tenant_prefix`,
    );

    const found = await runCli(['doctor', '--db', db], run());
    expect(found.code).toBe(1);
    expect(found.stderr).toBe('');
    const lines = found.stdout.trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('problem'))).toEqual([
      'problem   schema     1 index or trigger of the schema missing (memory_embeddings_by_tenant_prefix): searches that use them fail or read whole tables, and derived tables can drift from the memories — engram doctor --repair creates them again',
      expect.stringMatching(
        /^problem {3}full-text {2}1 memory missing from the full-text index \(\w+\).* — engram doctor --repair rebuilds the index$/,
      ),
      'problem   graph      broken links: 1 mention of a memory or entity that is gone — engram doctor --repair removes them',
    ]);
    expect(lines.at(-1)).toBe(`3 problems in ${db} (schema ${LATEST_VERSION}): run engram doctor --repair`);

    const json = await runCli(['doctor', '--db', db, '--json'], run());
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as DoctorReport;
    expect(report).toMatchObject({ healthy: false, schemaVersion: LATEST_VERSION, repairs: [] });
    expect(report.findings.filter((finding) => finding.status === 'problem').map((finding) => finding.check)).toEqual([
      'schema',
      'full_text',
      'graph',
    ]);

    const repaired = await runOk(['doctor', '--repair', '--db', db], run());
    expect(repaired).toMatch(
      /^repaired {2}schema {5}created 1 missing index or trigger again \(memory_embeddings_by_tenant_prefix\)\nrepaired {2}full-text {2}rebuilt the full-text index from the memories\n/,
    );
    expect(repaired).toContain('repaired  graph      mended broken links: 1 mention of a memory or entity that is gone\n');
    expect(repaired.trimEnd().split('\n').at(-1)).toBe(
      `healthy: after 3 repairs, ${db} (schema ${LATEST_VERSION}) passes every check`,
    );

    expect((await runJson<DoctorReport>(['doctor', '--db', db], run())).healthy).toBe(true);
    expect(await runOk(['search', 'billing', '--db', db], run())).toContain('We chose PostgreSQL for billing');
  });

  it('exits 1 and leaves a file alone when its table pages are damaged, even with --repair', async () => {
    const db = freshCopy();
    const file = new Database(db, { readonly: true });
    const root = file.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'memories'`).pluck().get() as number;
    const pageSize = file.pragma('page_size', { simple: true }) as number;
    file.close();
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(8, 0xff), 0, 8, (root - 1) * pageSize);
    closeSync(fd);
    const before = hashOf(db);

    const result = await runCli(['doctor', '--repair', '--db', db], run());
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^problem {3}integrity {2}SQLite finds the file damaged: .* — .*: restore a backup/m);
    expect(result.stdout).not.toMatch(/^repaired/m);
    expect(hashOf(db)).toBe(before);
  });

  it('exits 1 on a file from a newer Engram, and changes nothing', async () => {
    const db = freshCopy();
    damage(db, 'PRAGMA user_version = 99');
    const before = hashOf(db);

    const result = await runCli(['doctor', '--repair', '--db', db], run());
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `problem   schema     schema 99, written by a newer Engram (this one understands up to ${LATEST_VERSION})`,
    );
    expect(hashOf(db)).toBe(before);
  });

  it('refuses a database that does not exist in one line, and creates nothing', async () => {
    const db = dbIn(dir, 'missing.db');
    expectOneLineError(await runCli(['doctor', '--db', db], run()), /^engram: no Engram database at .*missing\.db/);
    expect(existsSync(db)).toBe(false);
  });
});

describe('engram doctor with the local model', () => {
  it('embeds again the memories that lost their vector', async () => {
    const db = dbIn(dir, 'local.db');
    const file = dbIn(dir, 'three.jsonl');
    writeSyntheticJsonl(file, 3);
    await runOk(['import', file, '--db', db], { cwd: dir });
    damage(db, `DELETE FROM memory_embeddings WHERE rowid = (SELECT min(rowid) FROM memory_embeddings)`);

    const lexical = await runCli(['doctor', '--db', db], run());
    expect(lexical.code).toBe(1);
    expect(lexical.stdout).toContain(
      'problem   embedder   the database was indexed with local:universal-sentence-encoder-lite (512 dims)',
    );

    const found = await runCli(['doctor', '--db', db], { cwd: dir });
    expect(found.code).toBe(1);
    expect(found.stdout).toMatch(/^problem {3}vectors {4}1 memory without a vector/m);

    const repaired = await runOk(['doctor', '--repair', '--db', db], { cwd: dir });
    expect(repaired).toContain(
      'repaired  vectors    embedded 1 memory that had no vector, with local:universal-sentence-encoder-lite\n',
    );
    expect(repaired).toContain('ok        vectors    3 vectors of 512 dimensions, one for each memory\n');
  }, 60_000);
});
