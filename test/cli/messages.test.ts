/**
 * What the CLI says, tried as a new user would, as real processes: each message says what was
 * wrong and what to do in the command line's own words (its flags and commands, never a library
 * method or option), a command that changes nothing says so instead of claiming it did, and the
 * advice for a damaged file is advice that works.
 */
import { closeSync, existsSync, openSync, statSync, truncateSync, writeSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { DoctorReport } from '../../src/entries/maintenance.js';
import {
  copyDatabase,
  dbIn,
  expectOneLineError,
  type ExportedMemory,
  exportMemories,
  LEXICAL,
  makeTempDir,
  readDatabase,
  runCli,
  runJson,
  runOk,
  writeSyntheticJsonl,
} from './helpers.js';

let dir: string;
let remove: () => void;
const run = () => ({ cwd: dir, env: LEXICAL });
/** A database seeded once (60 memories and a graph); each test that changes one works on a copy. */
let seeded: string;
let copies = 0;
function freshCopy(): string {
  copies += 1;
  const file = dbIn(dir, `copy-${copies}.db`);
  copyDatabase(seeded, file);
  return file;
}

beforeAll(async () => {
  ({ dir, remove } = makeTempDir());
  seeded = dbIn(dir, 'seeded.db');
  const records = path.join(dir, 'records.jsonl');
  writeSyntheticJsonl(records, 60);
  await runOk(['import', records, '--db', seeded], run());
});
afterAll(() => remove());

describe('messages in the command line’s words', () => {
  it('refuses an empty message to recall, naming the argument and not a library method', async () => {
    const db = freshCopy();
    const before = readDatabase(db);
    for (const message of ['', '   ']) {
      const line = expectOneLineError(await runCli(['recall', message, '--db', db], run()), /the message is empty/);
      expect(line).toContain('engram recall "');
      expect(line).not.toMatch(/beforeTurn/);
    }
    expect(readDatabase(db)).toEqual(before);
  });

  it('names the date flag and the forms it takes, and stores nothing', async () => {
    const db = freshCopy();
    const before = readDatabase(db);
    for (const [flag, value] of [
      ['--occurred-at', 'tomorrowish'],
      ['--occurred-at', '2026-02-30'],
      ['--occurred-at', 'May 5 2023'],
    ]) {
      const line = expectOneLineError(
        await runCli(['add', 'A memory with a date', flag as string, value as string, '--db', db], run()),
      );
      expect(line).toBe(
        `engram: ${flag} is not a date: ${JSON.stringify(value)}; give an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z, or today or yesterday`,
      );
    }
    expectOneLineError(
      await runCli(['search', 'memory', '--after', 'last week', '--db', db], run()),
      /^engram: --after is not a date/,
    );
    expectOneLineError(
      await runCli(['search', 'memory', '--before', '31/01/2026', '--db', db], run()),
      /^engram: --before is not a date/,
    );
    expect(readDatabase(db)).toEqual(before);
  });

  it('reads today and yesterday as the local calendar’s days, and ISO dates as given', async () => {
    const db = freshCopy();
    const localDay = (offset: number) => {
      const now = new Date();
      const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
      return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
    };
    const yesterdays = [localDay(-1)];
    const added = await runJson<ExportedMemory>(
      ['add', 'Shipped the billing fix', '--occurred-at', 'yesterday', '--db', db],
      run(),
    );
    yesterdays.push(localDay(-1)); // the day may turn while the command runs
    expect(yesterdays.map((day) => `${day}T00:00:00.000Z`)).toContain(added.occurredAt);
    const exact = await runJson<ExportedMemory>(
      ['add', 'Deployed at nine', '--occurred-at', '2026-01-31T09:00:00+01:00', '--db', db],
      run(),
    );
    expect(exact.occurredAt).toBe('2026-01-31T08:00:00.000Z');
    const hits = await runJson<{ memory: { id: string } }[]>(
      ['search', 'billing fix', '--after', 'yesterday', '--before', '2999-01-01', '--db', db],
      run(),
    );
    expect(hits.map((hit) => hit.memory.id)).toEqual([added.id]);
  });

  it('refuses a --db in a missing folder in the CLI’s words, and creates nothing', async () => {
    const missing = path.join(dir, 'no-such-folder', 'engram.db');
    for (const args of [
      ['add', 'something', '--db', missing],
      ['recall', 'anything', '--db', missing],
    ]) {
      expectOneLineError(
        await runCli(args, run()),
        /^engram: directory \S+no-such-folder does not exist: create it first or choose another --db path$/,
      );
    }
    expect(existsSync(path.dirname(missing))).toBe(false);
  });
});

describe('commands that change nothing say so', () => {
  it('says a live memory is not archived, restores nothing, and exits 0', async () => {
    const db = freshCopy();
    const [memory] = await exportMemories(run(), db);
    const id = (memory as ExportedMemory).id;
    const before = readDatabase(db);

    expect(await runOk(['restore', id, '--db', db], run())).toBe(`${id} is not archived: nothing to restore\n`);
    expect(await runJson(['restore', id, '--db', db], run())).toEqual([
      { id, outcome: 'not_archived', note: `${id} is not archived: nothing to restore` },
    ]);
    expect(readDatabase(db)).toEqual(before);

    expect(await runOk(['forget', id, '--db', db], run())).toBe(`archived ${id}\n`);
    const archived = readDatabase(db);
    expect(await runOk(['forget', id, '--db', db], run())).toBe(
      `${id} is already archived: nothing to forget (engram restore ${id} brings it back; --hard deletes it for good)\n`,
    );
    expect(readDatabase(db)).toEqual(archived);
    expect(await runOk(['restore', id, '--db', db], run())).toBe(`restored ${id}\n`);
  });

  it('deletes an entity once, and the second time says there is no such entity', async () => {
    const db = freshCopy();
    await runOk(['graph', 'add', 'Acme', '--type', 'organization', '--db', db], run());

    expect(await runOk(['graph', 'delete', 'Acme', '--db', db], run())).toBe('deleted Acme and its relations\n');
    expect(await runOk(['graph', 'delete', 'Acme', '--db', db], run())).toBe(
      'there is no entity Acme in the graph: nothing to delete\n(engram graph list or engram graph search NAME shows the entities)\n',
    );
    expect(await runJson(['graph', 'delete', 'acme', '--db', db], run())).toEqual({
      success: true,
      message: 'No entity named acme in the graph: nothing was removed (search_nodes or read_graph lists the entities).',
      deleted: [],
      notFound: ['acme'],
    });
    // Only the delete that deleted something is in the activity log.
    const log = await runJson<{ action: string; summary: string }[]>(['log', '--db', db], run());
    expect(log.filter((line) => line.action === 'delete_entities').map((line) => line.summary)).toEqual([
      'deleted the entities named Acme',
    ]);
  });
});

describe('a damaged database file', () => {
  /** Overwrites the first bytes of the root page of `table`, as a stray write would. */
  function damageTable(file: string, table: string): void {
    const db = new Database(file, { readonly: true });
    const root = db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = ?`).pluck().get(table) as number;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(8, 0xff), 0, 8, (root - 1) * pageSize);
    closeSync(fd);
  }

  it('on a truncated file, the error and the doctor agree: only a backup brings it back', async () => {
    const db = freshCopy();
    truncateSync(db, Math.floor(statSync(db).size / 2));

    const listed = expectOneLineError(await runCli(['list', '--db', db], run()));
    expect(listed).toContain(`is damaged (database disk image is malformed): run \`engram doctor --db ${db}\``);
    expect(listed).not.toMatch(/--repair/);
    const report = await runCli(['doctor', '--repair', '--db', db, '--json'], run());
    expect(report.code).toBe(1);
    const integrity = (JSON.parse(report.stdout) as DoctorReport).findings.find((finding) => finding.check === 'integrity');
    expect(integrity?.fix).toMatch(
      /^SQLite cannot read this file's schema, so nothing can be copied out of it: restore a backup/,
    );
    expect(integrity?.fix).not.toMatch(/engram export/);
    // And indeed nothing reads it: export fails too.
    expectOneLineError(await runCli(['export', '--db', db], run()), /is damaged/);
  });

  it('when every memory still reads back, the copy the doctor gives works and keeps every memory', async () => {
    const db = freshCopy();
    const memories = await exportMemories(run(), db);
    damageTable(db, 'activity_log');

    expectOneLineError(await runCli(['log', '--db', db], run()), /is damaged .*engram doctor --db/);
    const doctor = await runCli(['doctor', '--db', db, '--json'], run());
    expect(doctor.code).toBe(1);
    const fix = (JSON.parse(doctor.stdout) as DoctorReport).findings.find((finding) => finding.check === 'integrity')?.fix;
    const copy = dbIn(dir, `${path.basename(db, '.db')}-recovered.db`);
    expect(fix).toContain(`copy 60 memories into a new file with engram export --db ${db} | engram import --db ${copy}`);

    // The advice, followed: export reads every memory, and import stores them in the new file.
    const exported = await runOk(['export', '--db', db], run());
    await runOk(['import', '--db', copy], { ...run(), input: exported });
    expect(await exportMemories(run(), copy)).toEqual(memories);
    expect((await runJson<DoctorReport>(['doctor', '--db', copy], run())).healthy).toBe(true);
  });

  it('when the memories themselves are damaged, says export cannot copy them and a backup is the way out', async () => {
    const db = freshCopy();
    damageTable(db, 'memories');

    const doctor = await runCli(['doctor', '--db', db], run());
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(
      /^problem {3}integrity {2}SQLite finds the file damaged: .* — the memories themselves cannot all be read \(.*\), so engram export cannot copy them either: restore a backup/m,
    );
    expectOneLineError(await runCli(['export', '--db', db], run()), /is damaged/);
  });
});
