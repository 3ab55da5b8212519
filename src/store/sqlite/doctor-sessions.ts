/**
 * The doctor's session part: receipts and injections belong to a session that exists, and an
 * injection to its receipt and to a memory that exists (a purged memory takes its injections
 * with it). The repair deletes the orphans; sessions, receipts of live sessions and memories stay.
 */
import type { DoctorFinding } from '../doctor-report.js';
import { ORPHAN_INJECTIONS, ORPHAN_RECEIPTS } from '../sql-core/doctor-links.js';
import { countOf, type DoctorPart, findingsOf, plural, repairable } from './doctor-part.js';

export const sessionsPart: DoctorPart = {
  check: 'sessions',
  tables: ['memories', 'sessions', 'receipts', 'injections'],

  examine(db) {
    const receipts = countOf(db, `SELECT count(*) ${ORPHAN_RECEIPTS}`);
    const injections = countOf(db, `SELECT count(*) ${ORPHAN_INJECTIONS}`);
    const orphans = [
      receipts > 0 ? `${plural(receipts, 'receipt')} whose session is gone` : '',
      injections > 0 ? `${plural(injections, 'injection')} whose session, receipt or memory is gone` : '',
    ].filter(Boolean);
    const problems: DoctorFinding[] =
      orphans.length > 0 ? [repairable('sessions', `orphaned session rows: ${orphans.join(', ')}`, 'deletes them')] : [];
    const sessions = countOf(db, `SELECT count(*) FROM sessions`);
    const all = countOf(db, `SELECT count(*) FROM receipts`);
    return findingsOf('sessions', problems, `${plural(sessions, 'session')} and ${plural(all, 'receipt')}, none orphaned`);
  },

  repair(db) {
    // Receipts first: an injection of a deleted receipt is an orphan too.
    const receipts = db.prepare(`DELETE ${ORPHAN_RECEIPTS}`).run().changes;
    const injections = db.prepare(`DELETE ${ORPHAN_INJECTIONS}`).run().changes;
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
