/**
 * `engram/internal`: the parts of Engram that its own benchmarks and tools need and that are
 * not public API — the concrete SQLite and PostgreSQL stores (and a scratch schema for a
 * benchmark's PostgreSQL run), the embedder a configuration names, the embedding cache, the recall block's formatter, the
 * validation message helper. It carries no compatibility promise: any export
 * here may change or go in any release. Programs using Engram import `engram` (and its
 * documented subpaths) instead.
 *
 * The concrete stores live here rather than on a public subpath because only the facade constructs
 * concrete backends (`openEngram({ path })` opens SQLite; custom backends implement the public
 * `Store` type), and their methods are the `Store` contract, which is still being split up.
 */
export { formatRecallBlock } from './context/format.js';
export type { EmbeddingCache } from './embedding/cached-embedder.js';
export { withEmbeddingCache } from './embedding/cached-embedder.js';
export { createEmbedderFromConfig } from './embedding/create-embedder.js';
export { extractGraph } from './graph/extract.js';
export type { ExtractionScore, LabelledMemory, Tally } from './graph/extraction-score.js';
export { scoreExtraction } from './graph/extraction-score.js';
export type { IdGenerator } from './model/ids.js';
export { describeIssues } from './model/memory-input.js';
export { PostgresStore } from './store/postgres/postgres-store.js';
export type { ScratchSchema } from './store/postgres/scratch-schema.js';
export { createScratchSchema } from './store/postgres/scratch-schema.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';
