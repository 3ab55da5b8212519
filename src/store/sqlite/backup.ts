/**
 * A consistent copy of a live SQLite file with SQLite's online backup. The copy is taken in one
 * step, inside one read transaction: it holds exactly what was committed when that step began,
 * while other processes go on writing (in WAL mode a reader blocks no writer). A backup in many
 * small steps would start over each time another process commits, and might never finish.
 *
 * The copy is written beside the target under a temporary name, checked, and only then renamed
 * into place, so a failure (a full disk) leaves no half-written backup, and an existing file is
 * replaced only when asked and only by a complete copy.
 */
import { closeSync, existsSync, fsyncSync, openSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { EngramError, InvalidInputError, isEngramError } from '../../errors.js';
import { APPLICATION_ID } from './migrations.js';
import { BUSY_TIMEOUT_MS, storageError } from './storage-error.js';

/** The most pages better-sqlite3 lets one backup step copy: all of them. */
const ALL_PAGES = 0x7fffffff;

/** What a backup copied. */
export interface BackupResult {
  memories: number;
  bytes: number;
}

/** Copies the Engram database `from` to `to`; refuses an existing `to` unless `force`. */
export async function backupSqlite(from: string, to: string, options: { force: boolean }): Promise<BackupResult> {
  checkTarget(from, to, options.force);
  const source = openSource(from);
  const partial = path.join(path.dirname(path.resolve(to)), `.${path.basename(to)}.partial-${process.pid}`);
  try {
    // better-sqlite3's first step copies no page; the progress answer then makes the second copy
    // every page, however many there are by then, in one step and so in one read transaction.
    // Answering the pages remaining instead would fall short when the file grew in between.
    await source.backup(partial, { progress: () => ALL_PAGES });
    const memories = checkCopy(partial);
    // The replaced file's write-ahead log would be replayed into the copy: it goes first.
    if (options.force) removeFiles(to, ['-wal', '-shm', '-journal']);
    renameSync(partial, to);
    syncFolder(to);
    return { memories, bytes: statSync(to).size };
  } catch (error) {
    removeFiles(partial);
    throw explainFailure(error, from, to);
  } finally {
    source.close();
  }
}

function checkTarget(from: string, to: string, force: boolean): void {
  const folder = path.dirname(path.resolve(to));
  if (!existsSync(folder))
    throw new InvalidInputError(`directory ${folder} does not exist: create it first or choose another path`);
  if (!existsSync(to)) return;
  if (statSync(to).isDirectory()) {
    throw new InvalidInputError(`${to} is a directory: give the backup file's path, e.g. ${path.join(to, 'engram.db')}`);
  }
  if (existsSync(from) && realpathSync(to) === realpathSync(from)) {
    throw new InvalidInputError(`cannot back up ${from} onto itself: choose another file`);
  }
  if (!force) throw new InvalidInputError(`${to} already exists: choose another file, or replace it (--force)`);
}

function openSource(file: string): Database.Database {
  if (!existsSync(file)) {
    throw new EngramError('database_missing', `no Engram database at ${file}: point --db at an existing file`);
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    const applicationId = db.pragma('application_id', { simple: true }) as number;
    if (applicationId !== APPLICATION_ID) {
      throw new EngramError('database_invalid', `${file} is not an Engram database: point --db at one`);
    }
    return db;
  } catch (error) {
    db?.close();
    throw storageError(error, file);
  }
}

/** SQLite's quick check of the copy, and how many memories it holds. */
function checkCopy(file: string): number {
  const copy = new Database(file, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') throw new EngramError('database_invalid', `the copy failed SQLite's check (${check}); nothing was kept`);
    return copy.prepare(`SELECT count(*) FROM memories`).pluck().get() as number;
  } finally {
    copy.close();
  }
}

function removeFiles(file: string, suffixes = ['', '-wal', '-shm', '-journal']): void {
  for (const suffix of suffixes) rmSync(`${file}${suffix}`, { force: true });
}

/** Makes the rename durable: a crash right after the backup must not lose the new name. */
function syncFolder(file: string): void {
  const folder = openSync(path.dirname(path.resolve(file)), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/**
 * A failure reading the source names the source; any other (no space, no permission) the target,
 * whose fix is another folder rather than another --db.
 */
function explainFailure(error: unknown, from: string, to: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|CORRUPT|NOTADB)/.test(code)) return storageError(error, from);
  const explained = storageError(error, to);
  if (!isEngramError(explained) || explained.code !== 'database_read_only') return explained;
  const folder = path.dirname(path.resolve(to));
  return new EngramError(
    'database_read_only',
    `cannot write ${to}: the folder ${folder} is read-only; choose a writable folder`,
    {
      cause: error,
    },
  );
}
