/**
 * Versioned schema migrations, recorded in `PRAGMA user_version`. Opening an older file runs
 * the missing steps, each in its own transaction (a new file takes them all in one); a file from
 * a newer Engram is refused rather than misread. Append new steps (in the schema-*.ts file of
 * their idea); never edit a released one.
 */
import type Database from 'better-sqlite3';

import { EngramError } from '../../errors.js';
import type { Migration } from './migration-step.js';
import { CODE_PREFIX_STEP } from './schema-code-prefixes.js';
import { MEMORY_STEPS } from './schema-memories.js';
import { READ_INDEX_STEPS } from './schema-read-indexes.js';
import { SEGMENT_TERMS_STEP } from './schema-segment-terms.js';
import { SESSION_AND_GRAPH_STEPS } from './schema-sessions-graph.js';
import { VECTOR_ENTRIES_STEP } from './schema-vector-entries.js';
import { HALF_VECTORS_STEP } from './schema-vectors.js';

export type { Migration } from './migration-step.js';
export { SEGMENT_TERMS_SCHEMA } from './schema-segment-terms.js';

/** Marks a file as Engram's ("Engr"), so a foreign SQLite file is not mistaken for ours. */
export const APPLICATION_ID = 0x456e6772;

/** Every step, in version order. */
export const MIGRATIONS: readonly Migration[] = [
  ...MEMORY_STEPS,
  ...SESSION_AND_GRAPH_STEPS,
  ...READ_INDEX_STEPS,
  SEGMENT_TERMS_STEP,
  HALF_VECTORS_STEP,
  VECTOR_ENTRIES_STEP,
  CODE_PREFIX_STEP,
].sort((a, b) => a.version - b.version);

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings `db` up to `LATEST_VERSION` (or `target`). Refuses files from a newer Engram and
 * SQLite files that belong to something else.
 */
export function migrate(db: Database.Database, file: string, target = LATEST_VERSION): number {
  const found = check(db, file);
  const pending = MIGRATIONS.filter((migration) => migration.version > found && migration.version <= target);
  // A new file takes every step in one transaction, all or nothing: each commit syncs the disk
  // four times, and one commit instead of one per step halves the time to create a file.
  for (const steps of found === 0 ? [pending] : pending.map((migration) => [migration])) {
    // Each step takes the write lock before it reads the version again, so when several
    // processes open a new file at once, each migration runs once, in whichever comes first.
    db.transaction(() => {
      for (const migration of steps) {
        if (check(db, file) >= migration.version) continue;
        migration.up(db);
        db.pragma(`application_id = ${APPLICATION_ID}`);
        db.pragma(`user_version = ${migration.version}`);
      }
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

/** The file's schema version, once it is known to be an Engram file this build can read. */
function check(db: Database.Database, file: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (version > LATEST_VERSION) {
    throw new EngramError(
      'schema_too_new',
      `${file} was written by a newer Engram (schema ${version}; this version understands up to ${LATEST_VERSION}). Upgrade Engram to open it.`,
    );
  }
  if (applicationId !== APPLICATION_ID) {
    const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number };
    if (applicationId !== 0 || tables.n > 0) {
      throw new EngramError('database_invalid', `${file} is a SQLite database but not an Engram one: choose another --db path`);
    }
  }
  return version;
}
