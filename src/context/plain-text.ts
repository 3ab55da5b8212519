/**
 * Stored text made safe to put inside Engram's blocks. Three rules, one per function: text on
 * one line has no line break of any kind (JavaScript's `\s` misses NEL and the information
 * separators, which other readers treat as line ends); text on several lines is quoted line by
 * line; and the recall block's tags, written plainly or in look-alikes (full-width or small
 * brackets, invisible characters, spaces, Cyrillic letters, other dashes), are defused.
 */

/** Every run of white space or line break, including the ones `\s` leaves out. */
// eslint-disable-next-line no-control-regex -- the control characters that end lines are what this matches
const BREAKS = /[\s\u001c-\u001f\u0085]+/g;
/** Each line break a reader may honour, for quoting line by line. */
// eslint-disable-next-line no-control-regex -- the control characters that end lines are what this matches
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;

/** `text` on one line: every break and run of spaces made one space. */
export function flattenText(text: string): string {
  return text.replace(BREAKS, ' ').trim();
}

/** `text` quoted line by line (`> `), so no stored line can pose as a heading of Engram's. */
export function quoteLines(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => (line.trim() === '' ? '>' : `> ${line}`))
    .join('\n');
}

const OPENERS = '<\uff1c\ufe64\u2039\u3008\u27e8\u2329';
const CLOSERS = '>\uff1e\ufe65\u203a\u3009\u27e9\u232a';
/** A bracketed span short enough to be a tag, for the look-alike test. */
const BRACKETED = new RegExp(`[${OPENERS}]([^${OPENERS}${CLOSERS}]{1,60})[${CLOSERS}]`, 'g');
/** Letters that look like the Latin ones in the tag's name. */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  о: 'o',
  г: 'r',
  т: 't',
  м: 'm',
  п: 'n',
  і: 'i',
  ѕ: 's',
  ɡ: 'g',
  ո: 'n',
  А: 'a',
  Е: 'e',
  О: 'o',
  М: 'm',
  Н: 'n',
  Т: 't',
  Ѕ: 's',
  І: 'i',
  α: 'a',
  ε: 'e',
  ο: 'o',
  ι: 'i',
  μ: 'm',
  η: 'n',
};

/**
 * `text` with every tag of the recall block, however disguised, turned into square brackets:
 * a memory holding `</engram-memories>` (or `＜/engram‐memories＞`) cannot end the block early.
 */
export function defuseTags(text: string): string {
  return text.replace(BRACKETED, (span: string, inside: string) =>
    /^\/?engram-memories$/.test(foldTagName(inside)) ? `[${inside}]` : span,
  );
}

function foldTagName(text: string): string {
  return [...text.normalize('NFKC')]
    .map((char) => LOOK_ALIKES[char] ?? char)
    .join('')
    .replace(/[\p{Cf}\s]/gu, '')
    .replace(/\p{Pd}/gu, '-')
    .toLowerCase();
}
