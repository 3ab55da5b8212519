/**
 * What one activation is asked: the knobs of a recall path (read from the configuration) and
 * the request itself. Its own module, because the decision (`activate.ts`) and the receipt
 * that explains it (`receipt.ts`) both read it.
 */
import type { Embedder } from '../embedding/embedder.js';
import type { PendingEmbedding } from '../embedding/pending-embedding.js';
import type { RecallPath } from '../model/receipt.js';
import type { WorkingSet } from '../model/working-set.js';
import type { RetrievalSettings } from '../retrieval/hybrid-search.js';
import type { Store } from '../store/store.js';
import type { CooldownSettings } from './cooldown.js';
import type { Quotas, SelectionPolicy } from './select.js';

/** The knobs of one recall path, read from the configuration. */
export interface ActivationSettings {
  policy: SelectionPolicy;
  /** Hot-lane memories at most. */
  hotLane: number;
  /** Hot-lane memories at most when the working set has nothing to carry (its slot is free). */
  hotLaneWithoutWorkingSet: number;
  /** The whole budget, for the receipt. */
  maxItems: number;
  threshold: number;
  quotas: Quotas;
  repeatWindowTurns: number;
  repeatPenalty: number;
  dedupeBackbone: boolean;
  mmrLambda: number;
  /** Null when the cooldown does not apply to this path. */
  cooldown: CooldownSettings | null;
  /** Inject the working set as the pinned slot. */
  workingSet: boolean;
  /** Without a working set, inject hard rules and pinned memories in a pinned lane. */
  pinHardRules: boolean;
}

export interface ActivationRequest {
  store: Store;
  embedder: Embedder | null;
  tenant: string;
  sessionId: string | null;
  turn: number;
  path: RecallPath;
  query: string;
  /** Most specific first; the first one names the working set. */
  scopes: readonly string[];
  now: Date;
  settings: ActivationSettings;
  retrieval: RetrievalSettings;
  receiptId: string;
  /**
   * The query's embedding, when the caller started it before its own reads (it must be of
   * `query`, by `embedder`). Started by the decision itself when omitted.
   */
  embedding?: PendingEmbedding | undefined;
  /** Memories already in the context some other way (e.g. this session's thoughts). */
  excludeIds?: ReadonlySet<string>;
  /** Stores the working set (seed 002's `working_set:<scope>`); returns the memory id. */
  persistWorkingSet?: (workingSet: WorkingSet) => Promise<string | null>;
}
