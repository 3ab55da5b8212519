/**
 * What the read layer keeps under SQLite's change mark (src/store/sqlite/memory-writes.ts): each
 * session's turns for the turns beside a memory (src/store/kept/kept-session-turns.ts), the
 * graph's lookups (kept-answers.ts), and through `memoryChangeMark` the sample of per-store
 * calibration. The mark must move for every write that changes what is kept — by another
 * connection, or by this one through any path, the store's methods or not — and stay for the
 * retrieval stamps every search writes; a session too long to keep is answered by the
 * statement. Each read is a view of its own, as a decision's is (fixtures/view-per-read.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeEach, describe, expect, it } from 'vitest';

import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { MemoryFilter } from '../src/store/store.js';
import { makeMemory, minutesAfterEpoch, TENANT } from './fixtures/memory.js';
import { EAST } from './fixtures/vectors.js';
import { viewPerRead } from './fixtures/view-per-read.js';
import { aliceAtAcme, at, link, person } from './store-contract/graph-fixtures.js';

const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-memory-writes-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const ALL: MemoryFilter = { tenant: TENANT };
/** Turn `i` of session s1, `i` minutes in. */
const turn = (i: number) =>
  makeMemory({ id: `t${i}`, sessionId: 's1', occurredAt: minutesAfterEpoch(i), createdAt: minutesAfterEpoch(i) });

describe('what the SQLite store keeps under its change mark', () => {
  let file: string;
  let store: SqliteStore;
  /** The store with the read layer. */
  let reads: SqliteStore;
  let run = 0;
  const besideT2 = async () => (await reads.listSessionNeighbours(ALL, ['t2'], 1)).map((n) => n.memoryId);

  beforeEach(async () => {
    file = path.join(directory, `writes-${run++}.db`);
    store = new SqliteStore(file);
    reads = viewPerRead(store);
    await store.commit({ insert: [0, 1, 2, 3, 4].map((i) => ({ memory: turn(i), vector: EAST })) });
    // Asked twice: the session's turns are kept from here on.
    expect(await besideT2()).toEqual(['t1', 't3']);
    expect(await besideT2()).toEqual(['t1', 't3']);
    return () => store.close();
  });

  it("follows another connection's writes", async () => {
    const mark = await store.memoryChangeMark(TENANT);
    const other = new SqliteStore(file);
    await other.commit({ update: [{ memory: { ...turn(3), archivedAt: minutesAfterEpoch(9) } }] });
    await other.close();

    expect(await store.memoryChangeMark(TENANT)).not.toBe(mark);
    expect(await besideT2()).toEqual(['t1', 't4']);
  });

  it('follows writes on its own connection that bypass its methods, but not the retrieval stamps', async () => {
    const db = store.connection;
    const mark = await store.memoryChangeMark(TENANT);
    db.prepare(`UPDATE memories SET retrieval_count = 7, last_retrieved_at = 1 WHERE id = 't3'`).run();
    expect(await store.memoryChangeMark(TENANT)).toBe(mark);

    db.prepare(`UPDATE memories SET archived_at = 1 WHERE id = 't3'`).run();
    expect(await store.memoryChangeMark(TENANT)).not.toBe(mark);
    expect(await besideT2()).toEqual(['t1', 't4']);

    const archived = await store.memoryChangeMark(TENANT);
    db.prepare(`DELETE FROM memory_embeddings WHERE rowid = (SELECT rowid FROM memories WHERE id = 't0')`).run();
    expect(await store.memoryChangeMark(TENANT)).not.toBe(archived);
  });

  it('answers a session too long to keep as the statement does', async () => {
    const long = Array.from({ length: 1_005 }, (_, i) =>
      makeMemory({ id: `long${String(i).padStart(4, '0')}`, sessionId: 'long', occurredAt: minutesAfterEpoch(i) }),
    );
    await store.commit({ insert: long.map((memory) => ({ memory, vector: null })) });

    await reads.listSessionNeighbours(ALL, ['long0500'], 1); // asked once before, as the kept sessions are
    expect(await reads.listSessionNeighbours(ALL, ['long0500', 't2'], 2)).toEqual([
      { memoryId: 'long0499', of: 'long0500', distance: 1 },
      { memoryId: 'long0501', of: 'long0500', distance: 1 },
      { memoryId: 'long0498', of: 'long0500', distance: 2 },
      { memoryId: 'long0502', of: 'long0500', distance: 2 },
      { memoryId: 't1', of: 't2', distance: 1 },
      { memoryId: 't3', of: 't2', distance: 1 },
      { memoryId: 't0', of: 't2', distance: 2 },
      { memoryId: 't4', of: 't2', distance: 2 },
    ]);
  });
});

