/**
 * The doctor's graph part for PostgreSQL, as the SQLite one (../sqlite/doctor-graph.ts):
 * mentions point at a memory and an entity that exist, relations at entities that exist, a
 * relation's source memory exists or is cleared, aliases belong to an entity. Foreign keys keep
 * these links (migration 1), so a break means they were bypassed — a restore with triggers
 * disabled, `session_replication_role = replica` — and the repair removes what points nowhere
 * (a relation whose memory is gone is kept, its source cleared, as its key's ON DELETE does).
 * It also tells of the memories whose graph extraction failed (a notice, as SQLite's).
 */
import { extractionFailureNotice } from '../doctor-wording.js';
import { EXTRACTION_FAILURES, GRAPH_LINKS } from '../sql-core/doctor-links.js';
import { changesOf, countOf, findingsOf, hasTables, plural, type PostgresDoctorPart, repairable } from './doctor-part.js';

export const graphPart: PostgresDoctorPart = {
  check: 'graph',
  tables: ['memories', 'entities', 'entity_aliases', 'relations', 'mentions'],

  async examine(db) {
    const broken: string[] = [];
    for (const link of GRAPH_LINKS) {
      const n = await countOf(db, `SELECT count(*) AS n ${link.rows}`);
      if (n > 0) broken.push(link.what(n));
    }
    const problems = broken.length > 0 ? [repairable('graph', `broken links: ${broken.join(', ')}`, 'removes them')] : [];
    const entities = await countOf(db, `SELECT count(*) AS n FROM entities`);
    const mentions = await countOf(db, `SELECT count(*) AS n FROM mentions`);
    const failures = (await hasTables(db, ['extraction_failures'])) ? await countOf(db, EXTRACTION_FAILURES.count) : 0;
    const newest = failures > 0 ? ((await db.query(EXTRACTION_FAILURES.newest)).rows as { id: string; error: string }[]) : [];
    return [
      ...findingsOf(
        'graph',
        problems,
        `${plural(entities, 'entity', 'entities')} and ${plural(mentions, 'mention')}, every link whole`,
      ),
      ...(failures > 0 ? [extractionFailureNotice(failures, newest)] : []),
    ];
  },

  async repair(db) {
    const mended: string[] = [];
    for (const link of GRAPH_LINKS) {
      const n = await changesOf(db, link.mend(link.rows));
      if (n > 0) mended.push(link.what(n));
    }
    return mended.length > 0 ? [{ check: 'graph', message: `mended broken links: ${mended.join(', ')}` }] : [];
  },
};
