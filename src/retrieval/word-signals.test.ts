import { describe, expect, it } from 'vitest';

import { makeMemory } from '../../test/fixtures/memory.js';
import { KeptMemoryWords, wordQueryOf, wordSignalsFor } from './word-signals.js';

const settings = { recencyWeight: 0.1, recencyHalfLifeDays: 30, exactBoost: 0.15 };
const now = new Date('2026-06-01T00:00:00.000Z');

describe('wordSignalsFor', () => {
  const query = wordQueryOf('billing database choice', { now, scopes: ['user:alice', 'global'], settings });

  it('measures coverage, keyword overlap and the factors from the words of a memory and its context', () => {
    const measure = wordSignalsFor(query);
    const plain = makeMemory({ id: 'a', text: 'We chose the billing database', scope: 'global' });
    const withContext = makeMemory({ id: 'b', text: 'Yes, that one.', context: 'Which billing database?' });

    expect(measure(plain)).toMatchObject({ coverage: 2 / 3, factors: { scope: 0.95, exact: 1 } });
    expect(measure(plain).keyword).toBeGreaterThan(0);
    // Alone it covers nothing; with its context two of three words: the average.
    expect(measure(withContext).coverage).toBeCloseTo(1 / 3);
  });

  it('measures a memory once: asked again, it gives what it measured', () => {
    const measure = wordSignalsFor(query);
    const memory = makeMemory({ id: 'a', text: 'We chose the billing database' });

    expect(measure(memory)).toBe(measure(memory));
    expect(wordSignalsFor(query)(memory)).toEqual(measure(memory));
  });

  it("keeps a memory's words across queries, and splits them anew when its text or context changed", () => {
    const kept = new KeptMemoryWords();
    const memory = makeMemory({ id: 'a', text: 'We chose the billing database' });
    const other = wordQueryOf('database backups', { now, scopes: undefined, settings });

    expect(kept.of(memory)).toBe(kept.of({ ...memory }));
    expect(wordSignalsFor(other, kept)(memory)).toEqual(wordSignalsFor(other)(memory));
    const edited = { ...memory, text: 'We chose the billing queue' };
    expect(wordSignalsFor(query, kept)(edited)).toEqual(wordSignalsFor(query)(edited));
    expect(wordSignalsFor(query, kept)(edited).coverage).toBeCloseTo(1 / 3);
    const withContext = { ...edited, context: 'Which database?' };
    expect(wordSignalsFor(query, kept)(withContext)).toEqual(wordSignalsFor(query)(withContext));
    const older = { ...withContext, occurredAt: '2020-01-01T00:00:00.000Z' };
    expect(wordSignalsFor(query, kept)(older)).toEqual(wordSignalsFor(query)(older));
    expect(wordSignalsFor(query, kept)(older).factors.recency).toBeLessThan(
      wordSignalsFor(query, kept)(withContext).factors.recency,
    );
  });
});
