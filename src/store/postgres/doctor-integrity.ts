/**
 * The doctor's first question of a PostgreSQL database: does the server answer? Engram does not
 * check the server's pages itself: that is the server's job (checksums, the amcheck extension
 * through `pg_amcheck`), and the finding says so rather than claim a check it did not make.
 */
import type { DoctorFinding } from '../doctor-report.js';
import type { Queryable } from './connection.js';

export async function examineIntegrity(db: Queryable): Promise<DoctorFinding> {
  const result = await db.query(`SELECT current_setting('server_version') AS version`);
  const version = (result.rows[0] as { version: string }).version;
  return {
    check: 'integrity',
    status: 'notice',
    message: `PostgreSQL ${version} answers; Engram does not check the server's pages itself (amcheck is not used)`,
    fix: "pg_amcheck checks the database's tables and indexes for damage",
  };
}
