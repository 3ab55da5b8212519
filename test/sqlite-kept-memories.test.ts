/**
 * The read layer keeps memories read by id across decisions on SQLite (src/store/kept/): what it
 * gives back must always be what the file holds, after every kind of write, from this connection
 * or another, and a caller changing what it was given changes nothing kept. Each read here is a
 * view of its own, as each decision's is (fixtures/view-per-read.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { makeMemory, minutesAfterEpoch, TENANT } from './fixtures/memory.js';
import { viewPerRead } from './fixtures/view-per-read.js';
import { makeReceipt } from './store-contract/activation-log.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-kept-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('memories kept across reads by id', () => {
  let file: string;
  let store: SqliteStore;
  /** The store with the read layer: reads, and the writes of retrieval stamps, go through it. */
  let reads: SqliteStore;
  let run = 0;
  const read = async (id: string) => (await reads.getMemories(TENANT, [id]))[0];

  beforeEach(async () => {
    file = path.join(directory, `kept-${run++}.db`);
    store = new SqliteStore(file);
    reads = viewPerRead(store);
    await store.commit({
      insert: [
        { memory: makeMemory({ id: 'a', text: 'the first', tags: ['x'], data: { n: 1 } }), vector: null },
        { memory: makeMemory({ id: 'b', text: 'the second' }), vector: null },
      ],
    });
    await reads.getMemories(TENANT, ['a', 'b']); // both kept from here on
    return () => store.close();
  });

  it('reads an update made through this store', async () => {
    await store.commit({ update: [{ memory: { ...(await read('a'))!, text: 'changed' } }] });
    expect((await read('a'))?.text).toBe('changed');
  });

  it('answers from what it kept across decisions while nothing it follows moved', async () => {
    // Stamps written on this connection past the layer move neither the change mark nor the layer.
    store.connection.prepare(`UPDATE memories SET retrieval_count = 9 WHERE id = 'a'`).run();
    expect((await read('a'))?.retrievalCount).toBe(0);
    expect((await store.getMemories(TENANT, ['a']))[0]?.retrievalCount).toBe(9);
  });

  it("reads the retrieval stamps another connection wrote (SQLite's mark covers them)", async () => {
    const other = new SqliteStore(file);
    await other.recordRetrieval(TENANT, ['a'], minutesAfterEpoch(8));
    await other.close();
    expect(await read('a')).toMatchObject({ lastRetrievedAt: minutesAfterEpoch(8), retrievalCount: 1 });
  });

  it('reads the retrieval stamps of a recorded decision and of a recorded retrieval', async () => {
    await reads.recordActivation({ receipt: makeReceipt({ id: 'r1', turn: 5 }), injected: [], retrieved: ['a'] });
    expect(await read('a')).toMatchObject({ lastRetrievedAt: minutesAfterEpoch(5), retrievalCount: 1 });
    await reads.recordRetrieval(TENANT, ['b'], minutesAfterEpoch(7));
    expect(await read('b')).toMatchObject({ lastRetrievedAt: minutesAfterEpoch(7), retrievalCount: 1 });
  });

  it('reads a key holder superseded by a new memory', async () => {
    await store.commit({ insert: [{ memory: makeMemory({ id: 'k1', key: 'drink', text: 'tea' }), vector: null }] });
    await read('k1');
    await store.commit({
      insert: [{ memory: makeMemory({ id: 'k2', key: 'drink', text: 'coffee' }), vector: null }],
      replaceKeyHolders: true,
    });
    expect((await read('k1'))?.supersededBy).toBe('k2');
  });

  it('stops giving a purged memory', async () => {
    await store.purgeMemories(TENANT, ['b']);
    expect(await reads.getMemories(TENANT, ['a', 'b'])).toHaveLength(1);
  });

  it('reads what another connection wrote', async () => {
    const other = new SqliteStore(file);
    await other.commit({ update: [{ memory: { ...(await read('b'))!, text: 'from elsewhere' } }] });
    await other.purgeMemories(TENANT, ['a']);
    await other.close();
    expect(await reads.getMemories(TENANT, ['a', 'b'])).toMatchObject([{ id: 'b', text: 'from elsewhere' }]);
  });

  it('gives each reader its own copy', async () => {
    const given = (await read('a'))!;
    given.text = 'scribbled';
    given.tags.push('y');
    (given.data as { n: number }).n = 2;
    expect(await read('a')).toMatchObject({ text: 'the first', tags: ['x'], data: { n: 1 } });
  });

  it('keeps tenants apart and answers in the order asked, unknown ids left out', async () => {
    expect(await reads.getMemories('another', ['a'])).toEqual([]);
    expect((await reads.getMemories(TENANT, ['b', 'nope', 'a'])).map((m) => m.id)).toEqual(['b', 'a']);
  });
});
