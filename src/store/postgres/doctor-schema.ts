/**
 * The doctor's schema question for a PostgreSQL database: does it hold an Engram schema, and of
 * which version (`engram_schema`) — the current one, an older one (Engram migrates it when it
 * opens it; the repair does it now), or a newer one this Engram cannot read (nothing else is
 * checked, and nothing is touched)?
 */
import { type Schema, schemaFinding, schemaOfVersion } from '../sql-core/doctor-schema-version.js';
import type { Queryable } from './connection.js';
import { POSTGRES_LATEST_VERSION } from './migrations.js';

export async function examineSchema(db: Queryable): Promise<Schema> {
  const present = await db.query(`SELECT to_regclass('engram_schema') IS NOT NULL AS present`);
  if (!(present.rows[0] as { present: boolean }).present) {
    return {
      version: null,
      readable: false,
      finding: schemaFinding(
        'problem',
        'no Engram schema in this database (no engram_schema table); nothing else was checked',
        'point --store at the database Engram uses; any engram command that stores a memory creates the schema in an empty one',
      ),
    };
  }
  const result = await db.query(`SELECT coalesce(max(version), 0) AS version FROM engram_schema`);
  const version = Number((result.rows[0] as { version: number }).version);
  return schemaOfVersion(version, POSTGRES_LATEST_VERSION, 'nothing else was checked');
}
