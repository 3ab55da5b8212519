/**
 * Compiled statements kept per connection: the queries of a search (full-text ranking, the
 * vector re-scoring, reading the candidates, the graph's lookups) are the same few SQL texts
 * every time, and compiling them anew cost ~0.5–0.7 ms a search. Only for statements that are
 * run to completion (`all`, `get`, `run`): one still being iterated cannot run again.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

/** Distinct SQL texts kept per connection (filters make a few variants of each query). */
const MAX_STATEMENTS = 256;

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** The statement for `sql` on `db`, compiled once, returned in its default modes (not plucked, not raw). */
export function cachedStatement(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db, cache);
  }
  const kept = cache.get(sql);
  if (kept !== undefined) {
    // Most recently used last, so the oldest is the one to go.
    cache.delete(sql);
    cache.set(sql, kept);
    return kept.reader ? kept.pluck(false).raw(false) : kept;
  }
  const statement = db.prepare(sql);
  cache.set(sql, statement);
  if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
  return statement;
}
