/**
 * The doctor's schema question for a PostgreSQL database: does it hold an Engram schema, and of
 * which version (`engram_schema`) — the current one, an older one (Engram migrates it when it
 * opens it; the repair does it now), or a newer one this Engram cannot read (nothing else is
 * checked, and nothing is touched)?
 */
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import type { Queryable } from './connection.js';
import { REPAIR_COMMAND } from './doctor-part.js';
import { POSTGRES_LATEST_VERSION } from './migrations.js';

export interface PostgresSchema {
  finding: DoctorFinding;
  /** The highest version in `engram_schema`, or null when the database has none. */
  version: number | null;
  /** Whether the other checks can read the database's tables. */
  readable: boolean;
}

export async function examineSchema(db: Queryable): Promise<PostgresSchema> {
  const finding = (status: DoctorFinding['status'], message: string, fix: string | null = null): DoctorFinding => ({
    check: 'schema',
    status,
    message,
    fix,
  });
  const present = await db.query(`SELECT to_regclass('engram_schema') IS NOT NULL AS present`);
  if (!(present.rows[0] as { present: boolean }).present) {
    return {
      version: null,
      readable: false,
      finding: finding(
        'problem',
        'no Engram schema in this database (no engram_schema table); nothing else was checked',
        'point --store at the database Engram uses; any engram command that stores a memory creates the schema in an empty one',
      ),
    };
  }
  const result = await db.query(`SELECT coalesce(max(version), 0) AS version FROM engram_schema`);
  const version = Number((result.rows[0] as { version: number }).version);
  if (version > POSTGRES_LATEST_VERSION) {
    return {
      version,
      readable: false,
      finding: finding(
        'problem',
        `schema ${version}, written by a newer Engram (this one understands up to ${POSTGRES_LATEST_VERSION}); nothing else was checked`,
        'upgrade Engram to use this database',
      ),
    };
  }
  if (version < POSTGRES_LATEST_VERSION) {
    return {
      version,
      readable: true,
      finding: finding(
        'notice',
        `schema ${version}, older than this Engram's ${POSTGRES_LATEST_VERSION}: it is upgraded the next time Engram opens it`,
        `${REPAIR_COMMAND} upgrades it now`,
      ),
    };
  }
  return { version, readable: true, finding: finding('ok', `schema ${version}, the current one`) };
}

/** What the repair says after migrating from `from` to `to`. */
export function upgradedSchema(from: number, to: number): DoctorRepair {
  return { check: 'schema', message: `upgraded the schema from ${from} to ${to}` };
}
