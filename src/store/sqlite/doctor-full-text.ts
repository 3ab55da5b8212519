/**
 * The doctor's full-text part: every memory has its row in the FTS5 index and no row is left
 * without a memory. The index keeps one `memories_fts_docsize` row per indexed memory, which
 * names what is missing or extra; FTS5's own integrity check then compares the indexed words with
 * the memories' text, and each memory's CJK words and emoji (its `segment_terms` column) are
 * compared with what its fields give (stale-segment-terms.ts). The repair writes stale columns
 * again and rebuilds the index from the memories, whose records it otherwise only reads.
 */
import type Database from 'better-sqlite3';

import type { DoctorFinding } from '../doctor-report.js';
import { countOf, type DoctorPart, EXAMPLES, examples, findingsOf, plural, repairable } from './doctor-part.js';
import { findStaleSegmentTerms, rewriteSegmentTerms } from './stale-segment-terms.js';
import { isDamage } from './storage-error.js';

/** How long the words' comparison waits for another process's write lock. */
const LOCK_WAIT_MS = 500;
const MISSING = `FROM memories m WHERE NOT EXISTS (SELECT 1 FROM memories_fts_docsize d WHERE d.id = m.rowid)`;
const EXTRA = `FROM memories_fts_docsize d WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = d.id)`;

export const fullTextPart: DoctorPart = {
  check: 'full_text',
  tables: ['memories', 'memories_fts', 'memories_fts_docsize'],

  examine(db) {
    const problems: DoctorFinding[] = [];
    const missing = countOf(db, `SELECT count(*) ${MISSING}`);
    if (missing > 0) {
      const ids = db.prepare(`SELECT m.id ${MISSING} LIMIT ${EXAMPLES}`).pluck().all() as string[];
      problems.push(
        repairable(
          'full_text',
          `${plural(missing, 'memory', 'memories')} missing from the full-text index${examples(ids, missing)}: search by words cannot find them`,
          'rebuilds the index',
        ),
      );
    }
    const extra = countOf(db, `SELECT count(*) ${EXTRA}`);
    if (extra > 0) {
      problems.push(repairable('full_text', `${plural(extra, 'full-text row')} without a memory`, 'rebuilds the index'));
    }
    const stale = findStaleSegmentTerms(db);
    if (stale.length > 0) {
      const ids = stale.slice(0, EXAMPLES).map((memory) => memory.id);
      problems.push(
        repairable(
          'full_text',
          `${plural(stale.length, 'memory', 'memories')} whose CJK words and emoji in the full-text index do not match their text${examples(ids, stale.length)}: search by those characters misses or misranks them`,
          'writes them again',
        ),
      );
    }
    const compared = problems.length === 0 ? wordsMatch(db) : true;
    if (compared === false) {
      problems.push(
        repairable('full_text', `the full-text index does not hold the words of the memories' text`, 'rebuilds the index'),
      );
    }
    const memories = countOf(db, `SELECT count(*) FROM memories`);
    const unchecked = compared === null ? ' (their words not compared: the file is read-only or another process is writing)' : '';
    return findingsOf(
      'full_text',
      problems,
      `${plural(memories, 'memory', 'memories')} indexed, none missing or extra${unchecked}`,
    );
  },

  repair(db) {
    const written = rewriteSegmentTerms(db, findStaleSegmentTerms(db));
    db.prepare(`INSERT INTO memories_fts (memories_fts) VALUES ('rebuild')`).run();
    return [
      ...(written > 0
        ? [
            {
              check: 'full_text' as const,
              message: `wrote the CJK words and emoji of ${plural(written, 'memory', 'memories')} again`,
            },
          ]
        : []),
      { check: 'full_text', message: 'rebuilt the full-text index from the memories' },
    ];
  },
};

/**
 * FTS5's integrity check, comparing the index with the memories (`rank = 1`): true when they
 * agree, false when not, null when it could not run. The check is written as an insert, though
 * it changes nothing, so it needs the write lock: on a read-only file, or while another process
 * holds the lock past a short wait, the words are left uncompared rather than the doctor failing.
 */
function wordsMatch(db: Database.Database): boolean | null {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${Math.min(timeout, LOCK_WAIT_MS)}`);
  try {
    db.prepare(`INSERT INTO memories_fts (memories_fts, rank) VALUES ('integrity-check', 1)`).run();
    return true;
  } catch (error) {
    // SQLITE_CORRUPT_VTAB when the words differ; plain SQLITE_CORRUPT when the index's pages do.
    if (isDamage(error)) return false;
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && /^SQLITE_(READONLY|BUSY)/.test(code)) return null;
    throw error;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
