/**
 * Exact similarities to the latest query vector, by rowid. One recall decision searches with
 * one query vector several times (a wide search, then a tier's own), and their candidates
 * overlap; each vector is read from the file and scored once per query instead of once per
 * search. Holds one query's scores at a time; a new query vector starts afresh.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */

/** A memory's exact similarity to the query. */
interface Scored {
  id: string;
  similarity: number;
}

/** Scores kept for one query at most; past it the oldest half is let go. */
const MAX_SCORES = 4_096;

export class QueryScores {
  private query: Buffer | null = null;
  private readonly scores = new Map<number, Scored>();

  /** The scores already known for `query` among `rowids`, and the rowids still to score. */
  split(query: Buffer, rowids: readonly number[]): { known: Scored[]; missing: number[] } {
    if (this.query === null || !this.query.equals(query)) {
      this.query = Buffer.from(query);
      this.scores.clear();
    }
    const known: Scored[] = [];
    const missing: number[] = [];
    for (const rowid of rowids) {
      const row = this.scores.get(rowid);
      if (row) known.push(row);
      else missing.push(rowid);
    }
    return { known, missing };
  }

  /** Keeps the scores of the query last given to `split`. */
  keep(rows: readonly (Scored & { rowid: number })[]): void {
    if (this.scores.size + rows.length > MAX_SCORES) {
      let drop = this.scores.size >> 1;
      for (const rowid of this.scores.keys()) {
        if (drop-- <= 0) break;
        this.scores.delete(rowid);
      }
    }
    for (const { rowid, id, similarity } of rows) this.scores.set(rowid, { id, similarity });
  }

  /** Forgets the score of `rowid` (its vector changed or went). */
  drop(rowid: number): void {
    this.scores.delete(rowid);
  }

  clear(): void {
    this.query = null;
    this.scores.clear();
  }
}
