/**
 * The doctor's graph part: mentions point at a memory and an entity that exist, relations at
 * entities that exist, a relation's source memory exists or is cleared, aliases belong to an
 * entity. Triggers keep these links (migration 6); the doctor finds what a damaged file or an
 * older tool left behind, and the repair removes it (a relation whose memory is gone is kept,
 * its source cleared, as the trigger does). It also tells of the memories whose graph
 * extraction failed (a notice: they are stored; `engram reindex` extracts them again).
 */
import type { DoctorFinding } from '../doctor-report.js';
import { extractionFailureNotice } from '../doctor-wording.js';
import { EXTRACTION_FAILURES, GRAPH_LINKS } from '../sql-core/doctor-links.js';
import { countOf, type DoctorPart, findingsOf, hasTable, plural, repairable } from './doctor-part.js';

export const graphPart: DoctorPart = {
  check: 'graph',
  tables: ['memories', 'entities', 'entity_aliases', 'relations', 'mentions'],

  examine(db) {
    const broken = GRAPH_LINKS.flatMap((link) => {
      const n = countOf(db, `SELECT count(*) ${link.rows}`);
      return n > 0 ? [link.what(n)] : [];
    });
    const problems = broken.length > 0 ? [repairable('graph', `broken links: ${broken.join(', ')}`, 'removes them')] : [];
    const entities = countOf(db, `SELECT count(*) FROM entities`);
    const mentions = countOf(db, `SELECT count(*) FROM mentions`);
    return [
      ...findingsOf(
        'graph',
        problems,
        `${plural(entities, 'entity', 'entities')} and ${plural(mentions, 'mention')}, every link whole`,
      ),
      ...extractionFailures(db),
    ];
  },

  repair(db) {
    const mended = GRAPH_LINKS.flatMap((link) => {
      const n = db.prepare(link.mend(link.rows)).run().changes;
      return n > 0 ? [link.what(n)] : [];
    });
    return mended.length > 0 ? [{ check: 'graph', message: `mended broken links: ${mended.join(', ')}` }] : [];
  },
};

/** A notice of the memories whose extraction failed, when there are any (and the file has the table, schema 11 on). */
function extractionFailures(db: Parameters<DoctorPart['examine']>[0]): DoctorFinding[] {
  if (!hasTable(db, 'extraction_failures')) return [];
  const count = countOf(db, EXTRACTION_FAILURES.count);
  if (count === 0) return [];
  return [extractionFailureNotice(count, db.prepare(EXTRACTION_FAILURES.newest).all() as { id: string; error: string }[])];
}
