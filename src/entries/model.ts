/**
 * `engram/model`: the rest of Engram's vocabulary, beyond the few types the root exports — the
 * option and result types of every engine operation, the value lists and limits input is checked
 * against (`KINDS`, `TIERS`, `SEARCH_MODES`, `MAX_SEARCH_LIMIT`, …), the zod schemas each operation
 * validates its input with (for a program that checks input at its own edge, as Engram's HTTP API
 * does), the configuration's parser, the password redaction of database URLs, and the clocks. Public API, versioned with the package.
 */
export { CONFIG_FILE_NAME, parseConfig } from '../config/load.js';
export { redactUrl } from '../config/redact-url.js';
export type { ContextSection, ContextTrim, SectionName } from '../context/assemble.js';
export type { RecallMessage } from '../context/format.js';
export { LOCAL_EMBEDDER_ID } from '../embedding/local-use-embedder.js';
export type { OpenAiEmbedderOptions } from '../embedding/openai-embedder.js';
export type { Progress, ProgressListener } from '../engram/embed-batches.js';
export type { EngramStats, ReindexSummary, StatsRequest, WriteOptions } from '../engram/engram.js';
export type { ImportOptions, ImportSummary, RecordPosition } from '../engram/import-records.js';
export type { ScopesOptions } from '../engram/scopes-request.js';
export { systemClock } from '../model/clock.js';
export { INTERNAL_KINDS } from '../model/internal-kinds.js';
export type { ListMemoriesOptions, ListStatus } from '../model/list-request.js';
export { LIST_STATUSES, ListRequestSchema } from '../model/list-request.js';
export { KINDS, SOURCES, TIERS } from '../model/memory.js';
export { MAX_TEXT_CHARS, MemoryInputSchema, MemoryPatchSchema } from '../model/memory-input.js';
export type { InjectionListOptions, SessionListOptions } from '../model/page-request.js';
export type {
  Lane,
  Outcome,
  QuotaSummary,
  RecallPath,
  ReceiptEntry,
  ScoreFactorsReceipt,
  SelectionMode,
} from '../model/receipt.js';
export { OUTCOMES, RECALL_PATHS, SELECTION_MODES } from '../model/receipt.js';
export { MAX_SEARCH_LIMIT, SearchRequestSchema } from '../model/search-request.js';
export type { ActivityEntry, ActivityLabel, SessionRecord } from '../model/session.js';
export type { ReceiptQueryOptions } from '../model/session-request.js';
export { ReceiptQuerySchema, SessionOptionsSchema } from '../model/session-request.js';
export type { ScoreFactors } from '../retrieval/factors.js';
export type { Fusion, SearchMode, SearchSignals } from '../retrieval/hybrid-search.js';
export { FUSIONS, SEARCH_MODES } from '../retrieval/hybrid-search.js';
export type { SessionStart } from '../session/session.js';
export type { MemoryInjection, SessionSummary } from '../store/store.js';
export { GRAPH_REQUEST_SCHEMAS } from '../tools/graph-schemas.js';
export { RecallSolutionsRequestSchema, StoreSolutionRequestSchema } from '../tools/solutions.js';
