/**
 * Reading a search request: defaults, checks with messages a caller can act on, and the
 * retrieval settings from the configuration. The engine then only wires it to the store.
 */
import type { EngramConfig } from '../config/schema.js';
import { InvalidInputError } from '../errors.js';
import type { Kind, Tier } from '../model/memory.js';
import { type Fusion, FUSIONS, type RetrievalSettings, SEARCH_MODES, type SearchMode } from '../retrieval/hybrid-search.js';

/** The largest `limit` a search accepts. */
export const MAX_SEARCH_LIMIT = 1000;

/** What `search` takes besides the query text. */
export interface SearchOptions {
  query: string;
  /** @default 10 */
  limit?: number;
  scopes?: readonly string[];
  kinds?: readonly Kind[];
  tiers?: readonly Tier[];
  /**
   * Which signals rank the results: `hybrid` (words and meaning, the default), `bm25` (words
   * only), `dense` (meaning only) or `keyword` (seed 004's keyword overlap).
   * @default "hybrid"
   */
  mode?: SearchMode;
  /** How hybrid mode fuses words and meaning. @default config `retrieval.fusion` ("weighted") */
  fusion?: Fusion;
  /** Leave out results whose relevance is below this, in [0, 1]. @default 0 */
  minRelevance?: number;
  /** Only memories that occurred at or after this time. */
  occurredAfter?: string | Date;
  /** Only memories that occurred before this time. */
  occurredBefore?: string | Date;
  /** Count the results as retrieved (feeds cooldown). @default true */
  recordRetrieval?: boolean;
  /**
   * Apply seed 001's retrieval cooldown, as explicit recall by an agent does (when
   * `[memory.cooldown].paths` includes "explicit"): recently retrieved memories score lower.
   * @default false
   */
  cooldown?: boolean;
}

/** A checked search request, ready for hybrid search. */
export interface SearchRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  minRelevance: number;
  scopes: readonly string[] | undefined;
  kinds: readonly Kind[] | undefined;
  tiers: readonly Tier[] | undefined;
  timeRange: { occurredAfter?: string; occurredBefore?: string };
  recordRetrieval: boolean;
  cooldown: boolean;
  settings: RetrievalSettings;
}

/** Checks `options` (a string is shorthand for `{ query }`) and fills in defaults from `retrieval`. */
export function parseSearchRequest(options: SearchOptions | string, retrieval: EngramConfig['retrieval']): SearchRequest {
  const request = typeof options === 'string' ? { query: options } : options;
  if (typeof request.query !== 'string' || request.query.trim().length === 0) {
    throw new InvalidInputError('query is empty: say what to search for');
  }
  const limit = request.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new InvalidInputError(`limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT} (got ${limit})`);
  }
  const minRelevance = request.minRelevance ?? 0;
  if (!(minRelevance >= 0 && minRelevance <= 1)) {
    throw new InvalidInputError(`minRelevance must be between 0 and 1 (got ${minRelevance})`);
  }
  return {
    query: request.query,
    limit,
    mode: parseChoice(request.mode ?? 'hybrid', SEARCH_MODES, 'search mode'),
    minRelevance,
    scopes: request.scopes,
    kinds: request.kinds,
    tiers: request.tiers,
    timeRange: timeRange(request),
    recordRetrieval: request.recordRetrieval !== false,
    cooldown: request.cooldown === true,
    settings: retrievalSettings(retrieval, parseChoice(request.fusion ?? retrieval.fusion, FUSIONS, 'fusion')),
  };
}

/** Hybrid search's settings from the `[retrieval]` section. */
export function retrievalSettings(retrieval: EngramConfig['retrieval'], fusion: Fusion = retrieval.fusion): RetrievalSettings {
  return {
    fusion,
    lexicalWeight: retrieval.lexical_weight,
    candidates: retrieval.candidates,
    factors: {
      recencyWeight: retrieval.recency_weight,
      recencyHalfLifeDays: retrieval.recency_half_life_days,
      exactBoost: retrieval.exact_boost,
    },
  };
}

/** `value` if it is one of `allowed`; otherwise an error listing them. */
export function parseChoice<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidInputError(`unknown ${name} ${value}: choose from ${allowed.join(', ')}`);
}

function timeRange(request: SearchOptions): { occurredAfter?: string; occurredBefore?: string } {
  const range: { occurredAfter?: string; occurredBefore?: string } = {};
  for (const name of ['occurredAfter', 'occurredBefore'] as const) {
    const value = request[name];
    if (value === undefined) continue;
    const date = value instanceof Date ? value : new Date(value);
    if (Number.isNaN(date.getTime())) throw new InvalidInputError(`${name} is not a valid date: ${String(value)}`);
    range[name] = date.toISOString();
  }
  return range;
}
