/**
 * Renders a parsed lexical query as an FTS5 MATCH expression. Every word is written as a
 * quoted string, so user text is never FTS5 syntax; parts are OR-ed and BM25 ranks the rows
 * that match more (and rarer) parts first. A CJK bigram or an emoji is written in the form the
 * index holds it in (text/segmented-words.ts), which the `segment_terms` column matches.
 */
import { type LexicalQuery, parseLexicalQuery } from '../../text/lexical-query.js';
import { indexTerm } from '../../text/segmented-words.js';

const quote = (word: string) => `"${word}"`;

/** The MATCH expression of each part of `text` (phrases, terms, prefixes), or null when it has no searchable word. */
export function ftsParts(text: string): string[] | null {
  const query = parseLexicalQuery(text);
  return query ? renderFtsParts(query) : null;
}

export function renderFtsParts(query: LexicalQuery): string[] {
  return [
    ...query.phrases.map((phrase) => quote(phrase.map(indexTerm).join(' '))),
    ...query.terms.map((term) => quote(indexTerm(term))),
    ...query.prefixes.map((prefix) => `${quote(prefix)}*`),
  ];
}
