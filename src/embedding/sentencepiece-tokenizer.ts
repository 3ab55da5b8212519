/**
 * Engram's implementation of SentencePiece's unigram encoding for the Universal Sentence Encoder
 * Lite vocabulary: the text is normalised (NFKC, each space written "▁", one "▁" in front), then
 * split into the pieces whose scores add up to the most, by a Viterbi search over a trie of the
 * pieces. A character no piece starts with is the unknown token; unknown tokens in a row are
 * one. The ids are the model's own (an equivalence test checks them); the choices that make them
 * so are marked "as the model's tokenizer". Why: docs/decisions/local-model-vocabulary.md
 */

/** One vocabulary entry: the piece and its log-probability (`null` in a few entries; read as 0). */
export type VocabularyEntry = readonly [piece: string, score: number | null];

/** The id of the unknown token. */
const UNKNOWN_ID = 0;
/** Ids below this are the unknown token and control symbols, which no text is read as. */
const RESERVED_PIECES = 6;
/** How a piece marks a word boundary: every space, and the start of the text. */
const WORD_BOUNDARY = '\u2581';

/** A node of the trie of pieces, by UTF-16 code unit; no piece holds a character past U+FFFF. */
interface PieceNode {
  readonly next: Map<number, PieceNode>;
  /** The id of the piece that ends here, or -1. */
  id: number;
  score: number;
}

/** Turns text into the token ids of a SentencePiece unigram vocabulary. */
export class SentencePieceTokenizer {
  private readonly root: PieceNode = newNode();

  /** @param vocabulary the pieces and their scores; an entry's index is its id. */
  constructor(vocabulary: readonly VocabularyEntry[]) {
    for (let id = RESERVED_PIECES; id < vocabulary.length; id++) {
      const [piece, score] = vocabulary[id] as VocabularyEntry;
      let node = this.root;
      for (let i = 0; i < piece.length; i++) {
        const unit = piece.charCodeAt(i);
        let child = node.next.get(unit);
        if (child === undefined) node.next.set(unit, (child = newNode()));
        node = child;
      }
      // A piece listed twice is read as its last entry, id and score (as the model's tokenizer).
      node.id = id;
      node.score = score ?? 0;
    }
  }

  /** The token ids of `text`; none for the empty string. */
  encode(text: string): number[] {
    if (text === '') return [];
    const symbols = WORD_BOUNDARY + text.normalize('NFKC').replaceAll(' ', WORD_BOUNDARY);
    return mergeUnknowns(this.bestSegmentation(symbols));
  }

  /** The ids of the highest-scoring split of `symbols` into pieces, in order. */
  private bestSegmentation(symbols: string): number[] {
    const length = symbols.length;
    // For each position (a UTF-16 code unit): the best score of a split of what comes before
    // it, that split's last piece, and where that piece starts; -1 marks one no split reaches.
    const best = new Float64Array(length + 1);
    const lastPiece = new Int32Array(length + 1).fill(-1);
    const lastStart = new Int32Array(length + 1);
    const offer = (end: number, score: number, id: number, start: number): void => {
      // As the model's tokenizer: a split that scores exactly 0 (a zero-score piece such as "▁:"
      // at the start) never counts, and of two equal scores the one offered later wins.
      if (score === 0) return;
      if (lastPiece[end] === -1 || score >= (best[end] as number)) {
        best[end] = score;
        lastPiece[end] = id;
        lastStart[end] = start;
      }
    };
    for (let start = 0; start < length; start++) {
      if (start > 0 && lastPiece[start] === -1) continue;
      const base = best[start] as number;
      let node: PieceNode | undefined = this.root;
      let matched = false;
      for (let end = start; end < length; end++) {
        node = node.next.get(symbols.charCodeAt(end));
        if (node === undefined) break;
        if (node.id !== -1) {
          offer(end + 1, base + node.score, node.id, start);
          matched = true;
        }
      }
      // A code unit no piece starts with is an unknown token (half a surrogate pair too: the run
      // is merged into one, which is what counting characters gives). It adds nothing to the
      // score: the unknown entry's own score, 0, as the model's tokenizer.
      if (!matched) offer(start + 1, base, UNKNOWN_ID, start);
    }
    const ids: number[] = [];
    for (let end = length; end > 0; end = lastStart[end] as number) ids.push(lastPiece[end] as number);
    return ids.reverse();
  }
}

function newNode(): PieceNode {
  return { next: new Map(), id: -1, score: 0 };
}

/** Unknown tokens in a row become one: the model reads a run it cannot read as one token. */
function mergeUnknowns(ids: number[]): number[] {
  return ids.filter((id, i) => id !== UNKNOWN_ID || ids[i - 1] !== UNKNOWN_ID);
}
