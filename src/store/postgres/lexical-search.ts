/**
 * Full-text search of a PostgreSQL store: the GIN index on `search_vector` finds the memories
 * matching any part of the query, and each is scored with FTS5's BM25 (bm25.ts) from its own
 * `tsvector` and the store's word statistics (how many memories, how many words, how many
 * memories hold each part: term-statistics.ts), so scores match the SQLite store's. As there, a part found in more
 * than 5% of a big store is left out of the match when a rarer part remains (common-parts.ts).
 */
import type { LexicalQuery } from '../../text/lexical-query.js';
import { parseLexicalQuery } from '../../text/lexical-query.js';
import { indexTerm, isSegmentWord } from '../../text/segmented-words.js';
import { chooseParts, commonCap } from '../common-parts.js';
import type { LexicalHit, LexicalSearchOptions } from '../lexical-search.js';
import type { MemoryFilter } from '../memory-filter.js';
import { bm25Score, inverseDocumentFrequency, type LexicalPart, postingsOf } from './bm25.js';
import type { Queryable } from './connection.js';
import { filterClause, Params } from './filter-clause.js';
import { indexWords } from './lexical-text.js';
import type { TermStatistics } from './term-statistics.js';

const MAX_WORD_BYTES = 2_046;

interface Part {
  /** As the SQLite store renders it; its length ranks common parts. */
  rendered: string;
  part: LexicalPart;
  tsquery: string;
}

/** Lexical search over the memories `filter` admits; see the module comment. */
export async function searchLexicalRows(
  db: Queryable,
  terms: TermStatistics,
  filter: MemoryFilter,
  text: string,
  limit: number,
  options: LexicalSearchOptions = {},
): Promise<LexicalHit[]> {
  const query = parseLexicalQuery(text);
  if (query === null || limit <= 0) return [];
  const parts = await stemParts(db, query);
  if (parts.length === 0) return [];
  const statistics = await terms.read(
    db,
    parts.map((p) => p.tsquery),
  );
  const total = statistics.memories;
  const matches = statistics.matches;
  const picked = pickParts(parts, matches, total);
  if (picked.onlyCommon && options.skipIfOnlyCommon) return [];
  const chosen = picked.positions.map((i) => parts[i] as Part);
  const idfs = picked.positions.map((i) => inverseDocumentFrequency(total, matches[i] as number));
  const averageLength = total > 0 ? statistics.words / total : 0;

  const params = new Params();
  const where = filterClause(filter, 'm', params);
  const match = params.add(chosen.map((p) => `(${p.tsquery})`).join(' | '));
  // Only the lexemes the parts can use come back, so a long memory costs no more than a short one.
  const stems = params.add([
    ...new Set(chosen.flatMap(({ part }) => (part.kind === 'term' ? [part.stem] : part.kind === 'phrase' ? part.stems : []))),
  ]);
  const prefixes = params.add(chosen.flatMap(({ part }) => (part.kind === 'prefix' ? [`${part.prefix}%`] : [])));
  const found = await db.query(
    `SELECT m.rowid, m.id, m.search_length AS length,
       (SELECT coalesce(json_agg(json_build_array(u.lexeme, u.positions, u.weights)), '[]') FROM unnest(m.search_vector) u
        WHERE u.lexeme = ANY(${stems}::text[]) OR u.lexeme LIKE ANY(${prefixes}::text[])) AS postings
     FROM memories m WHERE ${where} AND m.search_vector @@ ${match}::tsquery`,
    params.values,
  );
  return (found.rows as { rowid: number; id: string; postings: [string, number[], string[]][]; length: number }[])
    .map((hit) => ({
      rowid: hit.rowid,
      id: hit.id,
      score: bm25Score(
        chosen.map((p) => p.part),
        idfs,
        postingsOf(hit.postings),
        hit.length,
        averageLength,
      ),
    }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.rowid - b.rowid)
    .slice(0, limit)
    .map(({ id, score }) => ({ id, score }));
}

/** The query's parts with their words stemmed by the store's dictionary. */
async function stemParts(db: Queryable, query: LexicalQuery): Promise<Part[]> {
  // PostgreSQL indexes no word longer than this (bytes); a longer one can match nothing.
  // A CJK bigram or an emoji is matched in the form the store wrote it, unstemmed (lexical-text.ts).
  const segments = new Set<string>();
  const normal = (word: string) => {
    if (isSegmentWord(word)) {
      const term = indexTerm(word);
      segments.add(term);
      return term;
    }
    const joined = indexWords(word).join('');
    return Buffer.byteLength(joined) > MAX_WORD_BYTES ? '' : joined;
  };
  const phrases = query.phrases.map((phrase) => phrase.map(normal).filter((w) => w !== ''));
  const terms = query.terms.map(normal).filter((w) => w !== '');
  const prefixes = query.prefixes.map(normal).filter((w) => w !== '');
  const words = [...new Set([...phrases.flat(), ...terms])].filter((word) => !segments.has(word));
  const result = await db.query(
    `SELECT w AS word, coalesce((ts_lexize('engram_stem', w))[1], w) AS stem FROM unnest($1::text[]) AS u(w)`,
    [words],
  );
  const stems = new Map((result.rows as { word: string; stem: string }[]).map((r) => [r.word, r.stem]));
  const stemOf = (word: string) => stems.get(word) ?? word;
  const lexeme = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return [
    ...phrases
      .filter((phrase) => phrase.length > 0)
      .map((phrase): Part => {
        const stemsOfPhrase = phrase.map(stemOf);
        return {
          rendered: `"${phrase.join(' ')}"`,
          part:
            stemsOfPhrase.length === 1
              ? { kind: 'term', stem: stemsOfPhrase[0] as string }
              : { kind: 'phrase', stems: stemsOfPhrase },
          tsquery: stemsOfPhrase.map(lexeme).join(' <-> '),
        };
      }),
    ...terms.map((term): Part => ({
      rendered: `"${term}"`,
      part: { kind: 'term', stem: stemOf(term) },
      tsquery: lexeme(stemOf(term)),
    })),
    ...prefixes.map((prefix): Part => ({
      rendered: `"${prefix}"*`,
      part: { kind: 'prefix', prefix },
      tsquery: `${lexeme(prefix)}:*`,
    })),
  ];
}

/** The positions of the parts worth matching, by the rule every backend follows (store/common-parts.ts). */
export function pickParts(
  parts: readonly { rendered: string }[],
  matches: readonly number[],
  rows: number,
): { positions: number[]; onlyCommon: boolean } {
  const cap = commonCap(rows);
  if (cap === null) return { positions: parts.map((_, i) => i), onlyCommon: false };
  return chooseParts(
    parts.map((part) => part.rendered),
    matches,
    cap,
  );
}
