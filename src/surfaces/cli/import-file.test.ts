import { describe, expect, it } from 'vitest';

import { readImportFile } from './import-file.js';

function failure(text: string): string {
  try {
    readImportFile(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('readImportFile', () => {
  it('reads JSON Lines, skipping blank lines, and says on which line each record was', () => {
    expect(readImportFile('{"text":"a"}\n\n{"text":"b"}\r\n')).toEqual({
      records: [{ text: 'a' }, { text: 'b' }],
      positions: [{ line: 1 }, { line: 3 }],
      format: 'jsonl',
    });
  });

  it('reads a file without a final newline, and one with a byte-order mark', () => {
    expect(readImportFile('\uFEFF{"type":"entity","name":"A","entityType":"x","observations":[]}').records).toEqual([
      { type: 'entity', name: 'A', entityType: 'x', observations: [] },
    ]);
  });

  it('reads a JSON array, with the line each element starts on and its index', () => {
    const text =
      '[\n  {"text": "a"},\n  {\n    "text": "b, with [brackets] and \\"quotes\\" and {braces}"\n  }, {"text": "c"}\n]\n';
    expect(readImportFile(text)).toEqual({
      records: [{ text: 'a' }, { text: 'b, with [brackets] and "quotes" and {braces}' }, { text: 'c' }],
      positions: [
        { line: 2, index: 0 },
        { line: 3, index: 1 },
        { line: 5, index: 2 },
      ],
      format: 'array',
    });
    expect(readImportFile('[]').records).toEqual([]);
  });

  it('reads one object spread over several lines as one record', () => {
    expect(readImportFile('\n{\n  "text": "Deploys happen on Tuesdays",\n  "kind": "fact"\n}\n')).toEqual({
      records: [{ text: 'Deploys happen on Tuesdays', kind: 'fact' }],
      positions: [{ line: 2 }],
      format: 'jsonl',
    });
  });

  it.each([
    [
      'a JSON Lines line that is not JSON',
      '{"text":"a"}\n{"text": oops}\n',
      /^line 2: not valid JSON \(.+\); nothing was imported: fix it and import again$/,
    ],
    ['an array element that is not JSON', '[{"text":"a"},\n {"text" "b"}]', /^line 2 \(array index 1\): not valid JSON/],
    ['an empty array element', '[{"text":"a"},\n,{"text":"b"}]', /^line 2 \(array index 1\): an empty element/],
    ['a comma before the closing bracket', '[{"text":"a"},\n]', /^line 2 \(array index 1\): an empty element/],
    ['an array not closed', '[{"text":"a"},\n{"text":"b"}\n', /not closed with \]/],
    ['text after the array', '[{"text":"a"}]\n{"text":"b"}\n', /^line 2: there is text after the \]/],
  ])('refuses %s, naming where', (_case, text, message) => {
    expect(failure(text)).toMatch(message);
  });

  it('does not quote a long record back in its error', () => {
    const message = failure(`[{"text": "${'x'.repeat(5000)}" "kind": "fact"}]`);
    expect(message.length).toBeLessThan(300);
  });
});
