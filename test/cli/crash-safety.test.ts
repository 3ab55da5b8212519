/**
 * An import is one transaction: killing the process with SIGKILL at any moment leaves an
 * intact database holding either none or all of the file's records, never part of them.
 *
 * Each kill lands at a known moment. The child is frozen with SIGSTOP as soon as the moment is
 * seen (a progress line on standard error, or the write-ahead log growing); while it cannot
 * move, the test checks that it is where the moment says; only then is it killed. A freeze
 * that came too late (the child had moved on) is not counted, and the moment is tried again.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  checkDatabase,
  copyDatabase,
  dbIn,
  LEXICAL,
  makeTempDir,
  runJson,
  runOk,
  spawnCli,
  writeSyntheticJsonl,
} from './helpers.js';

const RECORDS = 40_000;
/**
 * Lexical, and without graph extraction: the claim is about the import's one transaction, and
 * extracting 40,000 records would add about a minute to every run without touching it.
 */
const ENV = { ...LEXICAL, ENGRAM_GRAPH__EXTRACT: 'false' };
/** Tries per moment; one is the norm, the rest absorb a scheduler that delays the freeze. */
const ATTEMPTS = 5;

/** What the test sees of a running import. */
interface Importing {
  /** Resolves once standard error matches `pattern`. */
  stderrShows(pattern: RegExp): Promise<void>;
  /** Resolves once the write-ahead log is larger than `bytes`. */
  walGrowsPast(bytes: number): Promise<void>;
  walBytes(): number;
}

/** The child, frozen: how many of the file's records are committed, and the size of its log. */
interface Frozen {
  committed: number;
  walBytes: number;
}

/** A moment to kill at: how to see it coming, and how to tell the frozen child is at it. */
interface Moment {
  name: string;
  /** Resolves once the import has reached the moment, with what `isAt` needs to know. */
  reached(importing: Importing): Promise<{ walBytesAtStart: number }>;
  isAt(frozen: Frozen, seen: { walBytesAtStart: number }): boolean;
  /** How many of the file's records the database holds after the kill. */
  leaves: number;
}

const WRITING_STARTS = /^writing 0\/\d+ /m;

const MOMENTS: Moment[] = [
  {
    name: 'after reading the file, before the transaction writes a page',
    async reached(importing) {
      await importing.stderrShows(WRITING_STARTS);
      return { walBytesAtStart: importing.walBytes() };
    },
    isAt: (frozen, seen) => frozen.committed === 0 && frozen.walBytes === seen.walBytesAtStart,
    leaves: 0,
  },
  {
    name: 'inside the transaction, with uncommitted pages in the write-ahead log',
    async reached(importing) {
      await importing.stderrShows(WRITING_STARTS);
      const walBytesAtStart = importing.walBytes();
      await importing.walGrowsPast(walBytesAtStart);
      return { walBytesAtStart };
    },
    isAt: (frozen, seen) => frozen.committed === 0 && frozen.walBytes > seen.walBytesAtStart,
    leaves: 0,
  },
  {
    name: 'after the commit, before the process ends',
    async reached(importing) {
      await importing.stderrShows(/^writing (\d+)\/\1 /m);
      return { walBytesAtStart: 0 };
    },
    isAt: (frozen) => frozen.committed === RECORDS,
    leaves: RECORDS,
  },
];

/** The size of a file, 0 when it does not exist (yet). */
function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

