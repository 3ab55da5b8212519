/**
 * Schema migrations against real files: old files are upgraded in place, newer ones refused
 * untouched, and a failing step leaves the file at the version before it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { EngramError } from '../../errors.js';
import { APPLICATION_ID, LATEST_VERSION, migrate, MIGRATIONS } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-migrations-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** A database path in a folder of its own, so a test can see every file SQLite leaves. */
function freshPath(): string {
  files += 1;
  const folder = path.join(directory, `case-${files}`);
  mkdirSync(folder);
  return path.join(folder, 'engram.db');
}

/** Builds a schema-1 file as an Engram release with only the first migration would have, with one memory in it. */
async function writeVersionOneFile(): Promise<string> {
  const file = freshPath();
  const store = new SqliteStore(file, { migrateTo: 1 });
  const at = Date.parse('2024-06-01T12:00:00.000Z');
  store.connection
    .prepare(
      `INSERT INTO memories (id, tenant, scope, kind, tier, pinned, hard_rule, text, abstract, key, session_id, source, trust,
         data, tags, occurred_at, created_at, updated_at, superseded_by, archived_at)
       VALUES ('old-1', 'acme', 'user:alice', 'preference', 'must', 1, 0, 'Alice drinks green tea', NULL, 'drink', NULL,
         'user', 1, '{"strength":"strong"}', '["drinks"]', ?, ?, ?, NULL, NULL)`,
    )
    .run(at, at, at);
  await store.close();
  return file;
}

function readPragma(file: string, name: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma(name, { simple: true });
  } finally {
    db.close();
  }
}

function columnsOf(file: string, table: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name);
  } finally {
    db.close();
  }
}

/** The error `open` throws; fails the test when it does not throw. */
function openingError(open: () => unknown): unknown {
  try {
    open();
  } catch (error) {
    return error;
  }
  throw new Error('expected opening to fail');
}

describe('schema migrations', () => {
  it('stops at the version asked for, so tests can build old files', async () => {
    const file = await writeVersionOneFile();

    expect(readPragma(file, 'user_version')).toBe(1);
    expect(readPragma(file, 'application_id')).toBe(APPLICATION_ID);
    expect(columnsOf(file, 'memories')).not.toContain('retrieval_count');
    expect(columnsOf(file, 'embedding_cache')).toEqual([]);
  });

  it('upgrades a version 1 file to the latest schema and keeps its memories readable', async () => {
    const file = await writeVersionOneFile();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(await store.getMemory('acme', 'old-1')).toEqual({
      id: 'old-1',
      tenant: 'acme',
      scope: 'user:alice',
      kind: 'preference',
      tier: 'must',
      pinned: true,
      hardRule: false,
      text: 'Alice drinks green tea',
      abstract: null,
      context: null,
      key: 'drink',
      sessionId: null,
      source: 'user',
      trust: 1,
      data: { strength: 'strong' },
      tags: ['drinks'],
      occurredAt: '2024-06-01T12:00:00.000Z',
      createdAt: '2024-06-01T12:00:00.000Z',
      updatedAt: '2024-06-01T12:00:00.000Z',
      supersededBy: null,
      archivedAt: null,
      lastRetrievedAt: null,
      retrievalCount: 0,
    });
    expect((await store.searchLexical({ tenant: 'acme' }, 'tea', 5)).map((hit) => hit.id)).toEqual(['old-1']);
    expect((await store.findByKey('acme', 'user:alice', 'drink'))?.id).toBe('old-1');
    await store.close();
  });

  it('gives an upgraded file the version 2 features: retrieval counts and the embedding cache', async () => {
    const file = await writeVersionOneFile();
    const store = new SqliteStore(file);

    await store.recordRetrieval('acme', ['old-1'], '2025-02-01T08:30:00.000Z');
    await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: Float32Array.from([1, 0, 0, 0]) }]);

    expect(await store.getMemory('acme', 'old-1')).toMatchObject({
      retrievalCount: 1,
      lastRetrievedAt: '2025-02-01T08:30:00.000Z',
    });
    expect(Array.from((await store.getCachedEmbeddings('tiny-4', ['h1'])).get('h1') ?? [])).toEqual([1, 0, 0, 0]);
    await store.close();
  });

  it('leaves an up-to-date file at the latest version when it is opened again', async () => {
    const file = freshPath();
    await new SqliteStore(file).close();

    const store = new SqliteStore(file);

    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(migrate(store.connection, file)).toBe(LATEST_VERSION);
    await store.close();
  });

  it('creates a new file in one transaction, and upgrades an older one a transaction per step', async () => {
    // Every commit syncs the disk: one for a whole new file, not one per step.
    const file = freshPath();
    const created = new Database(file);
    const creating = vi.spyOn(created, 'transaction');
    expect(migrate(created, file)).toBe(LATEST_VERSION);
    expect(creating).toHaveBeenCalledTimes(1);
    created.close();

    const old = await writeVersionOneFile();
    const upgraded = new Database(old);
    const upgrading = vi.spyOn(upgraded, 'transaction');
    expect(migrate(upgraded, old)).toBe(LATEST_VERSION);
    expect(upgrading).toHaveBeenCalledTimes(MIGRATIONS.filter((migration) => migration.version > 1).length);
    upgraded.close();
  });

  it('refuses a file from a newer Engram, says to upgrade Engram, and leaves the file untouched', async () => {
    const file = freshPath();
    await new SqliteStore(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_VERSION + 1}`);
    raw.close();
    const before = readFileSync(file);

    const error = openingError(() => new SqliteStore(file));

    expect(error).toBeInstanceOf(EngramError);
    expect(error).toMatchObject({ code: 'schema_too_new' });
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/upgrade engram/i);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('runs each migration in its own transaction: a failing step leaves the file at the previous version', async () => {
    const file = await writeVersionOneFile();
    // A leftover table with the name migration 2 creates makes that step fail after its first statements.
    const raw = new Database(file);
    raw.exec(`CREATE TABLE embedding_cache (leftover TEXT)`);
    raw.close();

    const error = openingError(() => new SqliteStore(file));

    expect(error).toBeInstanceOf(EngramError);
    expect((error as Error).message).toContain(file);
    expect(readPragma(file, 'user_version')).toBe(1);
    expect(columnsOf(file, 'memories')).not.toContain('last_retrieved_at');
    expect(columnsOf(file, 'memories')).not.toContain('retrieval_count');
  });
});
