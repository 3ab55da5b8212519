/**
 * The doctor's session part for PostgreSQL, as the SQLite one (../sqlite/doctor-sessions.ts):
 * receipts and injections belong to a session that exists, and an injection to its receipt and
 * to a memory that exists. No foreign key holds these links (a session is written after its
 * first receipt may be), so the doctor finds what a crash or a hand edit left; the repair
 * deletes the orphans, and sessions, receipts of live sessions and memories stay.
 */
import type { DoctorFinding } from '../doctor-report.js';
import { ORPHAN_INJECTIONS, ORPHAN_RECEIPTS } from '../sql-core/doctor-links.js';
import { changesOf, countOf, findingsOf, plural, type PostgresDoctorPart, repairable } from './doctor-part.js';

export const sessionsPart: PostgresDoctorPart = {
  check: 'sessions',
  tables: ['memories', 'sessions', 'receipts', 'injections'],

  async examine(db) {
    const receipts = await countOf(db, `SELECT count(*) AS n ${ORPHAN_RECEIPTS}`);
    const injections = await countOf(db, `SELECT count(*) AS n ${ORPHAN_INJECTIONS}`);
    const orphans = [
      receipts > 0 ? `${plural(receipts, 'receipt')} whose session is gone` : '',
      injections > 0 ? `${plural(injections, 'injection')} whose session, receipt or memory is gone` : '',
    ].filter(Boolean);
    const problems: DoctorFinding[] =
      orphans.length > 0 ? [repairable('sessions', `orphaned session rows: ${orphans.join(', ')}`, 'deletes them')] : [];
    const sessions = await countOf(db, `SELECT count(*) AS n FROM sessions`);
    const all = await countOf(db, `SELECT count(*) AS n FROM receipts`);
    return findingsOf('sessions', problems, `${plural(sessions, 'session')} and ${plural(all, 'receipt')}, none orphaned`);
  },

  async repair(db) {
    // Receipts first: an injection of a deleted receipt is an orphan too.
    const receipts = await changesOf(db, `DELETE ${ORPHAN_RECEIPTS}`);
    const injections = await changesOf(db, `DELETE ${ORPHAN_INJECTIONS}`);
    return receipts + injections > 0
      ? [
          {
            check: 'sessions',
            message: `deleted orphaned session rows: ${plural(receipts, 'receipt')}, ${plural(injections, 'injection')}`,
          },
        ]
      : [];
  },
};
