/**
 * `engram/openai-agents`: Engram's memory for the OpenAI Agents SDK — the memory tools as the
 * agent's tools, recall before each run as its `callModelInputFilter`. Needs `@openai/agents`
 * 0.20 (an optional peer dependency of Engram); nothing of it loads unless this entry is imported.
 */
export { toAgentTools } from './agent-tools.js';
export type { EngramMemory, EngramMemoryOptions } from './engram-memory.js';
export { engramMemory } from './engram-memory.js';
