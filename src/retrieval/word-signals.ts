/**
 * What a search measures of a memory from words alone — word coverage, seed 004's keyword
 * overlap and the recency, scope and exact-match factors — which needs no vector. A search
 * measures each memory once, and measures the full-text hits while the query is still being
 * embedded (hybrid-search.ts), so the work left after the vector is the vector's own. A
 * memory's own side — its text split into words, stemmed and joined for phrase matches, its time
 * parsed — is the same for every query: the engine keeps it across searches (`KeptMemoryWords`).
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Memory } from '../model/memory.js';
import { parseLexicalQuery } from '../text/lexical-query.js';
import { stem } from '../text/stem.js';
import { STOP_WORDS, words } from '../text/words.js';
import { coverage, stemSet } from './coverage.js';
import {
  exactFactorOfWords,
  exactPhrases,
  type FactorSettings,
  paddedWords,
  recencyFactorAt,
  scopeFactor,
  type ScoreFactors,
} from './factors.js';
import { keywordOverlap, keywordSet } from './keyword-overlap.js';

/** Characters of a memory (or its context) read for word signals. */
export const MAX_MEMORY_CHARS = 20_000;
/** Memories whose words are kept at most; past it the older half is let go. */
const MAX_KEPT = 10_000;

/** A memory's word signals for one query. */
export interface WordSignals {
  /** Share of the query's content words in the memory (with its context, when it has one). */
  coverage: number;
  /** Seed 004's keyword overlap: shared words ÷ the larger word set. */
  keyword: number;
  /** Recency, scope and exact match; the cooldown is the search's to set. */
  factors: Readonly<Omit<ScoreFactors, 'cooldown'>>;
}

/** The query's side of the word signals, and what the factors depend on. */
export interface WordQuery {
  stems: ReadonlySet<string>;
  keywords: ReadonlySet<string>;
  phrases: readonly string[];
  now: Date;
  scopes: readonly string[] | undefined;
  settings: FactorSettings;
}

/** Measures a memory's word signals, once: asked again, it gives what it measured. */
export type WordMeasure = (memory: Memory) => WordSignals;

/** A memory's own side of the word signals, the same for every query. */
interface MemoryWords {
  text: string;
  context: string | null;
  occurredAt: string;
  /** `occurredAt` parsed, for the recency factor. */
  occurredAtMs: number;
  /** Its words joined for phrase matches (factors.ts `paddedWords`). */
  padded: string;
  /** Its distinct content words: the keyword set. */
  content: ReadonlySet<string>;
  /** Its stemmed content words; and with its context's, when it has a context (else null). */
  stems: ReadonlySet<string>;
  withContext: ReadonlySet<string> | null;
}

/** Memories' own words, kept across searches by id while a memory's text, context and time stay the same. */
export class KeptMemoryWords {
  private readonly kept = new Map<string, MemoryWords>();

  /** The words of `memory`, split now or kept from an earlier search. */
  of(memory: Memory): MemoryWords {
    const known = this.kept.get(memory.id);
    if (
      known !== undefined &&
      known.text === memory.text &&
      known.context === memory.context &&
      known.occurredAt === memory.occurredAt
    ) {
      return known;
    }
    const split = splitWords(memory);
    if (this.kept.size >= MAX_KEPT) {
      // Map order is insertion order: the older half goes.
      let drop = Math.floor(MAX_KEPT / 2);
      for (const id of this.kept.keys()) {
        if (drop-- <= 0) break;
        this.kept.delete(id);
      }
    }
    this.kept.set(memory.id, split);
    return split;
  }
}

/** The query's side of the word signals for `query`, seen from `scopes` at `now`. */
export function wordQueryOf(
  query: string,
  context: { now: Date; scopes: readonly string[] | undefined; settings: FactorSettings },
): WordQuery {
  const phrases = exactPhrases(parseLexicalQuery(query), words(query));
  return { stems: stemSet(query), keywords: keywordSet(query), phrases, ...context };
}

/** Measures memories for `query`, each once, reading their words from `kept` when given. */
export function wordSignalsFor(query: WordQuery, kept?: KeptMemoryWords): WordMeasure {
  const measured = new Map<string, WordSignals>();
  return (memory) => {
    let signals = measured.get(memory.id);
    if (signals === undefined) {
      signals = measureWords(query, memory, kept?.of(memory) ?? splitWords(memory));
      measured.set(memory.id, signals);
    }
    return signals;
  };
}

function splitWords(memory: Memory): MemoryWords {
  const memoryWords = words(memory.text, MAX_MEMORY_CHARS);
  const content = memoryWords.filter((word) => !STOP_WORDS.has(word));
  const stems = new Set(content.map(stem));
  let withContext: Set<string> | null = null;
  if (memory.context !== null) {
    withContext = stemSet(memory.context, MAX_MEMORY_CHARS);
    for (const word of stems) withContext.add(word);
  }
  return {
    text: memory.text,
    context: memory.context,
    occurredAt: memory.occurredAt,
    occurredAtMs: Date.parse(memory.occurredAt),
    padded: paddedWords(memoryWords),
    content: new Set(content),
    stems,
    withContext,
  };
}

function measureWords(query: WordQuery, memory: Memory, split: MemoryWords): WordSignals {
  const alone = coverage(query.stems, split.stems);
  return {
    // With a context: coverage of the memory alone, averaged with that of memory and context.
    coverage: split.withContext === null ? alone : (alone + coverage(query.stems, split.withContext)) / 2,
    keyword: keywordOverlap(query.keywords, split.content),
    factors: {
      recency: recencyFactorAt(split.occurredAtMs, query.now, query.settings),
      scope: scopeFactor(memory.scope, query.scopes),
      exact: query.phrases.length === 0 ? 1 : exactFactorOfWords(split.padded, query.phrases, query.settings),
    },
  };
}
