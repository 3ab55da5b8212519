/**
 * The word statistics BM25 needs from a PostgreSQL store: how many memories and words the full
 * text holds, and how many memories hold each searched part. The first two are one row kept
 * exact by triggers (`search_statistics`, migration 4); the part counts are kept here between
 * searches, under the row's `change` count, which every change of any memory's words moves (in
 * the transaction that makes it). A search that finds the count moved, by this process or
 * another sharing the database, counts its parts again: without writes, a part is counted once,
 * rather than on every search through the GIN index (tens of milliseconds for a common word in a
 * store of 100,000).
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Queryable } from './connection.js';

/** Part counts kept at most; past this, the oldest are dropped. */
const MAX_PARTS = 10_000;

/** The statistics of one search, all read in one snapshot. */
export interface SearchStatistics {
  /** Memories in the full text (every tenant, as FTS5 counts them). */
  memories: number;
  /** Their words, summed. */
  words: number;
  /** Per part, in the order asked: how many memories it matches. */
  matches: number[];
}

/** The `search_statistics` row; PostgreSQL returns its bigints as text. */
interface StatisticsRow {
  memories: string | number;
  words: string | number;
  change: string | number;
}

/** Part counts of one store, shared by its searches. */
export class TermStatistics {
  private change: number | null = null;
  private readonly matches = new Map<string, number>();

  /**
   * The statistics for parts given as `tsquery` texts: one round trip, the row alone when every
   * part is kept or with the counts of the parts that are not. Should the row have moved since
   * the parts kept were counted, they are out of date too, and all of them are counted again.
   */
  async read(db: Queryable, tsqueries: readonly string[]): Promise<SearchStatistics> {
    const every = [...new Set(tsqueries)];
    let counting = every.filter((tsquery) => !this.matches.has(tsquery));
    for (;;) {
      const result = await db.query(
        `SELECT memories, words, change
           ${counting.map((_, i) => `, (SELECT count(*) FROM memories WHERE search_vector @@ $${i + 1}::tsquery) AS p${i}`).join('')}
         FROM search_statistics`,
        counting,
      );
      const row = result.rows[0] as StatisticsRow & Record<string, unknown>;
      const moved = Number(row.change) !== this.change;
      this.follow(row);
      if (moved && counting.length < every.length) {
        counting = every;
        continue;
      }
      counting.forEach((tsquery, i) => this.remember(tsquery, Number(row[`p${i}`])));
      return {
        memories: Number(row.memories),
        words: Number(row.words),
        matches: tsqueries.map((tsquery) => this.matches.get(tsquery) ?? 0),
      };
    }
  }

  /** Takes the row's change count; a new one drops every part count kept. */
  private follow(row: StatisticsRow): StatisticsRow {
    const change = Number(row.change);
    if (change !== this.change) this.matches.clear();
    this.change = change;
    return row;
  }

  private remember(tsquery: string, count: number): void {
    if (this.matches.size >= MAX_PARTS) {
      const oldest = this.matches.keys().next().value;
      if (oldest !== undefined) this.matches.delete(oldest);
    }
    this.matches.set(tsquery, count);
  }
}
