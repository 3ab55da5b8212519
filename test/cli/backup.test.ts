/**
 * `engram backup` as a real process: a consistent copy of a database that two other processes
 * keep writing to. Each writer logs a memory's id (with fsync) only once `remember` has returned,
 * so the log is what was acknowledged; the copy must hold every memory acknowledged before the
 * backup began, nothing that was never acknowledged, and pass SQLite's integrity check and
 * `engram doctor`. Plus the refusals: an existing file without --force, the database itself, a
 * missing folder or database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  checkDatabase,
  childEnv,
  dbIn,
  expectOneLineError,
  LEXICAL,
  makeTempDir,
  runCli,
  runJson,
  runOk,
  writeSyntheticJsonl,
} from './helpers.js';

/** The built library, which the writers use as any program would. */
const LIBRARY = new URL('../../dist/index.js', import.meta.url).href;
const ENV = { ...LEXICAL, ENGRAM_GRAPH__EXTRACT: 'false' };
const SEEDED = 5_000;

/**
 * A writer: stores memories one after another until SIGTERM, appending each acknowledged id to
 * its log and syncing the log before the next write.
 */
const WRITER = `
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
const { openEngram } = await import(process.env.LIBRARY);
const [db, log, name] = process.argv.slice(2);
const engram = await openEngram({ path: db, embedder: null, config: { graph: { extract: false } } });
const fd = openSync(log, 'a');
let stopping = false;
process.on('SIGTERM', () => (stopping = true));
for (let i = 0; !stopping; i++) {
  const memory = await engram.remember(\`\${name} wrote memory \${i} while a backup ran\`);
  writeSync(fd, memory.id + '\\n');
  fsyncSync(fd);
  if (i === 0) process.stdout.write('writing\\n');
  await new Promise((resolve) => setImmediate(resolve)); // lets SIGTERM in between writes
}
closeSync(fd);
await engram.close();
`;

let dir: string;
let remove: () => void;
const run = () => ({ cwd: dir, env: ENV });

beforeAll(() => ({ dir, remove } = makeTempDir()));
afterAll(() => remove());

function acknowledged(log: string): Set<string> {
  return existsSync(log) ? new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean)) : new Set();
}

function idsIn(file: string): Set<string> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return new Set(db.prepare('SELECT id FROM memories').pluck().all() as string[]);
  } finally {
    db.close();
  }
}

