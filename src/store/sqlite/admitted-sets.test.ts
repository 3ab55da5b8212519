import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import type { Memory } from '../../model/memory.js';
import { MEMORY_COLUMNS, memoryToParams } from '../sql-core/rows.js';
import { AdmittedSets } from './admitted-sets.js';
import { FILTER_COLUMNS, filterClause } from './filter-clause.js';
import { IN_MEMORY, openDatabase } from './open-database.js';

const FILTER = filterClause({ tenant: 'acme', scopes: ['global', 'user:alice'], tiers: ['must', 'nice'] }, 'm');

describe('AdmittedSets', () => {
  let db: Database.Database;
  let sets: AdmittedSets;
  let next = 0;
  const insert = (fields: Partial<Memory>) =>
    db
      .prepare(`INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}) VALUES (${MEMORY_COLUMNS.map((c) => `@${c}`).join(', ')})`)
      .run(memoryToParams(makeMemory({ id: `m${next++}`, ...fields })));
  /** What SQLite says the filter admits now. */
  const truth = () =>
    (
      db
        .prepare(`SELECT m.rowid FROM memories m WHERE ${FILTER.sql}`)
        .pluck()
        .all(...FILTER.params) as number[]
    ).sort((a, b) => a - b);
  const members = (bits: Uint8Array) => [...bits.keys()].filter((rowid) => bits[rowid] === 1);

  beforeEach(() => {
    next = 0;
    db = openDatabase(IN_MEMORY);
    sets = new AdmittedSets(db);
  });
  afterEach(() => db.close());

  it('holds nothing for a filter until asked to build its set', () => {
    insert({ scope: 'global', tier: 'must' });
    expect(sets.held(FILTER)).toBeUndefined();
    const set = sets.build(FILTER);
    expect(set.count).toBe(1);
    expect(sets.held(FILTER)).toBe(set);
  });

  it('follows inserts, updates, archiving and deletes made after the set was read', () => {
    for (let i = 0; i < 50; i++) insert({ scope: i % 3 === 0 ? 'user:bob' : 'global', tier: i % 2 === 0 ? 'must' : 'unknown' });
    sets.build(FILTER);
    const rowidOf = (id: string) => db.prepare(`SELECT rowid FROM memories WHERE id = ?`).pluck().get(id) as number;
    insert({ scope: 'user:alice', tier: 'nice' }); // m50, in
    insert({ scope: 'user:bob', tier: 'nice' }); // m51, out
    db.prepare(`UPDATE memories SET tier = 'must' WHERE id = 'm1'`).run(); // in
    db.prepare(`UPDATE memories SET scope = 'user:bob' WHERE id = 'm2'`).run(); // out
    db.prepare(`UPDATE memories SET archived_at = 1 WHERE id = 'm4'`).run(); // out
    db.prepare(`DELETE FROM memories WHERE id IN ('m6', 'm8')`).run(); // m8 out
    expect(truth()).toEqual(expect.arrayContaining([rowidOf('m50'), rowidOf('m1')]));
    for (const id of ['m2', 'm4']) expect(truth()).not.toContain(rowidOf(id));
    const set = sets.held(FILTER);
    expect(members(set?.bits ?? new Uint8Array())).toEqual(truth());
    expect(set?.count).toBe(truth().length);
  });

  it('reads the set anew after more changes than it follows one by one', () => {
    sets.build(FILTER);
    const versionBefore = sets.held(FILTER)?.version;
    db.transaction(() => {
      for (let i = 0; i < 2_500; i++) insert({ scope: 'global', tier: i % 2 === 0 ? 'must' : 'unknown' });
    })();
    const set = sets.held(FILTER);
    expect(set?.count).toBe(1_250);
    expect(members(set?.bits ?? new Uint8Array())).toEqual(truth());
    expect(set?.version).not.toBe(versionBefore);
  });

  it('changes its version only when the set is brought up to date', () => {
    insert({ scope: 'global', tier: 'must' });
    const { version } = sets.build(FILTER);
    expect(sets.held(FILTER)?.version).toBe(version);
    insert({ scope: 'global', tier: 'must' });
    expect(sets.held(FILTER)?.version).not.toBe(version);
  });

  it('keeps a change rolled back out of the set', () => {
    insert({ scope: 'global', tier: 'must' });
    sets.build(FILTER);
    expect(() =>
      db.transaction(() => {
        insert({ scope: 'global', tier: 'must' });
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(sets.held(FILTER)?.count).toBe(1);
  });

  it('forgets every set when cleared', () => {
    sets.build(FILTER);
    sets.clear();
    expect(sets.held(FILTER)).toBeUndefined();
  });

  it('is not read again for a retrieval stamp, which moves no memory in or out of a filter', () => {
    for (let i = 0; i < 5; i++) insert({ scope: 'global', tier: 'must' });
    const { version } = sets.build(FILTER);
    db.prepare(`UPDATE memories SET last_retrieved_at = 5, retrieval_count = retrieval_count + 1 WHERE id = 'm1'`).run();
    expect(sets.held(FILTER)?.version).toBe(version);
    db.prepare(`UPDATE memories SET tier = 'unknown' WHERE id = 'm1'`).run();
    expect(sets.held(FILTER)?.count).toBe(4);
    expect(members(sets.held(FILTER)?.bits ?? new Uint8Array())).toEqual(truth());
  });
});

describe('FILTER_COLUMNS', () => {
  it('names every column a filter clause can read', () => {
    const filters = [
      {
        tenant: 't',
        scopes: ['a'],
        kinds: ['fact' as const],
        tiers: ['must' as const],
        excludeKinds: ['note' as const],
        pinnedOrHardRule: true,
        onlyPinned: true,
        onlyHardRule: true,
        sessionId: 's',
        occurredAfter: '2026-01-01T00:00:00.000Z',
        occurredBefore: '2026-02-01T00:00:00.000Z',
      },
      { tenant: 't', onlyArchived: true, onlySuperseded: true },
    ];
    const read = new Set(
      filters.flatMap((filter) => [...filterClause(filter, 'm').sql.matchAll(/\bm\.(\w+)/g)].map((match) => match[1])),
    );
    expect([...read].sort()).toEqual([...FILTER_COLUMNS].sort());
  });
});
