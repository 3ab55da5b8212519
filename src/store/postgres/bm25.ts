/**
 * BM25 as FTS5 computes it (k1 = 1.2, b = 0.75, per-column weights, IDF floored at 1e-6),
 * from a memory's `tsvector` (positions with field weights) and the store's term statistics,
 * so a PostgreSQL store's lexical scores mean what the SQLite store's do. Pure: no I/O.
 */
import { FIELD_BM25_WEIGHT, type FieldWeight } from './lexical-text.js';

const K1 = 1.2;
const B = 0.75;
const MIN_IDF = 1e-6;

/** One searched part, as stems: a term, a phrase (several stems in a row) or a prefix. */
export type LexicalPart =
  { kind: 'term'; stem: string } | { kind: 'phrase'; stems: string[] } | { kind: 'prefix'; prefix: string };

/** A lexeme's positions, each with its field weight. */
export type Postings = Map<string, { position: number; weight: FieldWeight }[]>;

/** Postings from `unnest(tsvector)` rows: each lexeme with its positions and their weights (A–D). */
export function postingsOf(rows: readonly (readonly [string, readonly number[], readonly string[]])[]): Postings {
  return new Map(
    rows.map(([lexeme, positions, weights]) => [
      lexeme,
      positions.map((position, i) => ({ position, weight: (weights[i] ?? 'D') as FieldWeight })),
    ]),
  );
}

/** The weighted number of times `part` occurs in a memory (FTS5's per-phrase frequency). */
export function partFrequency(part: LexicalPart, postings: Postings): number {
  const weigh = (hits: readonly { weight: FieldWeight }[]) => hits.reduce((sum, hit) => sum + FIELD_BM25_WEIGHT[hit.weight], 0);
  if (part.kind === 'term') return weigh(postings.get(part.stem) ?? []);
  if (part.kind === 'prefix') {
    let sum = 0;
    for (const [lexeme, hits] of postings) if (lexeme.startsWith(part.prefix)) sum += weigh(hits);
    return sum;
  }
  const [first, ...rest] = part.stems;
  if (first === undefined) return 0;
  // A phrase counts where its words follow one another within one field.
  const starts = (postings.get(first) ?? []).filter(({ position, weight }) =>
    rest.every((stem, i) => (postings.get(stem) ?? []).some((hit) => hit.position === position + i + 1 && hit.weight === weight)),
  );
  return weigh(starts);
}

/** FTS5's IDF of a part found in `matches` of `rows` memories. */
export function inverseDocumentFrequency(rows: number, matches: number): number {
  const idf = Math.log((rows - matches + 0.5) / (matches + 0.5));
  return idf <= 0 ? MIN_IDF : idf;
}

/**
 * The BM25 score (higher is better) of one memory of `length` words for parts with these IDFs,
 * in a store whose memories hold `averageLength` words on average.
 */
export function bm25Score(
  parts: readonly LexicalPart[],
  idfs: readonly number[],
  postings: Postings,
  length: number,
  averageLength: number,
): number {
  let score = 0;
  parts.forEach((part, i) => {
    const frequency = partFrequency(part, postings);
    if (frequency === 0) return;
    const norm = K1 * (1 - B + (B * length) / (averageLength > 0 ? averageLength : 1));
    score += ((idfs[i] as number) * (frequency * (K1 + 1))) / (frequency + norm);
  });
  return score;
}
