/**
 * A PostgreSQL memory's full-text words compared with, and written again from, what the store
 * would write for it now (lexical-text.ts computes them in Engram, so they are recomputed here
 * page by page and compared on the server). The doctor checks and repairs with it; a migration
 * that changes which words are indexed (schema 7: CJK bigrams and emoji) writes them with it.
 * A memory changed while its page was read matches none of the page's fields and is left to the
 * write that changed it.
 */
import type { Memory } from '../../model/memory.js';
import { MEMORY_COLUMNS, type MemoryRow, rowToMemory } from '../sql-core/rows.js';
import type { Queryable } from './connection.js';
import { searchFields, searchVectorSql } from './lexical-text.js';

/** Memories read and compared per round trip. */
const PAGE = 500;
/**
 * Each memory of a page as unnest() rows: its stored fields (so a memory changed since the page
 * was read matches none) and the words and length the store would write for them.
 */
export const PAGE_ROWS = `unnest($1::integer[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
  $8::text[], $9::text[], $10::text[], $11::integer[]) AS u(rowid, text, abstract, tags, context, a, b, c, d, s, n)`;
/** The memory `m` is the page row `u`, unchanged since it was read. */
export const SAME_FIELDS = `m.rowid = u.rowid AND m.text = u.text AND m.abstract IS NOT DISTINCT FROM u.abstract
  AND m.tags = u.tags AND m.context IS NOT DISTINCT FROM u.context`;
const EXPECTED = searchVectorSql(['u.a', 'u.b', 'u.c', 'u.d', 'u.s']);
/** The memory `m`'s words or length are not what the store would write for the page row `u`. */
export const DIFFERENT = `(m.search_vector IS DISTINCT FROM (${EXPECTED}) OR m.search_length <> u.n)`;

/**
 * Characters that CJK bigrams and emoji come from are "©", "®", Hangul jamo or from U+203C on
 * (as segmented-words.ts tests first): a memory without any has no segment terms.
 */
const MAYBE_SEGMENTED = String.raw`(m.text || coalesce(m.abstract, '') || m.tags || coalesce(m.context, '')) ~ '[\u00a9\u00ae\u1100-\u11ff\u203c-\U0010ffff]'`;

/**
 * Every memory (or, with `onlySegmented`, every memory that may hold CJK characters or emoji),
 * a page at a time, as the parameters of `PAGE_ROWS`.
 */
export async function* searchWordPages(db: Queryable, options: { onlySegmented?: boolean } = {}): AsyncIterable<unknown[]> {
  const read = `SELECT m.rowid, ${MEMORY_COLUMNS.map((c) => `m.${c}`).join(', ')} FROM memories m
    WHERE m.rowid > $1${options.onlySegmented ? ` AND ${MAYBE_SEGMENTED}` : ''} ORDER BY m.rowid LIMIT ${PAGE}`;
  let after = 0;
  for (;;) {
    const rows = (await db.query(read, [after])).rows as MemoryRow[];
    if (rows.length === 0) return;
    const memories: Memory[] = rows.map(rowToMemory);
    const fields = memories.map(searchFields);
    const column = (i: number) => fields.map((f) => f.fields[i]);
    yield [
      rows.map((row) => row.rowid),
      rows.map((row) => row.text),
      rows.map((row) => row.abstract),
      rows.map((row) => row.tags),
      rows.map((row) => row.context),
      column(0),
      column(1),
      column(2),
      column(3),
      column(4),
      fields.map((f) => f.length),
    ];
    after = rows[rows.length - 1]?.rowid ?? after;
    if (rows.length < PAGE) return;
  }
}

/**
 * Writes again the words of every memory whose words differ from what the store would write
 * now (with `onlySegmented`, looking only at memories that may hold CJK characters or emoji);
 * returns how many were written. The word statistics follow by their triggers.
 */
export async function rewriteSearchWords(db: Queryable, options: { onlySegmented?: boolean } = {}): Promise<number> {
  let written = 0;
  for await (const page of searchWordPages(db, options)) {
    const result = await db.query(
      `UPDATE memories m SET search_vector = ${EXPECTED}, search_length = u.n FROM ${PAGE_ROWS}
       WHERE ${SAME_FIELDS} AND ${DIFFERENT}`,
      page,
    );
    written += result.rowCount ?? 0;
  }
  return written;
}
