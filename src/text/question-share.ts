/**
 * How much of a text asks rather than tells: the share of its sentences that are questions. A
 * remembered question ("What's her name?") shares the words of a later question about the same
 * thing, yet the answer is in what was said, not in what was asked; the fused order of a search
 * (retrieval/fused-rank.ts) weighs this share. One pass over the characters, no regular
 * expression: it runs for every candidate of a search.
 */

/** Characters read: a long text is judged by its opening. */
const MAX_CHARS = 20_000;

const QUESTION = 0x3f; // ?

/** `.`, `!` or `?`: a sentence ends at one of them when whitespace follows (a closer may come between). */
function isMark(code: number): boolean {
  return code === 0x2e || code === 0x21 || code === QUESTION;
}

/** Closing quotes and brackets that may follow a sentence's last mark: " ' ” ’ ) ]. */
function isCloser(code: number): boolean {
  return code === 0x22 || code === 0x27 || code === 0x201d || code === 0x2019 || code === 0x29 || code === 0x5d;
}

function isSpace(code: number): boolean {
  return (
    code <= 0x20 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether the sentence whose last character is at `last` ends in `?`, closing quotes and brackets aside. */
function asks(text: string, last: number): boolean {
  let i = last;
  while (i >= 0 && isCloser(text.charCodeAt(i))) i--;
  return i >= 0 && text.charCodeAt(i) === QUESTION;
}

/**
 * The share of `text`'s sentences that end in a question mark, in [0, 1]: sentences end at `.`,
 * `!` or `?` (one closing quote or bracket may follow) before whitespace; 0 for a blank text.
 */
export function questionShare(text: string): number {
  const end = Math.min(text.length, MAX_CHARS);
  const first = text.indexOf('?');
  if (first < 0 || first >= end) return 0; // most texts ask nothing: one native scan says so
  let sentences = 0;
  let questions = 0;
  /** The last non-space character of the sentence being read, or -1 while it is blank. */
  let last = -1;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (!isSpace(code)) {
      last = i;
      continue;
    }
    if (last !== i - 1) continue; // not the first space after a sentence's words
    const before = text.charCodeAt(last);
    const ends = isMark(before) || (isCloser(before) && last > 0 && isMark(text.charCodeAt(last - 1)));
    if (!ends) continue;
    sentences++;
    if (asks(text, last)) questions++;
    last = -1;
  }
  if (last >= 0) {
    sentences++;
    if (asks(text, last)) questions++;
  }
  return sentences === 0 ? 0 : questions / sentences;
}
