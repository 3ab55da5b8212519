/**
 * Opening a SQLite file for Engram: checks the path, sets WAL mode and runs migrations (the
 * upgrade of a file of schema 2 or before loads sqlite-vec, vec-extension.ts; nothing else
 * does). Failures become one-line EngramErrors that name the file and the fix.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';

import { EngramError } from '../../errors.js';
import { choosePageSize, compact, fileSpace, worthCompacting } from './compaction.js';
import { migrate } from './migrations.js';
import { HALF_VECTORS_SCHEMA } from './schema-vectors.js';
import { BUSY_TIMEOUT_MS, storageError } from './storage-error.js';

/** How to open the file. */
export interface OpenDatabaseOptions {
  /** Refuse to create a new file; used by read-only commands. @default false */
  mustExist?: boolean;
  /** Create the parent directory if it is missing. @default false */
  createDirectory?: boolean;
  /** Stop migrating at this version (tests build old files with it). */
  migrateTo?: number;
  /**
   * Bytes of the file read through memory-mapped I/O (SQLite's `mmap_size`): a page read from a
   * mapping costs no system call and no copy, which halves the cost of the scattered row reads
   * of a recall decision on a large store. 0 turns it off. @default MMAP_BYTES (1 GiB)
   */
  mmapBytes?: number;
}

/** The part of a file read through memory-mapped I/O unless told otherwise. */
export const MMAP_BYTES = 1024 * 1024 * 1024;

export const IN_MEMORY = ':memory:';

/** Opens (or creates) an Engram database file, migrated to the current schema. */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database.Database {
  if (file !== IN_MEMORY) checkPath(file, options);
  let db: Database.Database;
  try {
    db = new Database(file);
  } catch (cause) {
    const explained = storageError(cause, file);
    if (explained !== cause) throw explained;
    throw new EngramError('database_invalid', `cannot open ${file}: ${(cause as Error).message}`, { cause });
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    choosePageSize(db); // a new file only, before its first page is written
    // Migrate (which refuses foreign files) before anything that writes, such as the journal mode.
    const found = db.pragma('user_version', { simple: true }) as number;
    const version = migrate(db, file, options.migrateTo);
    if (file !== IN_MEMORY) compactAfterUpgrade(db, found, version);
    if (file !== IN_MEMORY) db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    if (file !== IN_MEMORY) db.pragma(`mmap_size = ${Math.max(0, Math.floor(options.mmapBytes ?? MMAP_BYTES))}`);
    return db;
  } catch (cause) {
    db.close();
    if (cause instanceof EngramError) throw cause;
    const message = (cause as Error).message;
    if (/not a database|file is encrypted/i.test(message)) {
      throw new EngramError('database_invalid', `${file} is not an Engram database (${message}): choose another --db path`, {
        cause,
      });
    }
    const explained = storageError(cause, file);
    if (explained !== cause) throw explained;
    throw new EngramError('database_invalid', `cannot open ${file}: ${message}`, { cause });
  }
}

/**
 * The upgrade to schema 12 rewrites the vectors in half the space; the file gives the rest back
 * at once, in pages of 8 KiB when no other process has it open (compaction.ts). Another process
 * holding the file busy past the timeout leaves it to `engram doctor --repair`: free pages are
 * reused by later writes meanwhile.
 */
function compactAfterUpgrade(db: Database.Database, found: number, version: number): void {
  if (found === 0 || found >= HALF_VECTORS_SCHEMA || version < HALF_VECTORS_SCHEMA) return;
  if (!worthCompacting(fileSpace(db))) return;
  try {
    compact(db);
  } catch (error) {
    if (!/busy|locked/i.test((error as Error).message)) throw error;
  }
}

function checkPath(file: string, options: OpenDatabaseOptions): void {
  if (existsSync(file)) {
    if (statSync(file).isDirectory()) {
      throw new EngramError(
        'database_invalid',
        `${file} is a directory: give the database file's path, e.g. ${path.join(file, 'engram.db')}`,
      );
    }
    return;
  }
  if (options.mustExist) {
    throw new EngramError(
      'database_missing',
      `no Engram database at ${file}, and mustExist forbids creating one: give the path of an existing database, or leave mustExist out to create it`,
    );
  }
  const directory = checkFolder(file, options);
  if (directory === null) return;
  try {
    mkdirSync(directory, { recursive: true });
  } catch (cause) {
    throw new EngramError('database_missing', `cannot create ${directory}: ${(cause as Error).message}`, { cause });
  }
}

/**
 * Refuses a database path whose folder is missing, unless `createDirectory` says to create it;
 * returns the folder to create, or null when there is nothing to create. Nothing is written.
 * The words are the library's (`path`, `createDirectory`); the CLI checks `--db` first, in its own.
 */
export function checkFolder(file: string, options: Pick<OpenDatabaseOptions, 'createDirectory'>): string | null {
  if (file === IN_MEMORY) return null;
  const directory = path.dirname(path.resolve(file));
  if (existsSync(directory)) return null;
  if (!options.createDirectory) {
    throw new EngramError(
      'database_missing',
      `the folder ${directory} of the database path ${file} does not exist: create it first, or pass createDirectory: true to openEngram`,
    );
  }
  return directory;
}
