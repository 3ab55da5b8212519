/**
 * The doctor's full-text part: every memory's `tsvector` holds the words of its text, abstract,
 * tags and context and their CJK bigrams and emoji, as the store would write them now
 * (search-words.ts compares them page by page on the server), and the GIN
 * index over them is there and valid, and the word statistics BM25 reads (how many memories and
 * words: `search_statistics`) agree with the memories. The repair writes the words again from
 * the memories, which it only reads (a memory changed meanwhile is left to the write that
 * changed it), and counts the statistics again.
 */
import type { DoctorFinding, DoctorRepair } from '../doctor-report.js';
import type { Queryable } from './connection.js';
import { EXAMPLES, examples, findingsOf, plural, type PostgresDoctorPart, repairable } from './doctor-part.js';
import { DIFFERENT, PAGE_ROWS, rewriteSearchWords, SAME_FIELDS, searchWordPages } from './search-words.js';

const INDEX = 'memories_search';

export const fullTextPart: PostgresDoctorPart = {
  check: 'full_text',
  tables: ['memories'],

  async examine(db) {
    const problems: DoctorFinding[] = [];
    const index = await indexState(db);
    if (index !== 'valid') {
      const what = index === 'missing' ? `is gone` : `is invalid (an interrupted build)`;
      problems.push(
        repairable('full_text', `the full-text index ${INDEX} ${what}: search by words reads every memory`, 'builds it again'),
      );
    }
    const stale = { empty: [] as string[], different: [] as string[] };
    for await (const page of searchWordPages(db)) {
      const result = await db.query(
        `SELECT m.id, length(m.search_vector) = 0 AS empty FROM ${PAGE_ROWS} JOIN memories m ON ${SAME_FIELDS}
         WHERE ${DIFFERENT} ORDER BY m.rowid`,
        page,
      );
      for (const row of result.rows as { id: string; empty: boolean }[]) (row.empty ? stale.empty : stale.different).push(row.id);
    }
    if (stale.empty.length > 0) {
      const ids = stale.empty.slice(0, EXAMPLES);
      problems.push(
        repairable(
          'full_text',
          `${plural(stale.empty.length, 'memory', 'memories')} without full-text words${examples(ids, stale.empty.length)}: search by words cannot find them`,
          'writes their words again',
        ),
      );
    }
    if (stale.different.length > 0) {
      const ids = stale.different.slice(0, EXAMPLES);
      problems.push(
        repairable(
          'full_text',
          `${plural(stale.different.length, 'memory', 'memories')} whose full-text words do not match their text${examples(ids, stale.different.length)}: search by words misses or misranks them`,
          'writes their words again',
        ),
      );
    }
    const totals = await wordTotals(db);
    if (
      totals !== null &&
      (totals.kept === null || totals.kept.memories !== totals.memories || totals.kept.words !== totals.words)
    ) {
      const kept =
        totals.kept === null
          ? 'are missing'
          : `say ${plural(totals.kept.memories, 'memory', 'memories')} of ${plural(totals.kept.words, 'word', 'words')}`;
      problems.push(
        repairable(
          'full_text',
          `the word statistics (search_statistics) ${kept} where the store holds ${plural(totals.memories, 'memory', 'memories')} of ${plural(totals.words, 'word', 'words')}: search by words scores with the wrong numbers`,
          'counts them again',
        ),
      );
    }
    const memories = Number((await db.query(`SELECT count(*) AS n FROM memories`)).rows[0]?.n ?? 0);
    return findingsOf(
      'full_text',
      problems,
      `${plural(memories, 'memory', 'memories')} indexed, every one by the words of its text`,
    );
  },

  async repair(db) {
    const repairs: DoctorRepair[] = [];
    const index = await indexState(db);
    if (index === 'invalid') await db.query(`REINDEX INDEX ${INDEX}`);
    if (index === 'missing') await db.query(`CREATE INDEX ${INDEX} ON memories USING gin (search_vector)`);
    if (index !== 'valid') repairs.push({ check: 'full_text', message: `built the full-text index ${INDEX} again` });
    const written = await rewriteSearchWords(db);
    if (written > 0) {
      repairs.push({
        check: 'full_text',
        message: `wrote the full-text words of ${plural(written, 'memory', 'memories')} again`,
      });
    }
    // Last, so the count includes the words just written; the change moves, so every process counts its parts again.
    const totals = await wordTotals(db);
    if (
      totals !== null &&
      (totals.kept === null || totals.kept.memories !== totals.memories || totals.kept.words !== totals.words)
    ) {
      await db.query(
        `INSERT INTO search_statistics (memories, words, change) VALUES ($1, $2, 1)
         ON CONFLICT (only_row) DO UPDATE SET memories = excluded.memories, words = excluded.words,
           change = search_statistics.change + 1`,
        [totals.memories, totals.words],
      );
      repairs.push({ check: 'full_text', message: 'counted the word statistics again' });
    }
    return repairs;
  },
};

/**
 * The memories and words `search_statistics` keeps (null when its row is gone) beside the counts
 * of the memories themselves; null when the schema predates the table (the upgrade counts them).
 */
async function wordTotals(
  db: Queryable,
): Promise<{ kept: { memories: number; words: number } | null; memories: number; words: number } | null> {
  const present = await db.query(`SELECT to_regclass('search_statistics') IS NOT NULL AS present`);
  if (!(present.rows[0] as { present: boolean }).present) return null;
  const result = await db.query(
    `SELECT (SELECT memories FROM search_statistics) AS kept_memories, (SELECT words FROM search_statistics) AS kept_words,
       count(*) AS memories, coalesce(sum(search_length), 0) AS words FROM memories`,
  );
  const row = result.rows[0] as Record<string, string | number | null>;
  return {
    kept: row.kept_memories === null ? null : { memories: Number(row.kept_memories), words: Number(row.kept_words) },
    memories: Number(row.memories),
    words: Number(row.words),
  };
}

/** Whether the GIN index over the words is there and usable. */
async function indexState(db: Queryable): Promise<'valid' | 'invalid' | 'missing'> {
  const result = await db.query(`SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`, [INDEX]);
  const row = result.rows[0] as { valid: boolean } | undefined;
  return row === undefined ? 'missing' : row.valid ? 'valid' : 'invalid';
}
