/**
 * The links the doctor's graph and session parts check, as SQL both backends run as written:
 * the rows each kind of broken link selects (`FROM …`), how the repair mends them, and the
 * memories whose graph extraction failed.
 */
import { EXAMPLES, plural } from '../doctor-wording.js';

/** Each kind of broken link: what it is called, the rows it selects, and how the repair mends them. */
export const GRAPH_LINKS = [
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

/** Receipts whose session is gone. */
export const ORPHAN_RECEIPTS = `FROM receipts AS r WHERE r.session_id IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant = r.tenant AND s.id = r.session_id)`;
/** Injections whose session, receipt or memory is gone. */
export const ORPHAN_INJECTIONS = `FROM injections AS i
  WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE s.tenant = i.tenant AND s.id = i.session_id)
     OR NOT EXISTS (SELECT 1 FROM receipts r WHERE r.id = i.receipt_id)
     OR NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = i.memory_id AND m.tenant = i.tenant)`;

/** The memories whose graph extraction failed, as the doctor's graph part reads them (SQL both backends run). */
export const EXTRACTION_FAILURES = {
  count: `SELECT count(*) AS n FROM extraction_failures`,
  newest: `SELECT m.id AS id, f.error AS error FROM extraction_failures f JOIN memories m ON m.rowid = f.memory_rowid
    ORDER BY f.failed_at DESC, m.id LIMIT ${EXAMPLES}`,
};
