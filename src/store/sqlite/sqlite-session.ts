/**
 * The SQLite session of the shared SQL core (../sql-core/session.ts): each statement compiled
 * once per connection (statement-cache.ts) and answered at once, so a shared program runs to
 * its end synchronously, inside a write transaction or between two reads of a cache.
 */
import type Database from 'better-sqlite3';

import { sqliteDialect } from '../sql-core/dialect.js';
import { SyncSession } from '../sql-core/session.js';
import { cachedStatement } from './statement-cache.js';

/** A synchronous session over `db`. */
export function sqliteSession(db: Database.Database): SyncSession {
  return new SyncSession(sqliteDialect, (kind, { text, params }) => {
    const statement = cachedStatement(db, text);
    if (kind === 'all') return statement.all(...params);
    if (kind === 'get') return statement.get(...params);
    return statement.run(...params).changes;
  });
}
