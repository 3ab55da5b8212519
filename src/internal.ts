/**
 * `engram/internal`: the parts of Engram that its own surfaces, benchmarks and tools need and
 * that are not public API — the concrete SQLite and PostgreSQL store classes (and a scratch
 * schema for a benchmark's PostgreSQL run, and where its bytes and processes are), the embedder a configuration names, the embedding
 * cache, graph extraction and its score, the recall block's formatter, and the validation message
 * helper. It carries no compatibility promise: any export here
 * may change or go in any release, and no documentation points a program at it. Programs use
 * `engram` and its documented subpaths (docs/decisions/public-api.md); a custom store opens with
 * `engram/sqlite` or `engram/postgres`, which return the public `Store` type.
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
export { checkpointerProcessId } from './store/postgres/server-processes.js';
export { settleTables } from './store/postgres/settle-tables.js';
export type { ColumnSpace, IndexSpace, RelationSpace } from './store/postgres/space-by-table.js';
export { columnSizes, indexSizes, relationSizes } from './store/postgres/space-by-table.js';
export type { FileSpaceByTable, TableSpace } from './store/sqlite/space-by-table.js';
export { spaceByTable } from './store/sqlite/space-by-table.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';
