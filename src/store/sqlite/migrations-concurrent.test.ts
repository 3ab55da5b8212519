/**
 * Two processes opening one new file at once: each read schema version 0 and ran every
 * migration, and the second failed with "duplicate column name" or "table already exists"
 * (found by `engram bench reliability`, three writers starting together). The other opener
 * here is a connection on its own thread that takes the write lock on the empty file, waits
 * 300 ms — long enough for this thread to read the version and queue for the lock — and then
 * migrates the file with the built migrations (from `dist/`, which `npm test` builds first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LATEST_VERSION } from './migrations.js';
import { SqliteStore } from './sqlite-store.js';

const BUILT_MIGRATIONS = new URL('../../../dist/store/sqlite/migrations.js', import.meta.url).href;

/** Takes the write lock on an empty file, says so, waits `holdMs`, migrates it and commits. */
const MIGRATE_WHILE_LOCKED = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const sqliteVec = require('sqlite-vec');
(async () => {
  const { migrate } = await import(workerData.migrations);
  const db = new Database(workerData.file);
  sqliteVec.load(db);
  db.exec('BEGIN IMMEDIATE');
  parentPort.postMessage('locked');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
  migrate(db, workerData.file);
  db.exec('COMMIT');
  db.close();
})();
`;

function migrateUnderLock(file: string, holdMs: number): Promise<{ done: Promise<void> }> {
  const worker = new Worker(MIGRATE_WHILE_LOCKED, {
    eval: true,
    workerData: { file, holdMs, migrations: BUILT_MIGRATIONS },
  });
  const done = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited ${code}`))));
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve({ done }));
  });
}

describe('opening a new file from two connections at once', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-migrate-race-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('migrates it once: the second opener waits for the lock, sees the new schema and runs nothing', async () => {
    const file = path.join(dir, 'engram.db');
    const { done } = await migrateUnderLock(file, 300);

    const store = new SqliteStore(file);
    try {
      await done;
      expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      const [alice] = await store.upsertEntities(
        'acme',
        [{ id: 'entity-alice', name: 'Alice', type: 'person' }],
        '2026-01-01T00:00:00.000Z',
      );
      expect((await store.getEntities('acme', [alice!.id])).map((entity) => entity.name)).toEqual(['Alice']);
    } finally {
      await store.close();
    }
  });
});
