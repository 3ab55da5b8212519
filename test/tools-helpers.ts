/**
 * Shared set-up for the memory-tool tests: a real SQLite file in a temporary directory, an
 * engine (lexical only unless an embedder is given), and a snapshot of everything it holds
 * for "nothing changed" checks.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'vitest';

import { type Engram, EngramError, manualClock, openEngram, type OpenEngramOptions } from '../src/index.js';
import { afterThisFile, afterThisTest } from './fixtures/cleanups.js';

/**
 * Opens an engine on a fresh file; closed and deleted after the test (or, with
 * `lifetime: "file"`, after the test file, for engines opened in `beforeAll`).
 */
export async function openTestEngram(options: OpenEngramOptions = {}, lifetime: 'test' | 'file' = 'test'): Promise<Engram> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-tools-'));
  const engram = await openEngram({
    path: path.join(directory, 'engram.db'),
    embedder: null,
    clock: manualClock('2026-03-02T10:00:00.000Z'),
    ...options,
  });
  (lifetime === 'test' ? afterThisTest : afterThisFile)(async () => {
    await engram.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return engram;
}

/** Every memory (archived and superseded too) and every activity line: for before/after comparisons. */
export async function snapshot(engram: Engram): Promise<{ memories: unknown[]; activity: unknown[] }> {
  const memories: unknown[] = [];
  for await (const memory of engram.export()) memories.push(memory);
  return { memories, activity: await engram.activity() };
}

/** The EngramError `promise` rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngramError);
    return error as EngramError;
  }
  throw new Error('expected the call to fail');
}
