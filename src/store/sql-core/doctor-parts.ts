/**
 * The doctor's parts that examine and repair both databases alike, written once as programs: the
 * session part (receipts and injections belong to a session that exists, an injection to its
 * receipt and to a memory that exists; the repair deletes the orphans) and the graph part (every
 * link points at rows that exist; the repair mends them, and failed extractions are told as a
 * notice). SQLite's triggers and PostgreSQL's foreign keys keep these links; a break means a
 * damaged file, an older tool, or a restore that bypassed them. Each driver's doctor runs them
 * beside its own parts (../sqlite/doctor.ts, ../postgres/doctor.ts).
 */
import type { DoctorCheck, DoctorFinding, DoctorRepair } from '../doctor-report.js';
import { extractionFailureNotice, findingsOf, plural, repairable } from '../doctor-wording.js';
import { EXTRACTION_FAILURES, GRAPH_LINKS, ORPHAN_INJECTIONS, ORPHAN_RECEIPTS } from './doctor-links.js';
import { all, type Answer, get, type Program, run, type Session, type SessionMode } from './session.js';
import { raw, sql, tableExists } from './sql.js';

/** One part of a database the doctor examines and, when asked, repairs, as programs of the core. */
export interface SharedDoctorPart {
  check: DoctorCheck;
  /** Tables the part reads; a database without them has nothing to check. */
  tables: readonly string[];
  /** What is wrong, one finding per kind of fault, or one `ok` finding. Reads only. */
  examine(): Program<DoctorFinding[]>;
  /** Fixes what `examine` found without losing a memory; runs inside the caller's transaction. */
  repair(): Program<DoctorRepair[]>;
}

/** `part` as a driver's doctor runs it: on a connection `db`, through the session `sessionOf(db)` gives. */
export function driverPart<Db, Mode extends SessionMode>(
  part: SharedDoctorPart,
  sessionOf: (db: Db) => Session<Mode>,
): {
  check: DoctorCheck;
  tables: readonly string[];
  examine(db: Db): Answer<Mode, DoctorFinding[]>;
  repair(db: Db): Answer<Mode, DoctorRepair[]>;
} {
  return {
    check: part.check,
    tables: part.tables,
    examine: (db) => sessionOf(db).exec(part.examine()),
    repair: (db) => sessionOf(db).exec(part.repair()),
  };
}

/** The one number `selection` counts (`FROM …` text written in the code). */
function* countOf(selection: string): Program<number> {
  return Number((yield* get<{ n: number }>(sql`SELECT count(*) AS n ${raw(selection)}`))?.n ?? 0);
}

export const sessionsPart: SharedDoctorPart = {
  check: 'sessions',
  tables: ['memories', 'sessions', 'receipts', 'injections'],

  *examine() {
    const receipts = yield* countOf(ORPHAN_RECEIPTS);
    const injections = yield* countOf(ORPHAN_INJECTIONS);
    const orphans = [
      receipts > 0 ? `${plural(receipts, 'receipt')} whose session is gone` : '',
      injections > 0 ? `${plural(injections, 'injection')} whose session, receipt or memory is gone` : '',
    ].filter(Boolean);
    const problems: DoctorFinding[] =
      orphans.length > 0 ? [repairable('sessions', `orphaned session rows: ${orphans.join(', ')}`, 'deletes them')] : [];
    const sessions = yield* countOf('FROM sessions');
    const receiptsAll = yield* countOf('FROM receipts');
    return findingsOf(
      'sessions',
      problems,
      `${plural(sessions, 'session')} and ${plural(receiptsAll, 'receipt')}, none orphaned`,
    );
  },

  *repair() {
    // Receipts first: an injection of a deleted receipt is an orphan too.
    const receipts = yield* run(raw(`DELETE ${ORPHAN_RECEIPTS}`));
    const injections = yield* run(raw(`DELETE ${ORPHAN_INJECTIONS}`));
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

export const graphPart: SharedDoctorPart = {
  check: 'graph',
  tables: ['memories', 'entities', 'entity_aliases', 'relations', 'mentions'],

  *examine() {
    const broken: string[] = [];
    for (const link of GRAPH_LINKS) {
      const n = yield* countOf(link.rows);
      if (n > 0) broken.push(link.what(n));
    }
    const problems = broken.length > 0 ? [repairable('graph', `broken links: ${broken.join(', ')}`, 'removes them')] : [];
    const entities = yield* countOf('FROM entities');
    const mentions = yield* countOf('FROM mentions');
    return [
      ...findingsOf(
        'graph',
        problems,
        `${plural(entities, 'entity', 'entities')} and ${plural(mentions, 'mention')}, every link whole`,
      ),
      ...(yield* extractionFailures()),
    ];
  },

  *repair() {
    const mended: string[] = [];
    for (const link of GRAPH_LINKS) {
      const n = yield* run(raw(link.mend(link.rows)));
      if (n > 0) mended.push(link.what(n));
    }
    return mended.length > 0 ? [{ check: 'graph', message: `mended broken links: ${mended.join(', ')}` }] : [];
  },
};

/** A notice of the memories whose extraction failed, when there are any (and the database has the table). */
function* extractionFailures(): Program<DoctorFinding[]> {
  const present = yield* get<{ present: number | boolean }>(sql`SELECT ${tableExists('extraction_failures')} AS present`);
  if (!present?.present) return [];
  const count = Number((yield* get<{ n: number }>(raw(EXTRACTION_FAILURES.count)))?.n ?? 0);
  if (count === 0) return [];
  return [extractionFailureNotice(count, yield* all<{ id: string; error: string }>(raw(EXTRACTION_FAILURES.newest)))];
}
