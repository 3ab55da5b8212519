/**
 * The doctor's graph part: mentions point at a memory and an entity that exist, relations at
 * entities that exist, a relation's source memory exists or is cleared, aliases belong to an
 * entity. Triggers keep these links (migration 6); the doctor finds what a damaged file or an
 * older tool left behind, and the repair removes it (a relation whose memory is gone is kept,
 * its source cleared, as the trigger does).
 */
import { countOf, type DoctorPart, findingsOf, plural, repairable } from './doctor-part.js';

/** Each kind of broken link: what it is called, the rows it selects, and how the repair mends them. */
const LINKS = [
  {
    what: (n: number) => `${plural(n, 'mention')} of a memory or entity that is gone`,
    rows: `FROM mentions AS x WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = x.memory_rowid)
      OR NOT EXISTS (SELECT 1 FROM entities e WHERE e.rowid = x.entity_rowid)`,
    mend: (rows: string) => `DELETE ${rows}`,
  },
  {
    what: (n: number) => `${plural(n, 'relation')} to an entity that is gone`,
    rows: `FROM relations AS x WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.rowid = x.from_rowid)
      OR NOT EXISTS (SELECT 1 FROM entities e WHERE e.rowid = x.to_rowid)`,
    mend: (rows: string) => `DELETE ${rows}`,
  },
  {
    what: (n: number) => `${plural(n, 'relation')} naming a source memory that is gone`,
    rows: `FROM relations AS x WHERE x.memory_rowid IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM memories m WHERE m.rowid = x.memory_rowid)`,
    mend: (rows: string) => `UPDATE relations SET memory_rowid = NULL WHERE rowid IN (SELECT x.rowid ${rows})`,
  },
  {
    what: (n: number) => `${plural(n, 'alias', 'aliases')} of an entity that is gone`,
    rows: `FROM entity_aliases AS x WHERE NOT EXISTS (SELECT 1 FROM entities e WHERE e.rowid = x.entity_rowid)`,
    mend: (rows: string) => `DELETE ${rows}`,
  },
] as const;

export const graphPart: DoctorPart = {
  check: 'graph',
  tables: ['memories', 'entities', 'entity_aliases', 'relations', 'mentions'],

  examine(db) {
    const broken = LINKS.flatMap((link) => {
      const n = countOf(db, `SELECT count(*) ${link.rows}`);
      return n > 0 ? [link.what(n)] : [];
    });
    const problems = broken.length > 0 ? [repairable('graph', `broken links: ${broken.join(', ')}`, 'removes them')] : [];
    const entities = countOf(db, `SELECT count(*) FROM entities`);
    const mentions = countOf(db, `SELECT count(*) FROM mentions`);
    return findingsOf(
      'graph',
      problems,
      `${plural(entities, 'entity', 'entities')} and ${plural(mentions, 'mention')}, every link whole`,
    );
  },

  repair(db) {
    const mended = LINKS.flatMap((link) => {
      const n = db.prepare(link.mend(link.rows)).run().changes;
      return n > 0 ? [link.what(n)] : [];
    });
    return mended.length > 0 ? [{ check: 'graph', message: `mended broken links: ${mended.join(', ')}` }] : [];
  },
};
