/**
 * The doctor's first question of a PostgreSQL database: does the server answer? Engram does not
 * check the server's pages itself: that is the server's job (checksums, the amcheck extension
 * through `pg_amcheck`), and the finding says so rather than claim a check it did not make.
 */
import type { DoctorFinding } from '../doctor-report.js';
import type { Queryable } from './connection.js';

export async function examineIntegrity(db: Queryable): Promise<DoctorFinding> {
  const result = await db.query(`SELECT current_setting('server_version') AS version`);
  // server_version may carry the packager's note after a space: `15.18 (Debian 15.18-0+deb12u1)`.
  const version = (result.rows[0] as { version: string }).version.split(' ')[0];
  return {
    check: 'integrity',
    status: 'notice',
    message: `PostgreSQL ${version} answers; Engram leaves checking its pages to the server (amcheck is not used)`,
    fix: "pg_amcheck checks the database's tables and indexes",
  };
}