/** The rows of these memories, by id. */
function rowsOf(file: string, ids: Set<string>): unknown[] {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT id, text, tags, created_at FROM memories WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`)
      .all(JSON.stringify([...ids]));
  } finally {
    db.close();
  }
}

function startWriter(script: string, db: string, log: string, name: string): ChildProcess {
  return spawn(process.execPath, [script, db, log, name], {
    cwd: dir,
    env: childEnv({ ...ENV, LIBRARY }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('engram backup while other processes write', () => {
  it('copies exactly what was acknowledged when it began, into a file that passes every check', async () => {
    const db = dbIn(dir, 'live.db');
    const seed = path.join(dir, 'seed.jsonl');
    writeSyntheticJsonl(seed, SEEDED);
    await runOk(['import', seed, '--db', db], run());
    const script = path.join(dir, 'writer.mjs');
    writeFileSync(script, WRITER);
    const logs = ['a', 'b'].map((name) => path.join(dir, `acknowledged-${name}.log`));
    const writers = ['a', 'b'].map((name, i) => startWriter(script, db, logs[i] as string, `writer ${name}`));
    const exits = writers.map((writer) => once(writer, 'close') as Promise<[number | null]>);
    let stderr = '';
    for (const writer of writers) writer.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

    try {
      // Both writers are under way, and each has had time for a good many writes.
      await Promise.all(writers.map((writer) => once(writer.stdout as NodeJS.ReadableStream, 'data')));
      while (logs.some((log) => acknowledged(log).size < 50)) await sleep(20);

      const before = new Set(logs.flatMap((log) => [...acknowledged(log)]));
      const copy = dbIn(dir, 'copy.db');
      const summary = await runJson<{ memories: number; to: string }>(['backup', copy, '--db', db], run());
      const duringBackup = new Set(logs.flatMap((log) => [...acknowledged(log)]));
      expect(duringBackup.size, 'the writers kept writing while the backup ran').toBeGreaterThan(before.size);

      for (const writer of writers) writer.kill('SIGTERM');
      for (const [code] of await Promise.all(exits)) expect(code, stderr).toBe(0);
      const all = new Set(logs.flatMap((log) => [...acknowledged(log)]));

      const inCopy = idsIn(copy);
      expect(summary).toMatchObject({ memories: inCopy.size, to: copy });
      expect(checkDatabase(copy).integrity).toBe('ok');
      const missing = [...before].filter((id) => !inCopy.has(id));
      expect(missing, 'acknowledged before the backup began, missing from the copy').toEqual([]);
      const written = [...inCopy].filter((id) => !id.startsWith('01JD')); // the seeded records' ids start 01JD
      expect(
        written.filter((id) => !all.has(id)),
        'in the copy but never acknowledged',
      ).toEqual([]);
      expect(inCopy.size).toBe(SEEDED + written.length);
      expect(readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);

      // Each memory in the copy is whole: the same row as in the live database.
      expect(rowsOf(copy, inCopy)).toEqual(rowsOf(db, inCopy));

      // Restoring is pointing --db at the copy: every check passes, and Engram reads it.
      expect((await runJson<{ healthy: boolean }>(['doctor', '--db', copy], run())).healthy).toBe(true);
      const first = [...acknowledged(logs[0] as string)][0] as string;
      expect(await runJson<{ text: string }>(['show', first, '--db', copy], run())).toMatchObject({
        text: 'writer a wrote memory 0 while a backup ran',
      });
      expect(await runOk(['search', 'writer', 'memory', '--db', copy], run())).toMatch(/writer [ab] wrote memory/);
    } finally {
      for (const writer of writers) if (writer.exitCode === null) writer.kill('SIGKILL');
    }
  }, 120_000);
});

describe('engram backup refusals', () => {
  it('refuses to overwrite a file without --force, and replaces it with --force', async () => {
    const db = dbIn(dir, 'small.db');
    await runOk(['add', 'We chose PostgreSQL for billing', '--db', db], run());
    const copy = dbIn(dir, 'small-copy.db');
    writeFileSync(copy, 'something precious');

    expectOneLineError(
      await runCli(['backup', copy, '--db', db], run()),
      /^engram: \S+small-copy\.db already exists: choose another file, or replace it \(--force\)$/,
    );
    expect(readFileSync(copy, 'utf8')).toBe('something precious');

    expect(await runOk(['backup', copy, '--force', '--db', db], run())).toMatch(
      /^backed up 1 memory \(\d+\.\d kB\) from \S+small\.db to \S+small-copy\.db\n$/,
    );
    expect(checkDatabase(copy)).toEqual({ integrity: 'ok', memories: 1 });
  });

  it.each([
    ['the database itself', (db: string) => ['backup', db, '--force', '--db', db], /cannot back up .* onto itself/],
    [
      'a missing folder',
      (db: string) => ['backup', path.join(dir, 'nowhere', 'copy.db'), '--db', db],
      /directory .*nowhere does not exist/,
    ],
    [
      'a missing database',
      () => ['backup', dbIn(dir, 'x.db'), '--db', dbIn(dir, 'absent.db')],
      /no Engram database at .*absent\.db/,
    ],
    [
      'a file that is not an Engram database',
      () => ['backup', dbIn(dir, 'y.db'), '--db', fileURLToPath(import.meta.url)],
      /is not an Engram database/,
    ],
  ])('refuses %s in one line', async (_name, args, message) => {
    const db = dbIn(dir, 'small.db');
    if (!existsSync(db)) await runOk(['add', 'a memory', '--db', db], run());
    expectOneLineError(await runCli(args(db), run()), message);
    expect(existsSync(dbIn(dir, 'x.db')) || existsSync(dbIn(dir, 'y.db'))).toBe(false);
  });
});
