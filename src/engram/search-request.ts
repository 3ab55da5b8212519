/**
 * Reading a search request: the shared schema (`model/search-request.ts`) checks it, and the
 * retrieval settings come from the configuration. The engine then only wires it to the store.
 */
import type { EngramConfig } from '../config/schema.js';
import { InvalidInputError } from '../errors.js';
import { hiddenKinds } from '../model/internal-kinds.js';
import type { Kind, Tier } from '../model/memory.js';
import { type Fusion, type SearchOptions, SearchRequestSchema } from '../model/search-request.js';
import type { RetrievalSettings, SearchMode } from '../retrieval/hybrid-search.js';
import { describeMessages } from './describe-messages.js';

/** A checked search request, ready for hybrid search. */
export interface SearchRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  minRelevance: number;
  scopes: readonly string[] | undefined;
  kinds: readonly Kind[] | undefined;
  tiers: readonly Tier[] | undefined;
  /** Kinds left out: Engram's internal records unless asked for (`model/internal-kinds.ts`). */
  excludeKinds: readonly Kind[] | undefined;
  timeRange: { occurredAfter?: string; occurredBefore?: string };
  recordRetrieval: boolean;
  cooldown: boolean;
  settings: RetrievalSettings;
}

/** Checks `options` (a string is shorthand for `{ query }`) and fills in defaults from the configuration. */
export function parseSearchRequest(options: SearchOptions | string, config: EngramConfig): SearchRequest {
  const result = SearchRequestSchema.safeParse(typeof options === 'string' ? { query: options } : options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  const request = result.data;
  const timeRange: { occurredAfter?: string; occurredBefore?: string } = {};
  if (request.occurredAfter !== undefined) timeRange.occurredAfter = request.occurredAfter;
  if (request.occurredBefore !== undefined) timeRange.occurredBefore = request.occurredBefore;
  return {
    query: request.query,
    limit: request.limit ?? 10,
    mode: request.mode ?? 'hybrid',
    minRelevance: request.minRelevance ?? 0,
    scopes: request.scopes,
    kinds: request.kinds,
    tiers: request.tiers,
    excludeKinds: hiddenKinds(request),
    timeRange,
    recordRetrieval: request.recordRetrieval !== false,
    cooldown: request.cooldown === true,
    settings: retrievalSettings(config, { fusion: request.fusion, graph: request.graph }),
  };
}

/** Hybrid search's settings from `[retrieval]` and `[graph]`, with a request's own choices first. */
export function retrievalSettings(
  config: EngramConfig,
  chosen: { fusion?: Fusion | undefined; graph?: boolean | undefined } = {},
): RetrievalSettings {
  const { retrieval } = config;
  return {
    fusion: chosen.fusion ?? retrieval.fusion,
    graph: chosen.graph ?? config.graph.recall,
    lexicalWeight: retrieval.lexical_weight,
    candidates: retrieval.candidates,
    factors: {
      recencyWeight: retrieval.recency_weight,
      recencyHalfLifeDays: retrieval.recency_half_life_days,
      exactBoost: retrieval.exact_boost,
    },
  };
}
