import { describe, expect, it } from 'vitest';

import { createLocalEmbedder, LOCAL_EMBEDDER_ID } from './local-use-embedder.js';

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] as number), 0);

describe('the local Universal Sentence Encoder Lite embedder', () => {
  const embedder = createLocalEmbedder({ batchSize: 2 });

  it('names itself and its dimension before loading anything', () => {
    expect(embedder.id).toBe(LOCAL_EMBEDDER_ID);
    expect(embedder.dimensions).toBe(512);
  });

  it('returns one 512-dimension unit vector per text', async () => {
    const vectors = await embedder.embed(['We chose PostgreSQL for billing', 'The cat sleeps on the sofa']);
    expect(vectors).toHaveLength(2);
    for (const vector of vectors) {
      expect(vector).toHaveLength(512);
      expect(dot(vector, vector)).toBeCloseTo(1, 4);
    }
  });

  it('keeps the input order even though it batches texts by length', async () => {
    const texts = [
      'A much longer sentence about the quarterly planning meeting and the decisions that were taken there',
      'short',
      'a sentence of middling length about lunch',
      'another short one',
      'x',
    ];
    const together = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(dot(together[i] as Float32Array, alone as Float32Array)).toBeCloseTo(1, 4);
    }
  });

  it('places a paraphrase closer than an unrelated sentence', async () => {
    const [memory, question, unrelated] = await embedder.embed([
      'We chose PostgreSQL for billing',
      'which database do we use for billing',
      'my cat likes fish for breakfast',
    ]);
    expect(dot(memory as Float32Array, question as Float32Array)).toBeGreaterThan(
      dot(memory as Float32Array, unrelated as Float32Array) + 0.2,
    );
  });

  it('reads only the start of a huge text, so it stays fast and gives the same vector as its start', async () => {
    const start = 'The deployment checklist: run the migrations, warm the caches, then flip the flag. ';
    const huge = start.repeat(2_000); // ~170 kB
    const [hugeVector, startVector] = await embedder.embed([huge, huge.slice(0, 2_000)]);
    expect(dot(hugeVector as Float32Array, startVector as Float32Array)).toBeCloseTo(1, 5);
  });

  it('embeds texts with no words (spaces, emoji, NUL) without failing', async () => {
    const vectors = await embedder.embed(['   ', '🎉🎉', '\u0000', '']);
    for (const vector of vectors) expect(vector.every(Number.isFinite)).toBe(true);
  });

  it('reads all of an English sentence and none of emoji or Japanese', () => {
    expect(embedder.readableShare?.('Which database do we use for billing? (2023)')).toBe(1);
    for (const text of ['🍕', '🚀', '日本語', '天気はどうですか', 'ユーザーは日本語での回答を好みます']) {
      expect(embedder.readableShare?.(text), text).toBe(0);
    }
  });

  it('reads the share of a mixed text its vocabulary holds, spaces aside', () => {
    // 20 characters besides the spaces, 2 of them emoji.
    expect(embedder.readableShare?.('Emoji test 🚀🔥 launch day')).toBeCloseTo(18 / 20, 10);
    // NFKC first, as the tokenizer does: full-width letters are letters.
    expect(embedder.readableShare?.('ＡＢＣ')).toBe(1);
    expect(embedder.readableShare?.('   ')).toBe(1);
  });

  it('embeds every text it cannot read alike, which is why search counts the share', async () => {
    const [pizza, japanese] = await embedder.embed(['🍕', 'ユーザーは日本語での回答を好みます']);
    expect(dot(pizza as Float32Array, japanese as Float32Array)).toBeCloseTo(1, 4);
  });

  it('returns nothing for nothing', async () => {
    expect(await embedder.embed([])).toEqual([]);
  });
});
