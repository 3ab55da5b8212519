/**
 * The PostgreSQL session of the shared SQL core (../sql-core/session.ts): each statement sent
 * with its `$n` parameters on the pool or on one transaction's client, and awaited.
 */
import { postgresDialect } from '../sql-core/dialect.js';
import { AsyncSession } from '../sql-core/session.js';
import type { Queryable } from './connection.js';

/** An asynchronous session over `db` (the pool, or a client inside a transaction). */
export function postgresSession(db: Queryable): AsyncSession {
  return new AsyncSession(postgresDialect, async (kind, { text, params }) => {
    const result = await db.query(text, params);
    if (kind === 'all') return result.rows;
    if (kind === 'get') return result.rows[0];
    return result.rowCount ?? 0;
  });
}
