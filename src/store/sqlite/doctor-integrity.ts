/**
 * The doctor's first question: does SQLite find the file intact (`PRAGMA integrity_check`)?
 * Damage confined to indexes — entries missing from or extra in an index, which SQLite rebuilds
 * from the tables, or a damaged full-text index, which the full-text part rebuilds from the
 * memories — is repaired in place. Any other damage is left alone: writing into a file whose
 * pages or free list are broken can spread the damage to memories that are still readable, so
 * the way out is a backup or an export of what can be read (doctor-recovery.ts says which).
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { plural, REPAIR_COMMAND } from './doctor-part.js';
import { RESTORE } from './doctor-recovery.js';
import { isDamage } from './storage-error.js';

/**
 * integrity_check lines asked for at most. SQLite stops there, so a list this long may hide other
 * damage after it and is not trusted to be index damage alone.
 */
const MAX_LINES = 1000;
/**
 * Lines that name damage inside an index alone, which REINDEX rebuilds from the table, or inside
 * the full-text index (FTS5's own check, run by integrity_check since SQLite 3.44), which is
 * rebuilt from the memories. Not "non-unique entry in UNIQUE index": the table then holds the
 * duplicates, and REINDEX fails rather than drop a row.
 */
const INDEX_DAMAGE =
  /^(row \d+ missing from index |wrong # of entries in index |malformed inverted index for FTS5 table main\.memories_fts$|fts5: .*"memories_fts")/;

export interface Integrity {
  /** Damage the repair leaves alone has no fix yet: what can still be read decides it (recoveryFix). */
  finding: DoctorFinding;
  ok: boolean;
  /** Whether every fault is one the repair mends: damaged indexes at most. */
  indexesOnly: boolean;
}

export function examineIntegrity(db: Database.Database): Integrity {
  let lines: string[];
  try {
    const rows = db.pragma(`integrity_check(${MAX_LINES})`) as { integrity_check: string }[];
    lines = rows.map((row) => row.integrity_check);
  } catch (error) {
    // Locked, unreadable, a read-only folder: not a finding about the file; the caller hears it.
    if (!isDamage(error)) throw error;
    return unreadable(error as Error & { code: string });
  }
  if (lines.length === 1 && lines[0] === 'ok') {
    return {
      ok: true,
      indexesOnly: true,
      finding: { check: 'integrity', status: 'ok', message: 'SQLite finds the file intact', fix: null },
    };
  }
  return damaged(lines, true);
}

/** Rebuilds every index from its table. */
export function rebuildIndexes(db: Database.Database): DoctorRepair {
  db.exec('REINDEX');
  return { check: 'integrity', message: 'rebuilt every index from its table' };
}

/** What integrity_check's lines say; `listed` when they are its list (which may name index damage alone). */
function damaged(lines: readonly string[], listed: boolean): Integrity {
  const indexesOnly = listed && lines.length < MAX_LINES && lines.every((line) => INDEX_DAMAGE.test(line));
  const more = lines.length > 1 ? ` (and ${plural(lines.length - 1, 'more fault')})` : '';
  return {
    ok: false,
    indexesOnly,
    finding: {
      check: 'integrity',
      status: 'problem',
      message: `SQLite finds the file damaged: ${lines[0]}${more}`,
      fix: indexesOnly ? `${REPAIR_COMMAND} rebuilds the damaged indexes from the tables` : null,
    },
  };
}

/** A file SQLite could not walk at all: not a database (a wrong --db), or damaged past that. */
function unreadable(error: Error & { code: string }): Integrity {
  if (error.code !== 'SQLITE_NOTADB') return damaged([error.message], false);
  const message = `not a SQLite database, or one whose first page is damaged (${error.message})`;
  return {
    ok: false,
    indexesOnly: false,
    finding: {
      check: 'integrity',
      status: 'problem',
      message,
      fix: `point --db at an Engram database; if this was one, ${RESTORE}`,
    },
  };
}