describe("the graph's lookups kept under the change mark", () => {
  let file: string;
  let store: SqliteStore;
  /** The store with the read layer. */
  let reads: SqliteStore;
  let run = 0;
  const ABOUT = { limitPerEntity: 10, scanPerEntity: 2_000 };
  /** Each lookup asked twice, the second answered from what was kept: both must agree. */
  const twice = async <T>(ask: () => Promise<T>): Promise<T> => {
    const first = await ask();
    expect(await ask()).toEqual(first);
    return first;
  };
  const names = (ask: string) => twice(async () => (await reads.findEntities(TENANT, [ask])).map((e) => e.name));
  const relations = () => twice(async () => (await reads.listRelations(TENANT, ['e-alice'])).map((r) => r.id));
  const about = () => twice(async () => (await reads.listMentionsOfEntities(ALL, ['e-alice'], ABOUT)).map((m) => m.memoryId));

  beforeEach(async () => {
    file = path.join(directory, `graph-${run++}.db`);
    store = new SqliteStore(file);
    reads = viewPerRead(store);
    await store.commit({ insert: ['m1', 'm2'].map((id) => ({ memory: makeMemory({ id }), vector: null })) });
    await store.recordExtractions(TENANT, [aliceAtAcme('m1'), aliceAtAcme('m2')], at());
    return () => store.close();
  });

  it('finds an entity added, renamed or given an alias after the name was looked up', async () => {
    expect(await names('Bob')).toEqual([]);
    await store.upsertEntities(TENANT, [person('Bob')], at(1));
    expect(await names('Bob')).toEqual(['Bob']);
    expect(await names('Ally')).toEqual([]);
    await store.upsertEntities(TENANT, [person('Alice', { aliases: ['Ally'] })], at(2));
    expect(await names('Ally')).toEqual(['Alice']);
    await store.deleteEntities(TENANT, ['e-bob']);
    expect(await names('Bob')).toEqual([]);
  });

  it('follows the relations added and ended, and the memories about an entity another connection archives', async () => {
    expect(await relations()).toEqual(['r-m1']); // m2 stated the same relation again
    await store.addRelations(TENANT, [link('r-new', 'e-alice', 'knows', 'e-acme')], at(1));
    expect(await relations()).toEqual(['r-new', 'r-m1']);
    await store.invalidateRelations(TENANT, ['m1'], at(2));
    expect(await relations()).toEqual(['r-new']);

    expect(await about()).toEqual(['m2', 'm1']);
    const other = new SqliteStore(file);
    await other.commit({ update: [{ memory: makeMemory({ id: 'm2', archivedAt: minutesAfterEpoch(3) }) }] });
    await other.close();
    expect(await about()).toEqual(['m1']);
    await store.removeMentions(TENANT, ['m1']);
    expect(await about()).toEqual([]);
  });

  it('answers several names in order, each entity once, from the names kept one by one', async () => {
    await store.upsertEntities(TENANT, [person('Bob', { aliases: ['Robert'] })], at(1));
    const ids = async (...asked: string[]) => (await reads.findEntities(TENANT, asked)).map((e) => e.id);

    expect(await ids('Robert', 'Alice', 'Bob', 'nobody')).toEqual(['e-bob', 'e-alice']);
    expect(await ids('Alice', 'Robert')).toEqual(['e-alice', 'e-bob']);
    expect(await ids('Bob', 'Robert', 'Bob')).toEqual(['e-bob']);
  });

  it('gives each caller its own copies', async () => {
    const [alice] = await reads.findEntities(TENANT, ['Alice']);
    alice?.aliases.push('scribbled');
    const [relation] = await reads.listRelations(TENANT, ['e-alice']);
    if (relation) relation.type = 'scribbled';
    const [mention] = await reads.listMentionsOfEntities(ALL, ['e-alice'], ABOUT);
    if (mention) mention.memoryId = 'scribbled';

    expect((await reads.findEntities(TENANT, ['Alice']))[0]?.aliases).toEqual([]);
    expect((await reads.listRelations(TENANT, ['e-alice']))[0]?.type).toBe('works_at');
    expect((await reads.listMentionsOfEntities(ALL, ['e-alice'], ABOUT))[0]?.memoryId).toBe('m2');
  });
});
