/**
 * SQLite's failures of the file itself — locked by another process, a read-only file or folder,
 * a full disk, a damaged file — as one EngramError whose message says what was wrong and what
 * to do. SQLite rolls back the statement or transaction that failed, so the message can promise
 * the database is as it was. Anything else passes through unchanged.
 *
 * Each kind has its own code, so callers (and the HTTP API's statuses) can tell a wait-and-retry
 * (`database_locked`), a permission to fix (`database_read_only`) and a full disk (`disk_full`)
 * apart; `database_invalid` stays for a file that is damaged, not a database, or cannot be opened.
 */
import { accessSync, constants, existsSync, statfsSync } from 'node:fs';
import path from 'node:path';

import { EngramError, type EngramErrorCode, isEngramError } from '../../errors.js';

/** How long a statement waits for another process's write lock before giving up (`PRAGMA busy_timeout`). */
export const BUSY_TIMEOUT_MS = 5000;
/** Below this much free space, an I/O error on the disk is taken to mean the disk is full. */
const NEARLY_FULL_BYTES = 1 << 20;
const UNCHANGED = 'the database is unchanged';

/** What a storage failure is, as an EngramError's code and message. */
interface Explanation {
  code: EngramErrorCode;
  message: string;
}

/** `cause` as the EngramError that explains it, when it is a failure of the database file; else `cause`. */
export function storageError(cause: unknown, file: string): unknown {
  if (isEngramError(cause)) return cause;
  const code = errorCode(cause);
  if (code === null) return cause;
  const explained = describeStorageFailure(code, file, (cause as Error).message);
  return explained === null ? cause : new EngramError(explained.code, explained.message, { cause });
}

/**
 * Whether `error` says the file cannot be written at the moment — read-only, a full disk, an I/O
 * error, locked — rather than that something is wrong with the statement or the file's contents.
 */
export function isUnwritable(error: unknown): boolean {
  const code = errorCode(error);
  return code !== null && /^SQLITE_(READONLY|FULL|IOERR|BUSY|LOCKED)/.test(code);
}

/** Whether `error` is SQLite finding the file damaged (or not a database at all). */
export function isDamage(error: unknown): boolean {
  const code = errorCode(error);
  return code !== null && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** The code and line for a failure with this SQLite (or errno) code, or null when it is not about the file. */
function describeStorageFailure(code: string, file: string, detail: string): Explanation | null {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return {
      code: 'database_locked',
      message: `${file} is locked by another process (waited ${BUSY_TIMEOUT_MS / 1000} s for it); ${UNCHANGED}: let that process finish or stop it, then try again`,
    };
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || (isIoError(code) && diskIsNearlyFull(file))) {
    return {
      code: 'disk_full',
      message: `cannot write ${file}: the disk is full (${freeSpace(file)} free); ${UNCHANGED}: free some space, then try again`,
    };
  }
  if (/^SQLITE_(READONLY|CANTOPEN)/.test(code) || ['EROFS', 'EACCES', 'EPERM'].includes(code)) {
    return (
      unwritable(file, code) ?? {
        code: 'database_invalid',
        message: `cannot open ${file} (${detail}): check that the file and its folder exist and can be read and written`,
      }
    );
  }
  const message = describeUnusable(code, file, detail);
  return message === null ? null : { code: 'database_invalid', message };
}

/** The line for a file that is damaged, not a database at all, or on a failing disk. */
function describeUnusable(code: string, file: string, detail: string): string | null {
  if (isIoError(code)) return `cannot read or write ${file} (${detail}, ${code}): check the disk, then run \`engram doctor\``;
  if (code === 'SQLITE_NOTADB') return `${file} is not an Engram database (${detail}): choose another --db path`;
  if (code.startsWith('SQLITE_CORRUPT')) {
    // Whether the repair can mend it, an export can copy it or only a backup brings it back, the doctor finds out.
    return `${file} is damaged (${detail}): run \`engram doctor --db ${file}\` to see what is damaged and what to do: a repair in place, a copy of what still reads, or a backup`;
  }
  return null;
}

/** Why the file cannot be opened or written, when its permissions or its folder's say so. */
function unwritable(file: string, code: string): Explanation | null {
  const folder = path.dirname(path.resolve(file));
  const verb = code.startsWith('SQLITE_READONLY') ? 'cannot write' : 'cannot open';
  const fix = 'make it writable, or copy the database to a writable folder and point --db at the copy';
  const readOnly = (message: string): Explanation => ({ code: 'database_read_only', message });
  if (existsSync(file) && !canAccess(file, constants.R_OK)) {
    return { code: 'database_invalid', message: `cannot read ${file}: permission denied; make it readable` };
  }
  if (existsSync(file) && !canAccess(file, constants.W_OK)) return readOnly(`${verb} ${file}: the file is read-only; ${fix}`);
  if (existsSync(folder) && !canAccess(folder, constants.W_OK)) {
    return readOnly(
      `${verb} ${file}: its folder ${folder} is read-only (SQLite keeps its write-ahead log beside the file); ${fix}`,
    );
  }
  return code.startsWith('SQLITE_READONLY') ? readOnly(`cannot write ${file}: it is open read-only; ${fix}`) : null;
}

function canAccess(target: string, mode: number): boolean {
  try {
    accessSync(target, mode);
    return true;
  } catch {
    return false; // any refusal (EACCES, EPERM, EROFS) means no
  }
}

function isIoError(code: string): boolean {
  return code.startsWith('SQLITE_IOERR') || code === 'EIO';
}

function diskIsNearlyFull(file: string): boolean {
  const free = freeBytes(file);
  return free !== null && free < NEARLY_FULL_BYTES;
}

function freeBytes(file: string): number | null {
  try {
    const stats = statfsSync(path.dirname(path.resolve(file)));
    return stats.bavail * stats.bsize;
  } catch {
    return null; // the folder is gone or not a file system we can ask: nothing to say
  }
}

function freeSpace(file: string): string {
  const free = freeBytes(file);
  if (free === null) return 'no space';
  return free < 1024 ? `${free} bytes` : `${Math.floor(free / 1024)} kB`;
}

/** The SQLite or errno code of an error (`SQLITE_BUSY`, `ENOSPC`), if it has one. */
function errorCode(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const code = (error as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^(SQLITE_|E[A-Z]+$)/.test(code) ? code : null;
}
