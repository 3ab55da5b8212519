/**
 * A light English stemmer for comparing words outside the full-text index: folds the common
 * inflections (plural, past, gerund, adverb) so "meetings", "meeting" and "meet" compare equal
 * often enough. Cruder than the index's Porter stemmer, and only used for a coverage signal.
 */

const RULES: readonly [RegExp, string][] = [
  [/ies$/, 'y'],
  [/(ss)$/, '$1'],
  [/(ings?|edly|ed|es|ly|s)$/, ''],
];

/** The stem of a lower-case word; words of four letters or fewer are left alone. */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const [pattern, replacement] of RULES) {
    if (pattern.test(word)) {
      const stemmed = word.replace(pattern, replacement);
      return stemmed.length >= 3 ? stemmed : word;
    }
  }
  return word;
}
