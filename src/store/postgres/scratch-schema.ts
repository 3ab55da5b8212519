/**
 * A schema of its own in a PostgreSQL database, for a run that must start empty and leave
 * nothing behind (the benchmarks): created, named in the connection string's `search_path` so a
 * store opened on the returned URL keeps all its tables there, and dropped with them at the end.
 * A schema rather than a database, as a managed PostgreSQL user may create the one and not the other.
 */
import pg from 'pg';

import { connectionError, createPool } from './connection.js';

/** A scratch schema: the URL whose tables live in it, and how to drop it. */
export interface ScratchSchema {
  url: string;
  drop(): Promise<void>;
}

/** Creates schema `name` (letters, digits and `_`) in the database `url` names. */
export async function createScratchSchema(url: string, name: string): Promise<ScratchSchema> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name))
    throw new Error(`a scratch schema name is lower-case letters, digits and _ (got ${name})`);
  const run = async (sql: string) => {
    const pool = createPool(url, { max: 1 });
    try {
      await pool.query(sql);
    } catch (error) {
      throw connectionError(error, url);
    } finally {
      await pool.end();
    }
  };
  await run(`CREATE SCHEMA ${pg.escapeIdentifier(name)}`);
  const scoped = new URL(url);
  scoped.searchParams.set('options', `-c search_path=${name}`);
  return { url: scoped.toString(), drop: () => run(`DROP SCHEMA ${pg.escapeIdentifier(name)} CASCADE`) };
}
