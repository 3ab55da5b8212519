/**
 * The doctor's check that a file of the current schema has every index and trigger the schema
 * makes (a problem finding of the `schema` check each, none when all are there: the schema's own
 * finding says it is current). Nothing in Engram drops one, but a hand-run `DROP INDEX`, or a tool
 * that copies tables without their indexes, can: then a search that names the tenant's index
 * over the vectors fails, a lookup walks a whole table, or a trigger no longer keeps a derived
 * table in step with the memories. What the schema makes is read from a database made by the
 * migrations themselves, in memory, so this check never lists the objects by hand. The repair
 * creates each missing one with the schema's own statement; the parts checked after it (the
 * full-text index, the vector entries) then mend what a missing trigger let drift. No memory is
 * touched.
 */
import Database from 'better-sqlite3';

import { type DoctorPart, examples, plural, repairable } from './doctor-part.js';
import { LATEST_VERSION, migrate } from './migrations.js';

/** An index or trigger as `sqlite_master` keeps it. */
interface SchemaObject {
  type: 'index' | 'trigger';
  name: string;
  sql: string;
}

let expected: readonly SchemaObject[] | null = null;

/** Every index and trigger a new file of the latest schema has, in the order SQLite made them. */
function schemaObjects(): readonly SchemaObject[] {
  if (expected === null) {
    const db = new Database(':memory:');
    try {
      migrate(db, ':memory:');
      expected = objectsOf(db);
    } finally {
      db.close();
    }
  }
  return expected;
}

/** The indexes and triggers of `db` that come from a statement (not a table's own key indexes). */
function objectsOf(db: Database.Database): SchemaObject[] {
  return db
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid`)
    .all() as SchemaObject[];
}

/** The schema's indexes and triggers this file lacks; none for a file of another schema (the upgrade makes them). */
export function missingSchemaObjects(db: Database.Database): SchemaObject[] {
  if ((db.pragma('user_version', { simple: true }) as number) !== LATEST_VERSION) return [];
  const present = new Set(
    db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')`).pluck().all() as string[],
  );
  return schemaObjects().filter((object) => !present.has(object.name));
}

export const schemaObjectsPart: DoctorPart = {
  check: 'schema',
  tables: ['memories'],

  examine(db) {
    const missing = missingSchemaObjects(db);
    if (missing.length === 0) return [];
    const names = missing.map((object) => object.name);
    return [
      repairable(
        'schema',
        `${plural(missing.length, 'index or trigger', 'indexes and triggers')} of the schema missing${examples(
          names.slice(0, 3),
          names.length,
        )}: searches that use them fail or read whole tables, and derived tables can drift from the memories`,
        'creates them again',
      ),
    ];
  },

  repair(db) {
    const missing = missingSchemaObjects(db);
    for (const object of missing) db.exec(object.sql);
    return missing.length === 0
      ? []
      : [
          {
            check: 'schema',
            message: `created ${plural(missing.length, 'missing index or trigger', 'missing indexes and triggers')} again (${missing.map((o) => o.name).join(', ')})`,
          },
        ];
  },
};
