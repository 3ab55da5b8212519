import { describe, expect, it } from 'vitest';

import { withCoalescing } from './coalescing-embedder.js';
import type { Embedder } from './embedder.js';

/** An embedder whose calls finish only when told to, recording each batch it was given. */
function controlledEmbedder() {
  const batches: string[][] = [];
  const pending: (() => void)[] = [];
  const embedder: Embedder = {
    id: 'controlled',
    dimensions: 1,
    embed: (texts) =>
      new Promise((resolve, reject) => {
        batches.push([...texts]);
        pending.push(() =>
          texts.includes('boom') ? reject(new Error('model failed')) : resolve(texts.map((t) => Float32Array.of(t.length))),
        );
      }),
  };
  const finishNext = async () => {
    await Promise.resolve();
    pending.shift()?.();
    // the results arrive, then the embedder lets pending I/O run before its next batch
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  return { embedder, batches, finishNext };
}

describe('coalescing embedder', () => {
  it('runs a call at once when idle, and batches the calls that arrive meanwhile', async () => {
    const { embedder, batches, finishNext } = controlledEmbedder();
    const coalesced = withCoalescing(embedder);

    const first = coalesced.embed(['a']);
    const second = coalesced.embed(['bb', 'ccc']);
    const third = coalesced.embed(['dddd']);
    expect(batches).toEqual([['a']]);
    await finishNext();
    expect(batches).toEqual([['a'], ['bb', 'ccc', 'dddd']]);
    await finishNext();

    expect((await first).map((v) => v[0])).toEqual([1]);
    expect((await second).map((v) => v[0])).toEqual([2, 3]);
    expect((await third).map((v) => v[0])).toEqual([4]);
  });

  it('caps a batch by texts, keeping calls whole', async () => {
    const { embedder, batches, finishNext } = controlledEmbedder();
    const coalesced = withCoalescing(embedder, 2);
    const calls = [coalesced.embed(['a']), coalesced.embed(['b', 'c']), coalesced.embed(['d']), coalesced.embed(['e'])];
    for (let i = 0; i < 3; i++) await finishNext();
    await Promise.all(calls);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });

  it('fails only the calls of the batch that failed', async () => {
    const { embedder, finishNext } = controlledEmbedder();
    const coalesced = withCoalescing(embedder, 1);
    const ok = coalesced.embed(['fine']);
    const bad = coalesced.embed(['boom']).then(
      () => 'embedded',
      (error: unknown) => (error as Error).message,
    );
    const later = coalesced.embed(['later']);
    for (let i = 0; i < 3; i++) await finishNext();
    await expect(ok).resolves.toHaveLength(1);
    expect(await bad).toBe('model failed');
    await expect(later).resolves.toHaveLength(1);
  });

  it('runs as many batches at once as the embedder runs to advantage', async () => {
    const { embedder, batches, finishNext } = controlledEmbedder();
    const coalesced = withCoalescing({ ...embedder, concurrency: 2 });

    const calls = [coalesced.embed(['a']), coalesced.embed(['bb']), coalesced.embed(['ccc']), coalesced.embed(['dddd'])];
    expect(batches).toEqual([['a'], ['bb']]);
    await finishNext();
    expect(batches).toEqual([['a'], ['bb'], ['ccc', 'dddd']]);
    await finishNext();
    await finishNext();
    expect((await Promise.all(calls)).map((vectors) => vectors[0]?.[0])).toEqual([1, 2, 3, 4]);
  });

  it('says what share of a text the embedder reads, as the embedder says it', () => {
    const { embedder } = controlledEmbedder();
    expect(withCoalescing(embedder).readableShare).toBeUndefined();
    const reading = withCoalescing({ ...embedder, readableShare: (text) => (text === '🍕' ? 0 : 1) });
    expect(reading.readableShare?.('🍕')).toBe(0);
    expect(reading.readableShare?.('pizza')).toBe(1);
  });
});
