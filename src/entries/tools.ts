/**
 * `engram/tools`: Engram's agent tools and the adapters that hand them to a model provider or an
 * agent framework — the memory tools (seed 003's four, `think`, solutions), the knowledge-graph
 * tools in the MCP reference memory server's shapes, their OpenAI, Anthropic, MCP and AI SDK
 * forms, the solution helpers and their prompt block (seed 004), and the transcript adapter an
 * integration drives a `Session` with. Public API, versioned with the package.
 */
export { isEngramContextMessage } from '../context/format.js';
export type { SolutionBlockInput } from '../context/solution-block.js';
export { renderSolutionBlock, renderSolutionBlocks } from '../context/solution-block.js';
export type { TranscriptInsertion, TranscriptMessage, TurnLoopSession } from '../session/conversation-recall.js';
export { applyInsertions, ConversationRecall } from '../session/conversation-recall.js';
export type { MemoryToolName, MemoryToolsOptions } from '../tools/create-memory-tools.js';
export { createMemoryTools, MEMORY_TOOL_NAMES } from '../tools/create-memory-tools.js';
export type { GraphRequest, GraphToolName } from '../tools/graph-schemas.js';
export { GRAPH_TOOL_LIMITS } from '../tools/graph-schemas.js';
export type { GraphToolsOptions } from '../tools/graph-tools.js';
export { createGraphTools, GRAPH_TOOL_NAMES } from '../tools/graph-tools.js';
export type { JsonSchemaObject } from '../tools/json-schema.js';
export { SCRATCHPAD_KEY, SESSION_HANDOFF_KEY } from '../tools/keys.js';
export type {
  GraphEntity,
  GraphEntityInput,
  GraphPageRequest,
  GraphRelation,
  GraphView,
  KnowledgeGraph,
  KnowledgeGraphPage,
} from '../tools/knowledge-graph.js';
export { TOOL_LIMITS } from '../tools/limits.js';
export type { AiSdkTool } from '../tools/providers/ai-sdk.js';
export { toAiSdkTools } from '../tools/providers/ai-sdk.js';
export type { AnthropicTool, AnthropicToolResult, AnthropicToolUse } from '../tools/providers/anthropic.js';
export { runAnthropicToolUse, toAnthropicTools } from '../tools/providers/anthropic.js';
export type { McpCallToolResult, McpToolDefinition } from '../tools/providers/mcp.js';
export { callMcpTool, toMcpTools } from '../tools/providers/mcp.js';
export type {
  OpenAiChatTool,
  OpenAiChatToolCall,
  OpenAiFunctionCallOutput,
  OpenAiResponsesFunctionCall,
  OpenAiResponsesTool,
  OpenAiToolMessage,
} from '../tools/providers/openai.js';
export { runOpenAiToolCall, toOpenAiTools } from '../tools/providers/openai.js';
export type { GoalSignals, SolutionSimilarity } from '../tools/solution-similarity.js';
export { SOLUTION_SIMILARITIES } from '../tools/solution-similarity.js';
export type {
  RecallSolutionsOptions,
  Solution,
  SolutionInput,
  SolutionMatch,
  SolutionStatus,
  StoreSolutionOptions,
} from '../tools/solutions.js';
export { recallSolutions, SOLUTION_STATUSES, storeSolution } from '../tools/solutions.js';
export type { MemoryTool, ToolEngine } from '../tools/tool.js';
