/**
 * Whether a block Engram injected kept its data framing, read the way a model might read it:
 * lines split at every Unicode line break (not only `\n`), and text compared after folding
 * look-alikes (NFKC, invisible format characters dropped, dashes unified, Cyrillic and Greek
 * letters that look Latin mapped to Latin). A block is broken when stored text produced a line
 * Engram did not write: its tags, its labels, an item line, a role or tool-call header.
 */

/** Every line break a reader may honour (Unicode's, plus the ones `String.split('\n')` misses). */
// eslint-disable-next-line no-control-regex -- the control characters that end lines are what this matches
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/;

const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  і: 'i',
  ѕ: 's',
  ј: 'j',
  һ: 'h',
  ԁ: 'd',
  ɡ: 'g',
  ո: 'n',
  ᴍ: 'm',
  г: 'r',
  α: 'a',
  ε: 'e',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  ι: 'i',
  κ: 'k',
  τ: 't',
  μ: 'm',
  η: 'n',
  А: 'a',
  Е: 'e',
  О: 'o',
  Р: 'p',
  С: 'c',
  Х: 'x',
  М: 'm',
  Н: 'h',
  Т: 't',
  К: 'k',
  В: 'b',
  Ν: 'n',
  Μ: 'm',
  Ε: 'e',
  Α: 'a',
  Ο: 'o',
  '\ufe64': '<',
  '\ufe65': '>',
  '\u2039': '<',
  '\u203a': '>',
  '\u3008': '<',
  '\u3009': '>',
  '\u27e8': '<',
  '\u27e9': '>',
};

/** `text` as a model might see through it: look-alikes folded, invisibles gone, lower case. */
export function fold(text: string): string {
  return [...text.normalize('NFKC')]
    .map((char) => CONFUSABLES[char] ?? char)
    .join('')
    .replace(/[\p{Cf}]/gu, '')
    .replace(/\p{Pd}/gu, '-')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

export function splitLines(text: string): string[] {
  return text.split(LINE_BREAK);
}

const TAG = /<\s*\/?\s*engram-memories\s*>/;
/** Headers no stored line may start with: roles, chat templates, tool calls, seed 004's delimiters. */
const FORGED_START =
  /^\s*(?:(?:system|assistant|user|developer|human|tool)\s*:|<\|?im_(?:start|end)|\[\/?inst\]|<\/?(?:system|tool_call|function_calls|invoke)\b|###\s*(?:end\s+)?recall\b|\{\s*"role")/;

/** Engram's own labels, which a stored line must not pose as. */
const LABELS = [
  'retrieved by engram',
  'memories that may be relevant',
  'standing rules:',
  'working set:',
  'handoff note from the previous session',
  'scratchpad for the current task:',
  'your earlier thoughts in this session',
  'these memories seem related',
  "you've been using tools for a while",
];

/** What a block is allowed to hold, besides the lines of the given shape. */
export interface Framing {
  /** Lines Engram writes itself, exactly (tags, labels, headings with their variable part as a prefix). */
  ownLines: readonly RegExp[];
  /** The shape of a line of stored text: an item line, or a quoted line. */
  dataLine: RegExp;
  /** How many data lines of the item shape the block should hold at most (its memories). */
  maxItems?: number;
  itemLine?: RegExp;
}

/** Why `text` is not framed as `framing` says, or null when it is. */
export function framingBreak(text: string, framing: Framing): string | null {
  let items = 0;
  for (const line of splitLines(text)) {
    if (line.trim() === '') continue;
    if (framing.ownLines.some((own) => own.test(line))) continue;
    if (!framing.dataLine.test(line))
      return `a line that is neither Engram's nor stored data: ${JSON.stringify(line.slice(0, 120))}`;
    if (framing.itemLine?.test(line)) items++;
    const folded = fold(line);
    if (TAG.test(folded)) return `stored text holds the recall block's tag: ${JSON.stringify(line.slice(0, 120))}`;
  }
  if (framing.maxItems !== undefined && items > framing.maxItems)
    return `${items} item lines for ${framing.maxItems} memories: stored text forged an item`;
  return null;
}

/** Whether a data line's text (after its own prefix) starts like a label, role header or tool call. */
export function forgedStart(rest: string): string | null {
  const folded = fold(rest).trimStart();
  if (FORGED_START.test(folded)) return 'a role, chat-template, tool-call or recall-block header';
  const label = LABELS.find((own) => folded.startsWith(own));
  return label ? `Engram's label "${label}"` : null;
}
