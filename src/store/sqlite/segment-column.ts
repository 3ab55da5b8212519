/**
 * The `segment_terms` column of a memory row (schema 10): the CJK bigrams and emoji of its text,
 * abstract, tags and context (text/index-terms.ts), space-separated, which the full-text index
 * holds as a fifth column. FTS5's unicode61 tokenizer reads a CJK run as one word and drops
 * emoji; this column gives it the words search asks for. NULL for a memory without such
 * characters, so an English store's index and scores are what they were.
 */
import { segmentTerms } from '../../text/index-terms.js';

/** The fields the column is made from, as the row holds them (tags as JSON text). */
export interface SegmentedFields {
  text: string;
  abstract: string | null;
  tags: string;
  context: string | null;
}

/** The column's value for a row with these fields: the terms, or null when there are none. */
export function segmentColumn(row: SegmentedFields): string | null {
  const terms = segmentTerms([row.text, row.abstract, row.tags, row.context]);
  return terms.length === 0 ? null : terms.join(' ');
}
