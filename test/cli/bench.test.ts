/** `engram bench ingest` measures the real model and the lexical-only mode. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeTempDir, runJson } from './helpers.js';

interface IngestMode {
  memories: number;
  memoriesPerSecond: number;
}

describe('engram bench ingest', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('reports memories per second for the embedded and lexical-only modes as JSON', async () => {
    const result = await runJson<{ count: number; modes: { embedded: IngestMode; lexicalOnly: IngestMode } }>(
      ['bench', 'ingest', '--count', '50'],
      { cwd: dir },
    );
    expect(result.count).toBe(50);
    expect(result.modes.embedded.memories).toBe(50);
    expect(result.modes.embedded.memoriesPerSecond).toBeGreaterThan(0);
    expect(result.modes.lexicalOnly.memories).toBe(50);
    expect(result.modes.lexicalOnly.memoriesPerSecond).toBeGreaterThan(0);
  });
});
