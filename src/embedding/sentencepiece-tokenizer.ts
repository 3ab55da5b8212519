/**
 * The Universal Sentence Encoder Lite's tokenizer: SentencePiece's `EncodeAsIds` (Viterbi over a
 * trie of the vocabulary), ported from `@tensorflow-models/universal-sentence-encoder` 1.3.3
 * (src/tokenizer/, Copyright 2019 Google LLC, Apache-2.0) so that the local embedder needs no
 * package that brings a second, older TF.js with it. It keeps the original's every step,
 * quirks included (the backward pass steps by a token's UTF-16 length, the lattice by code
 * points), because stored vectors were made with its token ids: they must stay the same.
 */

/** A vocabulary entry: the piece and its score. Index = token id. */
export type VocabularyEntry = [piece: string, score: number];

/** A match in the trie: the piece's symbols, its score, its token id. */
type Match = [symbols: string[], score: number, index: number];

const SEPARATOR = '\u2581'; // ▁, which marks the start of a word
/** The first ids are reserved for unk, control symbols and user-defined symbols. */
const RESERVED_SYMBOLS_COUNT = 6;

/** Turns text into token ids as the model was trained to read them. */
export class SentencePieceTokenizer {
  private readonly trie = new Trie();

  /**
   * @param vocabulary the model's vocab.json: `[piece, score]` by token id
   * @param reservedSymbolsCount ids that never match text @default 6
   */
  constructor(
    private readonly vocabulary: readonly VocabularyEntry[],
    reservedSymbolsCount = RESERVED_SYMBOLS_COUNT,
  ) {
    for (let i = reservedSymbolsCount; i < vocabulary.length; i++) {
      const [piece, score] = vocabulary[i] as VocabularyEntry;
      this.trie.insert(piece, score, i);
    }
  }

  /** The token ids of `input`. */
  encode(input: string): number[] {
    const symbols = [...normalizeInput(input)];
    const nodes: Record<number, { key: string[]; score: number; index: number }[]>[] = [];
    const words: number[] = [];
    const best: number[] = [];
    for (let i = 0; i <= symbols.length; i++) {
      nodes.push({});
      words.push(0);
      best.push(0);
    }
    // The lattice: every vocabulary piece that starts at each position.
    for (let i = 0; i < symbols.length; i++) {
      for (const [key, score, index] of this.trie.commonPrefixSearch(symbols.slice(i))) {
        const end = nodes[i + key.length] as Record<number, { key: string[]; score: number; index: number }[]>;
        (end[i] ??= []).push({ key, score, index });
      }
    }
    // Forward pass: the best-scoring piece that ends at each position.
    for (let end = 0; end <= symbols.length; end++) {
      for (const start in nodes[end]) {
        for (const word of (nodes[end] as Record<string, { key: string[]; score: number; index: number }[]>)[start] ?? []) {
          const score = word.score + (best[end - word.key.length] as number);
          if (best[end] === 0 || score >= (best[end] as number)) {
            best[end] = score;
            words[end] = word.index;
          }
        }
      }
    }
    // Backward pass (by the piece's string length, as the original does).
    const results: number[] = [];
    for (let at = words.length - 1; at > 0;) {
      const id = words[at] as number;
      results.push(id);
      at -= (this.vocabulary[id] as VocabularyEntry)[0].length;
    }
    // Consecutive unknown pieces (id 0) become one.
    const merged: number[] = [];
    let previousUnknown = false;
    for (const id of results) {
      if (!(previousUnknown && id === 0)) merged.push(id);
      previousUnknown = id === 0;
    }
    return merged.reverse();
  }
}

/** NFKC, then a word marker at the start and in place of every space. */
function normalizeInput(text: string): string {
  const normalized = text.normalize('NFKC');
  return normalized.length > 0 ? SEPARATOR + normalized.replace(/ /g, SEPARATOR) : normalized;
}

interface TrieNode {
  children: Record<string, TrieNode>;
  end: boolean;
  word: Match;
}

function trieNode(): TrieNode {
  return { children: {}, end: false, word: [[], 0, 0] };
}

/** The vocabulary's pieces by their symbols (code points). */
class Trie {
  private readonly root = trieNode();

  insert(piece: string, score: number, index: number): void {
    let node = this.root;
    const symbols = [...piece];
    symbols.forEach((symbol, i) => {
      let child = node.children[symbol];
      if (child === undefined) {
        child = trieNode();
        child.word[0] = [...node.word[0], symbol];
        node.children[symbol] = child;
      }
      node = child;
      if (i === symbols.length - 1) {
        node.end = true;
        node.word[1] = score;
        node.word[2] = index;
      }
    });
  }

  /** Every piece that `symbols` starts with; the first symbol alone as unknown (id 0) when none. */
  commonPrefixSearch(symbols: readonly string[]): Match[] {
    const output: Match[] = [];
    let node = this.root.children[symbols[0] as string];
    for (let i = 0; i < symbols.length && node; i++) {
      if (node.end) output.push(node.word);
      node = node.children[symbols[i + 1] as string];
    }
    if (output.length === 0) output.push([[symbols[0] as string], 0, 0]);
    return output;
  }
}
