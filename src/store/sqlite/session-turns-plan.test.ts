/**
 * How SQLite runs the shared program of a session's turns (../sql-core/session-turns.ts): one
 * range of the session index, read in its order, whatever else the filter names — no scan of the
 * table, no sort.
 */
import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import type { MemoryFilter } from '../memory-filter.js';
import { render, sqliteDialect } from '../sql-core/dialect.js';
import { sessionTurnIds } from '../sql-core/session-turns.js';
import { SqliteStore } from './sqlite-store.js';

/** SQLite's plan of the statement `sessionTurnIds` asks for. */
function planOf(store: SqliteStore, filter: MemoryFilter): string[] {
  const step = sessionTurnIds(filter, 's1', 50).next();
  if (step.done === true) throw new Error('the program asked for no statement');
  const { text, params } = render(sqliteDialect, step.value.statement);
  return store.connection
    .prepare(`EXPLAIN QUERY PLAN ${text}`)
    .all(...params)
    .map((row) => (row as { detail: string }).detail);
}

describe('a session’s turns in SQLite', () => {
  it('reads them off the session index in order, even where the statistics favour a filter’s scopes', async () => {
    const store = new SqliteStore(':memory:');
    try {
      // Three long sessions, each memory in a scope of its own: by the statistics, a scope is a far
      // narrower range than a session, and a planner left to choose reads the scopes and sorts.
      await store.commit({
        insert: Array.from({ length: 1200 }, (_, i) => ({
          memory: makeMemory({ id: `m${i}`, sessionId: `s${i % 3}`, scope: `user:${i}` }),
          vector: null,
        })),
      });
      store.connection.exec('ANALYZE');
      const index = ['SEARCH m USING INDEX memories_by_session (tenant=? AND session_id=?)'];

      expect(planOf(store, { tenant: 'acme' })).toEqual(index);
      expect(planOf(store, { tenant: 'acme', scopes: ['user:1', 'user:2'], kinds: ['fact'], tiers: ['unknown'] })).toEqual(index);
    } finally {
      await store.close();
    }
  });
});
