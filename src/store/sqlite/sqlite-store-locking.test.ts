/**
 * Another process's write lock is waited for, never surfaced: a write that reads before it
 * writes (an entity upsert looks its name up first) began deferred, and SQLite cannot let such
 * a transaction wait — it answered SQLITE_BUSY_SNAPSHOT as soon as the other writer committed,
 * so concurrent `engram` processes saw "locked" errors (found by `engram bench reliability`).
 * The other writer here is a second connection on its own thread, holding the lock for 300 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { SqliteStore } from './sqlite-store.js';

/** Takes the write lock, writes, says so, holds the lock for `holdMs`, then commits. */
const HOLD_LOCK = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.file);
db.exec('BEGIN IMMEDIATE');
db.prepare("INSERT INTO engram_meta (key, value) VALUES ('lock-holder', '1')").run();
parentPort.postMessage('locked');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
db.exec('COMMIT');
db.close();
`;

function holdWriteLock(file: string, holdMs: number): Promise<{ released: Promise<void> }> {
  const worker = new Worker(HOLD_LOCK, { eval: true, workerData: { file, holdMs } });
  const released = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', () => resolve({ released }));
  });
}

describe('SqliteStore under another writer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-locking-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('waits for another connection’s write lock in a write that reads first, instead of failing', async () => {
    const file = path.join(dir, 'engram.db');
    const store = new SqliteStore(file);
    try {
      await store.upsertEntities('acme', [{ id: 'entity-alice', name: 'Alice', type: 'person' }], '2026-01-01T00:00:00.000Z');
      const { released } = await holdWriteLock(file, 300);
      const entities = await store.upsertEntities(
        'acme',
        [{ id: 'entity-bob', name: 'Bob', type: 'person' }],
        '2026-01-01T00:00:01.000Z',
      );
      await released;
      expect(entities.map((entity) => entity.name)).toEqual(['Bob']);
    } finally {
      await store.close();
    }
  });
});
