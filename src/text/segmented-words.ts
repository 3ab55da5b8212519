/**
 * Words where spaces do not mark them: a run of Chinese, Japanese or Korean characters (Han,
 * Hiragana, Katakana, Hangul) is read as its overlapping character bigrams ("日本語" → "日本",
 * "本語"; a lone character stays itself), and each emoji or pictographic symbol is a word of its
 * own (a flag's two regional-indicator letters together). The full-text indexes hold them beside
 * the English words, an emoji as a letter-and-digit token (`emoji128640` for 🚀).
 * Why: docs/decisions/cjk-bigrams-and-emoji-words.md
 */

/** A character of the scripts read as bigrams. */
const CJK = String.raw`\p{Script_Extensions=Han}\p{Script_Extensions=Hiragana}\p{Script_Extensions=Katakana}\p{Script_Extensions=Hangul}`;
/** A letter or digit of those scripts (their punctuation, such as "、" and "。", separates words). */
const CJK_LETTER = String.raw`(?=[\p{L}\p{N}])[${CJK}]`;
/** A symbol that is a word on its own: a pictograph, or a flag's two letters. */
const SYMBOL = String.raw`\p{Regional_Indicator}{2}|\p{Extended_Pictographic}`;

/**
 * Whether a text may hold anything read here, tested first because it costs a hundredth of the
 * exact test: every such letter or symbol is "©", "®", a Hangul jamo (U+1100–U+11FF) or from
 * U+203C on (past the dashes and quotes English text uses), and a character past the Basic
 * Multilingual Plane is a surrogate pair.
 */
const MAYBE_SEGMENTED = /[\u00a9\u00ae\u1100-\u11ff\u203c-\uffff]/;
/** Whether a text holds anything read here: English text skips the slower split. */
const ANY_SEGMENTED = new RegExp(`[${CJK}\\p{Regional_Indicator}\\p{Extended_Pictographic}]`, 'u');
/** The words of a text with such characters: CJK runs, other runs of letters and digits, symbols. */
const TOKENS = new RegExp(`(?:${CJK_LETTER})+|(?:(?!${CJK_LETTER})[\\p{L}\\p{N}])+|${SYMBOL}`, 'gu');
const IS_CJK_RUN = new RegExp(`^${CJK_LETTER}`, 'u');
const IS_SYMBOL = new RegExp(`^(?:${SYMBOL})$`, 'u');
const IS_SEGMENT_WORD = new RegExp(`^(?:(?:${CJK_LETTER}){1,2}|${SYMBOL})$`, 'u');

/** Whether `text` holds CJK characters or emoji, whose words this module splits. */
export function hasSegmentedWords(text: string): boolean {
  return MAYBE_SEGMENTED.test(text) && ANY_SEGMENTED.test(text);
}

/**
 * The words of `text` (already lower-cased), with CJK runs as bigrams and emoji as words; the
 * other runs of letters and digits as they are.
 */
export function splitSegmented(text: string): string[] {
  const out: string[] = [];
  for (const [token] of text.matchAll(TOKENS)) {
    if (IS_CJK_RUN.test(token)) pushBigrams(out, token);
    else out.push(token);
  }
  return out;
}

/** The overlapping bigrams of a CJK run (by code point), or the run itself when it is one character. */
function pushBigrams(out: string[], run: string): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    out.push(run);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i] as string}${chars[i + 1] as string}`);
}

/** Whether `word` (one of `words()`) is a CJK bigram or unigram or an emoji, which the indexes hold apart. */
export function isSegmentWord(word: string): boolean {
  return IS_SEGMENT_WORD.test(word);
}

/**
 * The form a full-text index holds `word` in: an emoji as `emoji` and its code points in decimal
 * (`emoji128640`; a flag's two joined by `x`), which tokenizers keep and stemmers leave alone
 * (it ends in a digit); any other word as it is.
 */
export function indexTerm(word: string): string {
  if (!IS_SYMBOL.test(word)) return word;
  return `emoji${Array.from(word, (char) => char.codePointAt(0) as number).join('x')}`;
}
