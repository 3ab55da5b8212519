/**
 * SqliteStore against the shared Store contract, in memory and on a real file (and the parts the
 * read layer answers, through it), plus what only
 * a file-backed SQLite store promises: WAL mode, durability across reopen, and clear refusals
 * of paths and files that are not Engram databases.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { EngramError, type EngramErrorCode } from '../src/errors.js';
import { MMAP_BYTES } from '../src/store/sqlite/open-database.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { makeMemory } from './fixtures/memory.js';
import { readLayerContract, storeContract } from './store-contract/index.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-sqlite-store-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** A path in the temporary directory that nothing has used yet. */
function freshPath(name = 'engram.db'): string {
  files += 1;
  const folder = path.join(directory, `case-${files}`);
  mkdirSync(folder);
  return path.join(folder, name);
}

storeContract('SqliteStore in memory', () => new SqliteStore(':memory:'));
storeContract('SqliteStore on disk', () => new SqliteStore(freshPath()));
readLayerContract('SqliteStore in memory', () => new SqliteStore(':memory:'));

/** The error `open` throws; fails the test when it does not throw. */
function openingError(open: () => unknown): unknown {
  try {
    open();
  } catch (error) {
    return error;
  }
  throw new Error('expected opening to fail');
}

function expectEngramError(error: unknown, code: EngramErrorCode, mentioning: string): void {
  expect(error).toBeInstanceOf(EngramError);
  expect(error).toMatchObject({ code });
  expect((error as Error).message).toContain(mentioning);
}

const memory = makeMemory({
  id: 'm1',
  kind: 'preference',
  tier: 'must',
  pinned: true,
  text: 'Alice prefers tea over coffee',
  abstract: 'Alice prefers tea.',
  key: 'drink',
  data: { strength: 'strong' },
  tags: ['drinks'],
});
const vector = Float32Array.from([0.6, 0.8, 0, 0]);

