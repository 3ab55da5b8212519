/**
 * Which operating-system process of a PostgreSQL server a benchmark can find it by: the
 * checkpointer, which runs as long as the server does, so its parent is the postmaster (every
 * backend's parent too). `bench footprint` reads the server's memory and CPU time from there
 * when the server runs on the same machine.
 */
import { connectionError, createPool } from './connection.js';

/** The process id of the server's checkpointer as the server reports it, or null when it reports none. */
export async function checkpointerProcessId(url: string): Promise<number | null> {
  const pool = createPool(url, { max: 1 });
  try {
    const result = await pool.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer' LIMIT 1`);
    return (result.rows[0] as { pid: number } | undefined)?.pid ?? null;
  } catch (error) {
    throw connectionError(error, url);
  } finally {
    await pool.end();
  }
}
