/**
 * The facade's option and result types: what `openEngram` takes, and what `stats`, `reindex` and
 * every write take or give. Their own module, so the helpers of src/engram/ read them without the
 * class.
 */
import type { ConfigInput, EngramConfig } from '../config/schema.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbedderLanguages } from '../embedding/embedder-languages.js';
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import type { ActivityLabel } from '../model/session.js';
import type { StoreCalibrationInfo } from '../retrieval/store-calibration.js';
import type { GraphCounts, Store, StoreStats } from '../store/store.js';
import type { Extractor } from './graph-extraction.js';

/** How to open an engine. Everything is optional. */
export interface OpenEngramOptions {
  /** Database file; unused when config `store.url` names a PostgreSQL database. @default config `store.path` (".engram/engram.db") */
  path?: string;
  /** Settings of `engram.toml`'s shape; missing keys take the seeds' defaults. */
  config?: ConfigInput;
  /** The embedder; `null` stores no vectors (lexical search only). @default from config `[embedding]` */
  embedder?: Embedder | null;
  /** The storage backend. @default PostgreSQL at config `store.url` when set, else SQLite at `path` */
  store?: Store;
  clock?: Clock;
  ids?: IdGenerator;
  /** Tenant used when a call names none. @default config `store.tenant` */
  tenant?: string;
  /**
   * @internal The graph extractor run on every write (tests inject one that fails).
   * @default the offline extractor of `src/graph/`
   */
  extractor?: Extractor;
  /** Refuse to create a database that does not exist yet (read-only commands). @default false */
  mustExist?: boolean;
  /** Create the database file's folder when it is missing. @default true for config `store.path`, false for another `path` */
  createDirectory?: boolean;
}

/** Engine statistics: the store's counts plus the embedder in use. */
export interface EngramStats extends StoreStats {
  path: string | null;
  embedder: string;
  /**
   * The languages the embedder reads, when Engram knows them: the built-in model reads English
   * only, and this says how to search other languages by meaning; null for another embedder or none.
   */
  embedderLanguages: EmbedderLanguages | null;
  /** The knowledge graph: entities, live and ended relations, mentions. */
  graph: GraphCounts;
  /** How relevance is calibrated on this store: its sample, whether it is young, the curve. */
  calibration: StoreCalibrationInfo;
  /**
   * Engram's internal records (working sets, handoff notes, scratchpads; `INTERNAL_KINDS`):
   * how many are live, and whether the counts above include them. They do only when asked
   * (`stats({ internal: true })`).
   */
  internal: { live: number; counted: boolean };
}

/** What `stats` takes. */
export interface StatsRequest {
  /**
   * Count Engram's internal records (working sets, handoff notes, scratchpads) with the
   * memories, by state, kind, tier and scope.
   * @default false
   */
  internal?: boolean;
}

/** What `reindex` did. */
export interface ReindexSummary {
  /** Memories re-embedded and re-extracted, of every tenant. */
  memories: number;
  embedder: string;
  dimensions: number;
  /** Memories whose graph extraction failed again (they stay counted in `stats().graph.extractionFailures`). */
  extractionFailures: number;
}

/** How a write names itself in the activity log. */
export interface WriteOptions {
  /** The line's action and words, when the caller knows them better (a tool's name). @default the engine's own */
  activity?: ActivityLabel;
}

/** What the engine is made of; `openEngram` builds it from `OpenEngramOptions`. */
export interface EngramParts {
  config: EngramConfig;
  store: Store;
  embedder: Embedder | null;
  clock: Clock;
  ids: IdGenerator;
  tenant: string;
  path: string | null;
  extractor?: Extractor | undefined;
}
