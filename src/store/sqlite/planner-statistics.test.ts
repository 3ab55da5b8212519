import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { filterClause } from './filter-clause.js';
import { SqliteStore } from './sqlite-store.js';

/** How SQLite would list the pinned memories of a recall decision. */
function pinnedListingPlan(store: SqliteStore): string {
  const where = filterClause({ tenant: 'acme', scopes: ['global'], pinnedOrHardRule: true, excludeKinds: ['working_set'] }, 'm');
  return (
    store.connection
      .prepare(`EXPLAIN QUERY PLAN SELECT m.* FROM memories m WHERE ${where.sql} ORDER BY m.created_at ASC LIMIT 20`)
      .all(...where.params) as { detail: string }[]
  )
    .map((row) => row.detail)
    .join('; ');
}

/** The memories the last analysis counted (each index's statistics start with the rows it covers). */
function analyzedRows(store: SqliteStore): number {
  return store.connection
    .prepare(`SELECT max(CAST(stat AS INTEGER)) FROM sqlite_stat1 WHERE tbl = 'memories'`)
    .pluck()
    .get() as number;
}

describe('the query planner statistics', () => {
  let directory: string;
  let store: SqliteStore;
  let next = 0;
  const grow = (count: number) =>
    store.commit({
      insert: Array.from({ length: count }, () => {
        next += 1;
        return {
          memory: makeMemory({ id: `m${next}`, tenant: 'acme', scope: 'global', pinned: next % 500 === 0 }),
          vector: null,
        };
      }),
    });

  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'engram-planner-'));
    store = new SqliteStore(path.join(directory, 'engram.db'));
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('are gathered as a store grows in one process, so the pinned memories are read through their own index', async () => {
    await grow(10);
    expect(pinnedListingPlan(store)).not.toContain('memories_pinned'); // no statistics yet: SQLite guesses
    await grow(1_500);
    expect(pinnedListingPlan(store)).toContain('memories_pinned');
    expect(analyzedRows(store)).toBe(1_510);
  });

  it('are gathered again only once the store has doubled since', async () => {
    await grow(1_000);
    expect(analyzedRows(store)).toBe(1_000);
    await grow(900);
    expect(analyzedRows(store)).toBe(1_000);
    await grow(100);
    expect(analyzedRows(store)).toBe(2_000);
  });
});
