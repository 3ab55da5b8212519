import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { EngramError, InvalidInputError } from '../../errors.js';
import { isDamage, isUnwritable, storageError } from './storage-error.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-storage-error-'));
const file = path.join(directory, 'engram.db');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** An error as better-sqlite3 throws it: a message and SQLite's code. */
function sqliteError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('storage failures as one clear line', () => {
  it.each([
    [
      'SQLITE_BUSY',
      'database is locked',
      'database_locked',
      /^\S+engram\.db is locked by another process \(waited 5 s for it\); the database is unchanged: let that process finish or stop it, then try again$/,
    ],
    ['SQLITE_BUSY_SNAPSHOT', 'database is locked', 'database_locked', /is locked by another process/],
    ['SQLITE_LOCKED', 'database table is locked', 'database_locked', /is locked by another process/],
    [
      'SQLITE_FULL',
      'database or disk is full',
      'disk_full',
      /^cannot write \S+: the disk is full \(.+ free\); the database is unchanged: free some space, then try again$/,
    ],
    ['ENOSPC', 'no space left on device', 'disk_full', /the disk is full/],
    [
      'SQLITE_CORRUPT',
      'database disk image is malformed',
      'database_invalid',
      /is damaged \(database disk image is malformed\): run `engram doctor --db \S+` to see what is damaged and what to do/,
    ],
    ['SQLITE_NOTADB', 'file is not a database', 'database_invalid', /is not an Engram database \(file is not a database\)/],
    [
      'SQLITE_IOERR_WRITE',
      'disk I/O error',
      'database_invalid',
      /^cannot read or write \S+ \(disk I\/O error, SQLITE_IOERR_WRITE\): check the disk, then run `engram doctor`$/,
    ],
  ])('explains %s with its own code', (code, message, engramCode, expected) => {
    const explained = storageError(sqliteError(code, message), file);
    expect(explained).toBeInstanceOf(EngramError);
    expect(explained).toMatchObject({ code: engramCode, message: expect.stringMatching(expected) });
    expect((explained as EngramError).cause).toMatchObject({ code });
  });

  it('says a database that can be written was opened read-only', () => {
    const explained = storageError(sqliteError('SQLITE_READONLY', 'attempt to write a readonly database'), file);
    expect(explained).toMatchObject({
      code: 'database_read_only',
      message: expect.stringMatching(/^cannot write \S+: it is open read-only; make it writable/),
    });
  });

  it('says a folder that cannot be found or opened cannot be opened, without calling it read-only', () => {
    const missing = path.join(directory, 'no-such-folder', 'engram.db');
    const explained = storageError(sqliteError('SQLITE_CANTOPEN', 'unable to open database file'), missing);
    expect(explained).toMatchObject({
      code: 'database_invalid',
      message: expect.stringMatching(
        /^cannot open \S+ \(unable to open database file\): check that the file and its folder exist/,
      ),
    });
  });

  it('passes every other error through unchanged', () => {
    const usage = new InvalidInputError('text is empty');
    const syntax = sqliteError('SQLITE_ERROR', 'near "x": syntax error');
    const plain = new Error('something else');
    for (const error of [usage, syntax, plain, 'a string']) expect(storageError(error, file)).toBe(error);
  });

  it('tells damage and an unwritable file apart', () => {
    expect(isDamage(sqliteError('SQLITE_CORRUPT_VTAB', 'malformed'))).toBe(true);
    expect(isDamage(sqliteError('SQLITE_BUSY', 'locked'))).toBe(false);
    for (const code of ['SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR_SHMSIZE', 'SQLITE_BUSY']) {
      expect(isUnwritable(sqliteError(code, code))).toBe(true);
    }
    expect(isUnwritable(sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'unique'))).toBe(false);
  });
});
