/**
 * The everyday path with the real local embedding model: a memory added by one process is
 * found by meaning by the next one, in text and as JSON.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { makeTempDir, runJson, runOk } from './helpers.js';

interface Hit {
  memory: { id: string; text: string; kind: string; tier: string };
  score: number;
}

describe('engram add then search, with the local model', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('finds a memory stored by an earlier process first, by meaning', async () => {
    const added = await runOk(['add', 'We chose PostgreSQL for billing', '--kind', 'decision', '--tier', 'must'], { cwd: dir });
    expect(added).toMatch(/^remembered \S+ {2}decision\/must {2}global {2}We chose PostgreSQL for billing\n$/);
    await runOk(['add', 'Deploys happen on Tuesdays', '--kind', 'fact'], { cwd: dir });
    await runOk(['add', 'Alice prefers short answers', '--kind', 'preference'], { cwd: dir });

    const text = await runOk(['search', 'which database for billing'], { cwd: dir });
    const first = text.split('\n')[0] ?? '';
    expect(first).toMatch(/^ 1\. \d\.\d{2} /); // rank, then relevance
    expect(first).toContain('We chose PostgreSQL for billing');

    const hits = await runJson<Hit[]>(['search', 'which database for billing'], { cwd: dir });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.memory.text).toBe('We chose PostgreSQL for billing');
    expect(hits[0]?.memory.kind).toBe('decision');
    expect(hits[0]?.memory.tier).toBe('must');
    expect(typeof hits[0]?.score).toBe('number');
    expect(Number.isFinite(hits[0]?.score)).toBe(true);
  });
});
