/**
 * Turns arbitrary user text into a safe FTS5 MATCH expression. User text is never passed to
 * FTS5 as syntax: it is split into words, each word is quoted as a string, and the words are
 * OR-ed, so quotes, `AND`, `*`, `NEAR` or unbalanced parentheses are just characters.
 */

/** English function words that carry no topic; dropped unless nothing else is left. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves s t don'
  ).split(' '),
);

/** At most this many distinct words go into one query; the rest of a huge text adds nothing. */
const MAX_TERMS = 64;
/** Only this much of a query is read; a 100 kB query costs no more than a long sentence. */
const MAX_QUERY_CHARS = 4_000;

/** The words of `text`: lower-case runs of letters and digits. */
export function queryWords(text: string): string[] {
  return (
    text
      .slice(0, MAX_QUERY_CHARS)
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** An FTS5 MATCH expression for `text`, or null when it has no searchable word. */
export function buildFtsQuery(text: string): string | null {
  const words = queryWords(text);
  const content = words.filter((word) => !STOP_WORDS.has(word));
  const chosen = [...new Set(content.length > 0 ? content : words)].slice(0, MAX_TERMS);
  if (chosen.length === 0) return null;
  return chosen.map((word) => `"${word}"`).join(' OR ');
}
