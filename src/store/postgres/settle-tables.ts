/**
 * `VACUUM (ANALYZE)` of the tables of a store's schema: what a server's autovacuum does by itself
 * some time after a bulk load (clears dead row versions, gives the planner its statistics). A
 * benchmark runs it after building a store, so what it measures next does not depend on when
 * autovacuum last woke, and so PGlite, which runs no autovacuum, is measured as a server would be.
 */
import pg from 'pg';

import { connectionError, createPool } from './connection.js';

/** Vacuums and analyzes every table of the schema `url` searches first (only those: a shared database's others are left alone). */
export async function settleTables(url: string): Promise<void> {
  const pool = createPool(url, { max: 1 });
  try {
    const tables = await pool.query(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY 1`,
    );
    const names = (tables.rows as { name: string }[]).map((row) => pg.escapeIdentifier(row.name));
    // VACUUM cannot run inside a transaction: one plain statement.
    if (names.length > 0) await pool.query(`VACUUM (ANALYZE) ${names.join(', ')}`);
  } catch (error) {
    throw connectionError(error, url);
  } finally {
    await pool.end();
  }
}
