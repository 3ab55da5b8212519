/**
 * `engram.scopes()`: the scopes that hold live memories, with how many each — what a program
 * (the LangGraph store's namespace prefixes) finds its scopes by, without the rest of `stats()`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openEngram } from '../src/index.js';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-scopes-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('engram.scopes()', () => {
  it('counts live memories by scope, largest first, leaving out forgotten, replaced and internal ones', async () => {
    const engram = await openEngram({ path: path.join(directory, 'engram.db'), embedder: null });
    try {
      expect(await engram.scopes()).toEqual({});
      await engram.rememberMany([
        { text: 'Alice likes tea', scope: 'user:alice' },
        { text: 'Alice lives in Leeds', scope: 'user:alice', key: 'home' },
        { text: 'The deploy is on Tuesdays', scope: 'project:x' },
        { text: 'Gone soon', scope: 'project:gone' },
        { text: 'Handoff for the next session', scope: 'project:handoff', kind: 'handoff' },
      ]);
      await engram.remember({ text: 'Alice lives in York', scope: 'user:alice', key: 'home' });
      const gone = (await engram.list({ scopes: ['project:gone'] }))[0];
      await engram.forget(gone?.id as string);
      expect(Object.entries(await engram.scopes())).toEqual([
        ['user:alice', 2],
        ['project:x', 1],
      ]);
    } finally {
      await engram.close();
    }
    await expect(engram.scopes()).rejects.toThrow('this Engram engine is closed');
  });

  it('counts only a scope and the scopes below it with `under`, and says what was wrong with a bad one', async () => {
    const engram = await openEngram({ path: path.join(directory, 'engram.db'), embedder: null });
    try {
      await engram.rememberMany([
        { text: 'Python docs index', scope: 'docs' },
        { text: 'Lists and tuples', scope: 'docs:python' },
        { text: 'Async generators', scope: 'docs:python' },
        { text: 'A set of documents', scope: 'docsets' },
        { text: 'Alice likes tea', scope: 'user:alice' },
      ]);

      expect(Object.entries(await engram.scopes({ under: ' docs ' }))).toEqual([
        ['docs:python', 2],
        ['docs', 1],
      ]);
      expect(await engram.scopes({ under: 'docs:python' })).toEqual({ 'docs:python': 2 });
      await expect(engram.scopes({ under: '  ' })).rejects.toThrow('under must name a scope, e.g. "user:alice"');
      await expect(engram.scopes({ under: 7 } as never)).rejects.toThrow(/under/);
      await expect(engram.scopes({ scope: 'docs' } as never)).rejects.toThrow(/scope/);
      expect(Object.keys(await engram.scopes())).toHaveLength(4);
    } finally {
      await engram.close();
    }
  });
});
