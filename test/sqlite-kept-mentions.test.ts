/**
 * The read layer keeps the mentions each memory makes across decisions (src/store/kept/), each
 * read here a view of its own (fixtures/view-per-read.ts), on SQLite:
 * what it gives back must always be what the file holds, after every kind of write that can
 * change a mention, from this connection or another; the stamps of a decision or a retrieval,
 * which change none, keep them; and a caller changing what it was given changes nothing kept.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { minutesAfterEpoch, TENANT } from './fixtures/memory.js';
import { viewPerRead } from './fixtures/view-per-read.js';
import { makeReceipt } from './store-contract/activation-log.js';
import { aliceAtAcme, at, mention, person, storeMemories } from './store-contract/graph-fixtures.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-kept-mentions-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('mentions kept across reads', () => {
  let file: string;
  let store: SqliteStore;
  /** The store with the read layer: reads, and the writes of retrieval stamps, go through it. */
  let reads: SqliteStore;
  let run = 0;
  const read = (...ids: string[]) => reads.listMentionsInMemories(TENANT, ids);
  /**
   * Removes mention rows behind the store's back: on its own connection, with the trigger that
   * counts its writes to the mentions dropped first, so the change mark stays. Only a kept copy
   * still shows them.
   */
  const removeRowsUnseen = () => {
    const db = store.connection;
    db.exec('DROP TRIGGER temp.engram_written_mentions_delete');
    db.prepare('DELETE FROM mentions').run();
  };

  beforeEach(async () => {
    file = path.join(directory, `kept-${run++}.db`);
    store = new SqliteStore(file);
    reads = viewPerRead(store);
    await storeMemories(store, 'm1', 'm2');
    await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2')], at());
    await read('m1', 'm2'); // both kept from here on
    return () => store.close();
  });

  it('answers from what it kept, memory by memory in the order asked, once each', async () => {
    removeRowsUnseen();
    const alice = mention('m2', 'e-alice', 'speaker');
    expect(await read('m2', 'm1', 'm2')).toEqual([
      alice,
      mention('m2', 'e-acme', 'mention'),
      mention('m1', 'e-alice', 'speaker'),
      mention('m1', 'e-acme', 'mention'),
    ]);
  });

  it('keeps them through the stamps of a decision and of a retrieval', async () => {
    removeRowsUnseen();
    await reads.recordActivation({ receipt: makeReceipt({ id: 'r1', turn: 5 }), injected: [], retrieved: ['m1'] });
    await reads.recordRetrieval(TENANT, ['m2'], minutesAfterEpoch(7));
    expect(await read('m1')).toHaveLength(2);
  });

  it('reads a memory extracted again', async () => {
    await store.recordExtractions(
      TENANT,
      [
        {
          memoryId: 'm1',
          entities: [person('Paris', { type: 'place' })],
          mentions: [{ name: 'Paris', role: 'mention' }],
          relations: [],
        },
      ],
      at(5),
    );
    expect(await read('m1')).toEqual([mention('m1', 'e-paris', 'mention')]);
  });

  it('stops giving the mentions of a deleted entity, of removed mentions and of a purged memory', async () => {
    await store.deleteEntities(TENANT, ['e-acme']);
    expect(await read('m1', 'm2')).toEqual([mention('m1', 'e-alice', 'speaker'), mention('m2', 'e-alice', 'speaker')]);
    await store.removeMentions(TENANT, ['m2']);
    expect(await read('m1', 'm2')).toEqual([mention('m1', 'e-alice', 'speaker')]);
    await store.purgeMemories(TENANT, ['m1']);
    expect(await read('m1', 'm2')).toEqual([]);
  });

  it('reads what its own connection wrote past the store, as any write of a mention moves the change mark', async () => {
    store.connection.prepare('DELETE FROM mentions').run();
    expect(await read('m1', 'm2')).toEqual([]);
  });

  it('reads what another connection wrote', async () => {
    const other = new SqliteStore(file);
    await other.removeMentions(TENANT, ['m1']);
    await other.close();
    expect(await read('m1', 'm2')).toEqual([mention('m2', 'e-alice', 'speaker'), mention('m2', 'e-acme', 'mention')]);
  });

  it('gives each reader its own copy, and keeps tenants apart', async () => {
    const [given] = await read('m1');
    if (given) given.entityId = 'scribbled';
    expect((await read('m1'))[0]?.entityId).toBe('e-alice');
    expect(await reads.listMentionsInMemories('another', ['m1'])).toEqual([]);
  });
});
