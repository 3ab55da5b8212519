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
});
