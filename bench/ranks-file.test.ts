import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { openRanksFile } from './ranks-file.js';

describe('openRanksFile', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('writes nothing and opens nothing when no file is named', () => {
    expect(openRanksFile('')).toBeUndefined();
    expect(openRanksFile(undefined)).toBeUndefined();
  });

  it('writes one JSON line per ranking, in order, replacing an older file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-ranks-'));
    dirs.push(dir);
    const path = join(dir, 'ranks.jsonl');
    const first = openRanksFile(path);
    first?.write({ conversation: 'c', question: 'old', method: 'bm25', ranked: ['D1:1'] });
    first?.close();
    const file = openRanksFile(path);
    file?.write({ conversation: 'conv-1', question: 'who?', method: 'graph', ranked: ['D1:2', 'D1:3'] });
    file?.write({ conversation: 'conv-1', question: 'who?', method: 'bm25', ranked: [] });
    file?.close();
    const lines = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown);
    expect(lines).toEqual([
      { conversation: 'conv-1', question: 'who?', method: 'graph', ranked: ['D1:2', 'D1:3'] },
      { conversation: 'conv-1', question: 'who?', method: 'bm25', ranked: [] },
    ]);
  });
});
