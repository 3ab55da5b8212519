/**
 * Engram's public API. Every export here is a promise to users: add deliberately, never
 * rename (the export list is pinned by a test). Heavy or Node-only surfaces live behind
 * subpath exports.
 */
export { openEngram, Engram, MAX_SEARCH_LIMIT } from './engram.js';
export type { OpenEngramOptions, SearchOptions, ListMemoriesOptions, EngramStats } from './engram.js';
export type { SearchHit } from './retrieval/plain-search.js';
export type { ImportOptions, ImportSummary } from './engine/import-records.js';
export type { Progress, ProgressListener } from './engine/embed-batches.js';

export { KINDS, TIERS, SOURCES } from './model/memory.js';
export type { Memory, Kind, Tier, Source } from './model/memory.js';
export { MAX_TEXT_CHARS } from './model/memory-input.js';
export type { MemoryInput, MemoryPatch } from './model/memory-input.js';
export { systemClock, manualClock } from './model/clock.js';
export type { Clock } from './model/clock.js';

export { loadConfig, parseConfig, CONFIG_FILE_NAME } from './config/load.js';
export type { EngramConfig, ConfigInput } from './config/schema.js';

export type { Embedder } from './embedding/embedder.js';
export { createLocalEmbedder, LOCAL_EMBEDDER_ID } from './embedding/local-use-embedder.js';
export { createOpenAiEmbedder } from './embedding/openai-embedder.js';
export type { OpenAiEmbedderOptions } from './embedding/openai-embedder.js';

export type { Store, MemoryFilter, StoreStats, VectorIndexInfo } from './store/store.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';

export { EngramError, InvalidInputError, ConfigError, NotFoundError, EmbedderMismatchError, isEngramError } from './errors.js';
export type { EngramErrorCode } from './errors.js';
