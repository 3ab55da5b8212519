/**
 * Engram's public API. Every export here is a promise to users: add deliberately, never
 * rename (the export list is pinned by a test). Heavy or Node-only surfaces live behind
 * subpath exports.
 */
export { CONFIG_FILE_NAME, loadConfig, parseConfig } from './config/load.js';
export { redactUrl } from './config/redact-url.js';
export type { ConfigInput, EngramConfig } from './config/schema.js';
export type { ContextSection, ContextTrim, SectionName } from './context/assemble.js';
export type { RecallMessage } from './context/format.js';
export type { SolutionBlockInput } from './context/solution-block.js';
export { renderSolutionBlock, renderSolutionBlocks } from './context/solution-block.js';
export type { Embedder } from './embedding/embedder.js';
export { createLocalEmbedder, LOCAL_EMBEDDER_ID } from './embedding/local-use-embedder.js';
export type { OpenAiEmbedderOptions } from './embedding/openai-embedder.js';
export { createOpenAiEmbedder } from './embedding/openai-embedder.js';
export type { BackupOptions, BackupSummary } from './engram/backup.js';
export { backupDatabase } from './engram/backup.js';
export type { DoctorOptions } from './engram/doctor.js';
export { doctorDatabase } from './engram/doctor.js';
export type { Progress, ProgressListener } from './engram/embed-batches.js';
export type { EngramStats, OpenEngramOptions, ReindexSummary, StatsRequest, WriteOptions } from './engram/engram.js';
export { Engram, openEngram } from './engram/engram.js';
export type { ImportOptions, ImportSummary, RecordPosition } from './engram/import-records.js';
export type { EngramErrorCode } from './errors.js';
export { ConfigError, EmbedderMismatchError, EngramError, InvalidInputError, isEngramError, NotFoundError } from './errors.js';
export type { Clock } from './model/clock.js';
export { manualClock, systemClock } from './model/clock.js';
export { INTERNAL_KINDS } from './model/internal-kinds.js';
export type { ListMemoriesOptions, ListStatus } from './model/list-request.js';
export { LIST_STATUSES, ListRequestSchema } from './model/list-request.js';
export type { Kind, Memory, Source, Tier } from './model/memory.js';
export { KINDS, SOURCES, TIERS } from './model/memory.js';
export type { MemoryInput, MemoryPatch } from './model/memory-input.js';
export { MAX_TEXT_CHARS } from './model/memory-input.js';
export { MemoryInputSchema, MemoryPatchSchema } from './model/memory-input.js';
export type { InjectionListOptions, SessionListOptions } from './model/page-request.js';
export type {
  Lane,
  Outcome,
  QuotaSummary,
  RecallPath,
  Receipt,
  ReceiptEntry,
  ScoreFactorsReceipt,
  SelectionMode,
} from './model/receipt.js';
export { OUTCOMES, RECALL_PATHS, SELECTION_MODES } from './model/receipt.js';
export type { SearchOptions } from './model/search-request.js';
export { MAX_SEARCH_LIMIT, SearchRequestSchema } from './model/search-request.js';
export type { ActivityEntry, ActivityLabel, SessionRecord } from './model/session.js';
export type { ReceiptQueryOptions, SessionOptions } from './model/session-request.js';
export { ReceiptQuerySchema, SessionOptionsSchema } from './model/session-request.js';
export type { ScoreFactors } from './retrieval/factors.js';
export type { Fusion, SearchHit, SearchMode, SearchSignals } from './retrieval/hybrid-search.js';
export { FUSIONS, SEARCH_MODES } from './retrieval/hybrid-search.js';
export type { TranscriptInsertion, TranscriptMessage, TurnLoopSession } from './session/conversation-recall.js';
export { applyInsertions, ConversationRecall } from './session/conversation-recall.js';
export type { AfterStep, AgentStep, BeforeTurn, SessionContext, SessionStart } from './session/session.js';
export { Session } from './session/session.js';
export type { DoctorCheck, DoctorFinding, DoctorRepair, DoctorReport } from './store/doctor-report.js';
export { DOCTOR_CHECKS } from './store/doctor-report.js';
export type {
  ActivationLog,
  ActivationRecord,
  ActivityLog,
  EmbeddingCache,
  Injection,
  LexicalHit,
  LexicalSearch,
  ListOptions,
  MemoryChange,
  MemoryEntry,
  MemoryFilter,
  MemoryInjection,
  MemoryReader,
  MemoryStore,
  ReceiptQuery,
  SessionListQuery,
  SessionStore,
  SessionSummary,
  StatsOptions,
  Store,
  StoreStatistics,
  StoreStats,
  VectorHit,
  VectorIndexInfo,
  VectorIndexStore,
  VectorSearch,
} from './store/store.js';
export type { MemoryToolName, MemoryToolsOptions } from './tools/create-memory-tools.js';
export { createMemoryTools, MEMORY_TOOL_NAMES } from './tools/create-memory-tools.js';
export type { GraphRequest, GraphToolName } from './tools/graph-schemas.js';
export { GRAPH_REQUEST_SCHEMAS, GRAPH_TOOL_LIMITS } from './tools/graph-schemas.js';
export type { GraphToolsOptions } from './tools/graph-tools.js';
export { createGraphTools, GRAPH_TOOL_NAMES } from './tools/graph-tools.js';
export type { JsonSchemaObject } from './tools/json-schema.js';
export { SCRATCHPAD_KEY, SESSION_HANDOFF_KEY } from './tools/keys.js';
export type {
  GraphEntity,
  GraphEntityInput,
  GraphPageRequest,
  GraphRelation,
  GraphView,
  KnowledgeGraph,
  KnowledgeGraphPage,
} from './tools/knowledge-graph.js';
export { TOOL_LIMITS } from './tools/limits.js';
export type { AiSdkTool } from './tools/providers/ai-sdk.js';
export { toAiSdkTools } from './tools/providers/ai-sdk.js';
export type { AnthropicTool, AnthropicToolResult, AnthropicToolUse } from './tools/providers/anthropic.js';
export { runAnthropicToolUse, toAnthropicTools } from './tools/providers/anthropic.js';
export type { McpCallToolResult, McpToolDefinition } from './tools/providers/mcp.js';
export { callMcpTool, toMcpTools } from './tools/providers/mcp.js';
export type {
  OpenAiChatTool,
  OpenAiChatToolCall,
  OpenAiFunctionCallOutput,
  OpenAiResponsesFunctionCall,
  OpenAiResponsesTool,
  OpenAiToolMessage,
} from './tools/providers/openai.js';
export { runOpenAiToolCall, toOpenAiTools } from './tools/providers/openai.js';
export type { GoalSignals, SolutionSimilarity } from './tools/solution-similarity.js';
export { SOLUTION_SIMILARITIES } from './tools/solution-similarity.js';
export type {
  RecallSolutionsOptions,
  Solution,
  SolutionInput,
  SolutionMatch,
  SolutionStatus,
  StoreSolutionOptions,
} from './tools/solutions.js';
export {
  recallSolutions,
  RecallSolutionsRequestSchema,
  SOLUTION_STATUSES,
  storeSolution,
  StoreSolutionRequestSchema,
} from './tools/solutions.js';
export type { MemoryTool, ToolEngine } from './tools/tool.js';