/** Committed memories, read by a separate connection (which never sees an open transaction). */
function committedMemories(file: string): number {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** The one-letter state of a process (`T` stopped, `Z` exited), or null once it is gone. */
function processState(pid: number): string | null {
  try {
    if (!existsSync('/proc/self/stat')) {
      // No procfs (macOS): ask ps, which fails once the process is gone.
      return (
        execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' })
          .trim()
          .charAt(0) || null
      );
    }
    // /proc/<pid>/stat: "pid (name) state ...", and the name may contain spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return null;
  }
}

/** Sends SIGSTOP and resolves true once the child is stopped, false if it ended first. */
async function freeze(child: ChildProcess): Promise<boolean> {
  if (!child.kill('SIGSTOP') || child.pid === undefined) return false;
  for (;;) {
    const state = processState(child.pid);
    if (state === 'T' || state === 't') return true;
    if (state === null || state === 'Z' || state === 'X') return false;
    await sleep(1);
  }
}

/**
 * Runs `engram import --progress` into `db`, freezes it at `moment`, checks where it is, then
 * kills it with SIGKILL. Resolves to whether the kill landed at the moment.
 */
async function importAndKillAt(file: string, db: string, cwd: string, moment: Moment): Promise<boolean> {
  const child = spawnCli(['import', file, '--progress', '--db', db], { cwd, env: ENV });
  const closed = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  let ended = false;
  void closed.then(() => (ended = true));
  const waitFor = async (done: () => boolean) => {
    while (!done()) {
      if (ended) throw new Error(`the import ended first; stderr: ${stderr}`);
      await sleep(1);
    }
  };
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const wal = `${db}-wal`;
  const importing: Importing = {
    stderrShows: (pattern) => waitFor(() => pattern.test(stderr)),
    walGrowsPast: (bytes) => waitFor(() => sizeOf(wal) > bytes),
    walBytes: () => sizeOf(wal),
  };

  let landed = false;
  try {
    const seen = await moment.reached(importing);
    if (await freeze(child)) {
      const frozen = { committed: committedMemories(db) - 1, walBytes: sizeOf(wal) };
      landed = moment.isAt(frozen, seen);
    }
  } catch {
    landed = false; // the import finished before the moment was seen: a miss, tried again
  }
  child.kill('SIGKILL');
  const [code, signal] = await closed;
  if (signal === null) expect(code, stderr).toBe(0);
  return landed && signal === 'SIGKILL';
}

describe('killing an import with SIGKILL', () => {
  let dir: string;
  let remove: () => void;
  let file: string;
  const run = () => ({ cwd: dir, env: ENV });

  let seeded: string;
  beforeAll(async () => {
    ({ dir, remove } = makeTempDir());
    file = path.join(dir, 'large.jsonl');
    writeSyntheticJsonl(file, RECORDS);
    // The database each try starts from, written once by the CLI and copied for each.
    seeded = dbIn(dir, 'seeded.db');
    await runOk(['add', 'A memory that was there before the import', '--db', seeded], run());
  });
  afterAll(() => remove());

  it('leaves an intact database with none or all of the records, and a clean run then imports everything', async () => {
    const untouched: string[] = [];
    for (const [index, moment] of MOMENTS.entries()) {
      let landed = false;
      for (let attempt = 0; attempt < ATTEMPTS && !landed; attempt++) {
        const db = dbIn(dir, `crash-${index}-${attempt}.db`);
        copyDatabase(seeded, db);
        const before = checkDatabase(db).memories;
        expect(before).toBe(1);

        landed = await importAndKillAt(file, db, dir, moment);

        const after = checkDatabase(db);
        expect(after.integrity, moment.name).toBe('ok');
        if (landed) expect(after.memories, moment.name).toBe(before + moment.leaves);
        else expect([before, before + RECORDS], `${moment.name}: ${after.memories} memories`).toContain(after.memories);
        if (after.memories === before) untouched.push(db);
      }
      expect(landed, `the kill never landed ${moment.name}`).toBe(true);
    }

    const db = untouched[0] as string;
    expect(db).toBeDefined();
    const summary = await runJson<{ read: number; imported: number; skipped: number }>(['import', file, '--db', db], run());
    expect(summary).toMatchObject({ read: RECORDS, imported: RECORDS, skipped: 0 });
    expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 1 + RECORDS });
    const stats = await runJson<{ memories: number }>(['stats', '--db', db], run());
    expect(stats.memories).toBe(1 + RECORDS);
  }, 180_000);
});