describe('SqliteStore on a file', () => {
  it('keeps the database in WAL mode', async () => {
    const store = new SqliteStore(freshPath());

    expect(store.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    await store.close();
  });

  it('reads the file through memory-mapped I/O up to the size it is given, 1 GiB unless told', async () => {
    const mapped = new SqliteStore(freshPath());
    const unmapped = new SqliteStore(freshPath(), { mmapBytes: 0 });
    expect(mapped.connection.pragma('mmap_size', { simple: true })).toBe(MMAP_BYTES);
    expect(MMAP_BYTES).toBe(1024 ** 3);
    expect(unmapped.connection.pragma('mmap_size', { simple: true })).toBe(0);
    await mapped.close();
    await unmapped.close();
  });

  it('keeps memories, vectors, index info and cached embeddings across close and reopen', async () => {
    const file = freshPath();
    const first = new SqliteStore(file);
    await first.commit({ insert: [{ memory, vector }] });
    await first.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
    await first.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector }]);
    await first.close();

    const reopened = new SqliteStore(file);

    expect(await reopened.getMemory('acme', 'm1')).toEqual(memory);
    expect((await reopened.searchLexical({ tenant: 'acme' }, 'tea', 5)).map((hit) => hit.id)).toEqual(['m1']);
    expect((await reopened.searchVector({ tenant: 'acme' }, vector, 5)).map((hit) => hit.id)).toEqual(['m1']);
    expect(await reopened.getIndexInfo()).toEqual({ model: 'tiny-4', dimensions: 4 });
    expect((await reopened.getCachedEmbeddings('tiny-4', ['h1'])).size).toBe(1);
    await reopened.close();
  });

  it('leaves no write-ahead log behind after a clean close', async () => {
    const file = freshPath();
    const store = new SqliteStore(file);
    await store.commit({ insert: [{ memory, vector }] });
    await store.close();

    expect(readdirSync(path.dirname(file))).toEqual(['engram.db']);
  });

  it('passes SQLite’s integrity check after writes, updates and purges', async () => {
    const store = new SqliteStore(freshPath());
    await store.commit({
      insert: [
        { memory, vector },
        { memory: { ...memory, id: 'm2', key: null }, vector },
      ],
    });
    await store.commit({ update: [{ memory: { ...memory, text: 'Alice now prefers coffee' }, vector: null }] });
    await store.purgeMemories('acme', ['m2']);

    expect(store.connection.pragma('integrity_check', { simple: true })).toBe('ok');
    // FTS5's own check throws when the full-text index disagrees with the memories table.
    expect(() => store.connection.exec(`INSERT INTO memories_fts (memories_fts) VALUES ('integrity-check')`)).not.toThrow();
    await store.close();
  });

  it('refuses a file that is not SQLite, naming the path and leaving the file untouched', () => {
    const file = freshPath('notes.txt');
    const garbage = Buffer.from('These are my notes, not a database. '.repeat(40));
    writeFileSync(file, garbage);

    expectEngramError(
      openingError(() => new SqliteStore(file)),
      'database_invalid',
      file,
    );
    expect(readFileSync(file).equals(garbage)).toBe(true);
    expect(readdirSync(path.dirname(file))).toEqual(['notes.txt']);
  });

  it('refuses a SQLite database made by another program', () => {
    const file = freshPath('other.db');
    const other = new Database(file);
    other.exec(`CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)`);
    other.close();

    expectEngramError(
      openingError(() => new SqliteStore(file)),
      'database_invalid',
      file,
    );
  });

  it('leaves another program’s SQLite database exactly as it was', () => {
    const file = freshPath('other.db');
    const other = new Database(file);
    other.exec(`CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL); INSERT INTO invoices (amount) VALUES (9.5)`);
    other.close();
    const before = readFileSync(file);

    openingError(() => new SqliteStore(file));

    expect(readFileSync(file).equals(before)).toBe(true);
    const reopened = new Database(file, { readonly: true });
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('delete');
    reopened.close();
  });

  it('refuses a path in a missing directory when the store is made, creating nothing', async () => {
    const parent = path.dirname(freshPath());
    const file = path.join(parent, 'missing', 'engram.db');

    const error = openingError(() => new SqliteStore(file));
    expectEngramError(error, 'database_missing', path.join(parent, 'missing'));
    expect((error as Error).message).toMatch(/pass createDirectory: true/);
    expect(existsSync(path.join(parent, 'missing'))).toBe(false);
  });

  it('creates a new file only when it is first used, so a refused command leaves nothing behind', async () => {
    const file = freshPath();
    const unused = new SqliteStore(file);
    await unused.close();
    expect(existsSync(file)).toBe(false);

    const used = new SqliteStore(file);
    await used.countMemories({ tenant: 'acme' });
    await used.close();
    expect(existsSync(file)).toBe(true);
  });

  it('creates the missing directory when asked to', async () => {
    const file = path.join(path.dirname(freshPath()), 'nested', 'deeper', 'engram.db');

    const store = new SqliteStore(file, { createDirectory: true });
    await store.commit({ insert: [{ memory, vector }] });
    await store.close();

    expect(existsSync(file)).toBe(true);
  });

  it('refuses a missing file when it must exist, creating nothing', () => {
    const file = freshPath();

    expectEngramError(
      openingError(() => new SqliteStore(file, { mustExist: true })),
      'database_missing',
      file,
    );
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('opens an existing Engram file when it must exist', async () => {
    const file = freshPath();
    const created = new SqliteStore(file);
    await created.countMemories({ tenant: 'acme' });
    await created.close();

    const store = new SqliteStore(file, { mustExist: true });

    expect(await store.countMemories({ tenant: 'acme' })).toBe(0);
    await store.close();
  });

  it('refuses a directory given as the database path', () => {
    const folder = path.dirname(freshPath());

    expectEngramError(
      openingError(() => new SqliteStore(folder)),
      'database_invalid',
      folder,
    );
  });
});

describe('SqliteStore lexical search under filters', () => {
  it('still finds a weak match when better matches of another tenant fill the first ranks', async () => {
    const store = new SqliteStore(':memory:');
    const base = { ...memory, key: null };
    await store.commit({
      insert: [
        ...Array.from({ length: 60 }, (_, i) => ({
          memory: { ...base, id: `big-${i}`, tenant: 'big', text: 'apple apple apple pie' },
          vector: null,
        })),
        {
          memory: { ...base, id: 'small-1', tenant: 'small', text: 'an apple among many other words in a long sentence' },
          vector: null,
        },
      ],
    });
    expect((await store.searchLexical({ tenant: 'small' }, 'apple', 1)).map((hit) => hit.id)).toEqual(['small-1']);
    await store.close();
  });
});
