/**
 * Engram's public API. Every export here is a promise to users: add deliberately, never
 * rename (the export list is pinned by a test). Heavy or Node-only surfaces live behind
 * subpath exports.
 */
export { CONFIG_FILE_NAME, loadConfig, parseConfig } from './config/load.js';
export type { ConfigInput, EngramConfig } from './config/schema.js';
export type { ContextSection, ContextTrim, SectionName } from './context/assemble.js';
export type { RecallMessage } from './context/format.js';
export type { SolutionBlockInput } from './context/solution-block.js';
export { renderSolutionBlock, renderSolutionBlocks } from './context/solution-block.js';
export type { Embedder } from './embedding/embedder.js';
export { createLocalEmbedder, LOCAL_EMBEDDER_ID } from './embedding/local-use-embedder.js';
export type { OpenAiEmbedderOptions } from './embedding/openai-embedder.js';
export { createOpenAiEmbedder } from './embedding/openai-embedder.js';
export type { Progress, ProgressListener } from './engine/embed-batches.js';
export type { ImportOptions, ImportSummary } from './engine/import-records.js';
export type { EngramStats, ListMemoriesOptions, OpenEngramOptions, SearchOptions, SessionOptions } from './engram.js';
export { Engram, MAX_SEARCH_LIMIT, openEngram } from './engram.js';
export type { EngramErrorCode } from './errors.js';
export { ConfigError, EmbedderMismatchError, EngramError, InvalidInputError, isEngramError, NotFoundError } from './errors.js';
export type { Clock } from './model/clock.js';
export { manualClock, systemClock } from './model/clock.js';
export type { Kind, Memory, Source, Tier } from './model/memory.js';
export { KINDS, SOURCES, TIERS } from './model/memory.js';
export type { MemoryInput, MemoryPatch } from './model/memory-input.js';
export { MAX_TEXT_CHARS } from './model/memory-input.js';
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
export type { ActivityEntry, SessionRecord } from './model/session.js';
export type { ScoreFactors } from './retrieval/factors.js';
export type { Fusion, SearchHit, SearchMode, SearchSignals } from './retrieval/hybrid-search.js';
export { FUSIONS, SEARCH_MODES } from './retrieval/hybrid-search.js';
export type { AfterStep, AgentStep, BeforeTurn, SessionContext, SessionStart } from './session/session.js';
export { Session } from './session/session.js';
export { SqliteStore } from './store/sqlite/sqlite-store.js';
export type {
  ActivationRecord,
  Injection,
  MemoryFilter,
  ReceiptQuery,
  Store,
  StoreStats,
  VectorIndexInfo,
} from './store/store.js';
export type { MemoryToolName, MemoryToolsOptions } from './tools/create-memory-tools.js';
export { createMemoryTools, MEMORY_TOOL_NAMES } from './tools/create-memory-tools.js';
export type { JsonSchemaObject } from './tools/json-schema.js';
export { SCRATCHPAD_KEY, SESSION_HANDOFF_KEY } from './tools/keys.js';
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
export { recallSolutions, SOLUTION_STATUSES, storeSolution } from './tools/solutions.js';
export type { MemoryTool, ToolEngine } from './tools/tool.js';
