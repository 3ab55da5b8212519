/**
 * The multiplicative factors applied on top of relevance, each kept visible in the result:
 * recency (newer memories rank a little higher), scope match (a memory from the most specific
 * scope asked for beats one from a broader scope) and exact match (the memory contains the
 * query's quoted phrase, or the query's words in order).
 */
import type { Memory } from '../model/memory.js';
import type { LexicalQuery } from '../text/lexical-query.js';

/** The factors of one hit; each is 1 when it makes no difference. */
export interface ScoreFactors {
  recency: number;
  scope: number;
  exact: number;
  /** Seed 001's retrieval cooldown, when the search applies it (explicit recall); else 1. */
  cooldown: number;
}

export interface FactorSettings {
  /** How much an old memory can lose, in [0, 1]: 0.1 means at most 10%. */
  recencyWeight: number;
  /** Age at which half of `recencyWeight` is lost, in days. */
  recencyHalfLifeDays: number;
  /** Bonus for an exact match: 0.15 means ×1.15. */
  exactBoost: number;
}

const DAY_MS = 86_400_000;
/** Each step down the caller's scope list (most specific first) costs this much. */
const SCOPE_STEP = 0.05;
const SCOPE_FLOOR = 0.8;

/** `1 − weight × (1 − 2^(−age / halfLife))`: 1 for a memory from now, 1 − weight for a very old one. */
export function recencyFactor(occurredAt: string, now: Date, settings: FactorSettings): number {
  return recencyFactorAt(Date.parse(occurredAt), now, settings);
}

/** `recencyFactor` of a time given in milliseconds since the epoch. */
export function recencyFactorAt(occurredAtMs: number, now: Date, settings: FactorSettings): number {
  const ageDays = Math.max(0, now.getTime() - occurredAtMs) / DAY_MS;
  return 1 - settings.recencyWeight * (1 - 2 ** (-ageDays / settings.recencyHalfLifeDays));
}

/** 1 for the first (most specific) scope named, a little less for each broader one. */
export function scopeFactor(scope: string, scopes: readonly string[] | undefined): number {
  const position = scopes?.indexOf(scope) ?? -1;
  return position <= 0 ? 1 : Math.max(SCOPE_FLOOR, 1 - SCOPE_STEP * position);
}

/** The word sequences whose presence in a memory counts as an exact match. */
export function exactPhrases(query: LexicalQuery | null, queryWords: readonly string[]): string[] {
  const phrases = (query?.phrases ?? []).map((phrase) => phrase.join(' '));
  // The whole query, in order, counts too when it has two words or more.
  return queryWords.length > 1 ? [...phrases, queryWords.join(' ')] : phrases;
}

/** `1 + exactBoost` when the memory's words hold one of `phrases`. */
export function exactFactor(memoryWords: readonly string[], phrases: readonly string[], settings: FactorSettings): number {
  if (phrases.length === 0) return 1;
  return exactFactorOfWords(paddedWords(memoryWords), phrases, settings);
}

/** A memory's words joined by spaces, with one before and after: what `exactFactorOfWords` reads. */
export function paddedWords(memoryWords: readonly string[]): string {
  return ` ${memoryWords.join(' ')} `;
}

/** `exactFactor` of the words `paddedWords` joined. */
export function exactFactorOfWords(padded: string, phrases: readonly string[], settings: FactorSettings): number {
  return phrases.some((phrase) => padded.includes(` ${phrase} `)) ? 1 + settings.exactBoost : 1;
}

export function computeFactors(
  memory: Memory,
  memoryWords: readonly string[],
  context: { now: Date; scopes: readonly string[] | undefined; phrases: readonly string[]; settings: FactorSettings },
): ScoreFactors {
  return {
    recency: recencyFactor(memory.occurredAt, context.now, context.settings),
    scope: scopeFactor(memory.scope, context.scopes),
    exact: exactFactor(memoryWords, context.phrases, context.settings),
    cooldown: 1,
  };
}
