/**
 * Reading a file to import into records, with where each was read: JSON Lines (one record a
 * line: `engram export`, the MCP reference memory server's `memory.jsonl`, hand-written
 * records), one JSON array of records (told by its leading `[`), or one JSON object spread over
 * several lines. Text that is not JSON is refused here, named by its line (and array index).
 */
import type { RecordPosition } from '../../entries/model.js';
import { EngramError } from '../../index.js';

/** The records of a file, in order, and where each one was read. */
export interface ImportFile {
  records: unknown[];
  positions: RecordPosition[];
  format: 'jsonl' | 'array';
}

/** Reads `text` as JSON Lines or as one JSON array. */
export function readImportFile(text: string): ImportFile {
  const body = text.replace(/^\uFEFF/, '');
  return body.trimStart().startsWith('[') ? readArray(body) : readJsonLines(body);
}

function refuse(where: string, problem: string): never {
  throw new EngramError('import_failed', `${where}: ${problem}; nothing was imported: fix it and import again`);
}

/** V8's reason, without the (possibly long) text it quotes. */
function reasonOf(cause: unknown): string {
  const message = (cause as Error).message.replace(/, ".*" is not valid JSON$/s, '');
  return message.length > 120 ? `${message.slice(0, 119)}…` : message;
}

function readJsonLines(text: string): ImportFile {
  const records: unknown[] = [];
  const positions: RecordPosition[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch (cause) {
      // One object spread over several lines (pretty-printed) is one record.
      const whole = index === lines.findIndex((candidate) => candidate.trim() !== '') ? parseWhole(text) : undefined;
      if (whole !== undefined) return { records: [whole], positions: [{ line: index + 1 }], format: 'jsonl' };
      refuse(`line ${index + 1}`, `not valid JSON (${reasonOf(cause)})`);
    }
    positions.push({ line: index + 1 });
  }
  return { records, positions, format: 'jsonl' };
}

function parseWhole(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A JSON array, split into its elements by a scan that follows strings and nesting, so a bad
 * element is named by the line it starts on and its index rather than by a character offset.
 */
function readArray(text: string): ImportFile {
  const records: unknown[] = [];
  const positions: RecordPosition[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let start = -1;
  let startLine = 0;
  let closedAt = -1;
  const finish = (end: number) => {
    const index = records.length;
    const where = `line ${start < 0 ? line : startLine} (array index ${index})`;
    if (start < 0) refuse(where, 'an empty element: a comma with nothing before it');
    try {
      records.push(JSON.parse(text.slice(start, end)));
    } catch (cause) {
      refuse(where, `not valid JSON (${reasonOf(cause)})`);
    }
    positions.push({ line: startLine, index });
    start = -1;
  };
  for (let i = 0; i < text.length && closedAt < 0; i++) {
    const c = text[i] as string;
    if (c === '\n') line++;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && start < 0 && !/[\s,\]]/.test(c)) [start, startLine] = [i, line];
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) {
        if (start >= 0 || records.length > 0) finish(i);
        closedAt = i;
      }
    } else if (c === ',' && depth === 1) finish(i);
  }
  if (closedAt < 0) refuse(`line ${line}`, 'the JSON array that starts the file is not closed with ]');
  const after = text.slice(closedAt + 1);
  if (after.trim() !== '') {
    const extra = line + (after.slice(0, after.search(/\S/)).match(/\n/g)?.length ?? 0);
    refuse(`line ${extra}`, 'there is text after the ] that ends the JSON array: one array, or one record a line, not both');
  }
  return { records, positions, format: 'array' };
}
