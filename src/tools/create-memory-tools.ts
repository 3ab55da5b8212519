/**
 * The memory tools, bound to an engine and a session: what `session.tools()` returns and what
 * every exporter (OpenAI, Anthropic, MCP, Vercel AI SDK) is generated from.
 */
import { InvalidInputError } from '../errors.js';
import type { Source } from '../model/memory.js';
import { DEFAULT_SCOPE } from '../model/memory.js';
import { recallSolutionTool } from './recall-solution.js';
import { scratchNoteTool } from './scratch-note.js';
import { searchMemoryTool } from './search-memory.js';
import { storeSolutionTool } from './store-solution.js';
import { thinkTool } from './think.js';
import { bindTool, type MemoryTool, type ToolEngine } from './tool.js';
import { writeMemoryTool } from './write-memory.js';
import { writeSessionHandoffTool } from './write-session-handoff.js';

/** Every tool, in the order they are offered to a model. Names are a stable contract. */
const DEFINITIONS = [
  searchMemoryTool,
  writeMemoryTool,
  writeSessionHandoffTool,
  scratchNoteTool,
  thinkTool,
  storeSolutionTool,
  recallSolutionTool,
] as const;

/** The tools' names; they never change (a test pins them and their schemas). */
export const MEMORY_TOOL_NAMES = DEFINITIONS.map((definition) => definition.name) as readonly MemoryToolName[];
export type MemoryToolName = (typeof DEFINITIONS)[number]['name'];

/** What the tools are bound to. */
export interface MemoryToolsOptions {
  /** The engine (or anything with the same operations). */
  engram: ToolEngine;
  /** The session writes belong to (thoughts, notes, the handoff). @default null */
  sessionId?: string | null;
  /** The scope the tools write to and read keyed notes from. @default "global" */
  scope?: string;
  /** Scopes search and solution recall may see, most specific first. @default every scope */
  scopes?: readonly string[];
  /** Who the writes come from. @default "agent" (the model); the CLI mirrors pass "user" */
  source?: Source;
  /** Offer only these tools. @default all of them */
  only?: readonly MemoryToolName[];
}

/**
 * The memory tools as `{ name, description, inputSchema, argsSchema, execute(args) }`:
 * `search_memory`, `write_memory`, `write_session_handoff`, `scratch_note`, `think`,
 * `store_solution`, `recall_solution`.
 */
export function createMemoryTools(options: MemoryToolsOptions): MemoryTool[] {
  const context = {
    engram: options.engram,
    sessionId: options.sessionId ?? null,
    scope: options.scope ?? DEFAULT_SCOPE,
    scopes: options.scopes,
    source: options.source ?? 'agent',
  };
  const unknown = (options.only ?? []).filter((name) => !MEMORY_TOOL_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(`unknown tool ${unknown.join(', ')}: choose from ${MEMORY_TOOL_NAMES.join(', ')}`);
  }
  return DEFINITIONS.filter((definition) => !options.only || options.only.includes(definition.name)).map(
    (definition) => bindTool(definition as Parameters<typeof bindTool>[0], context) as MemoryTool,
  );
}

/** The tool named `name` in `tools`, or an error listing the names there are. */
export function findTool(tools: readonly MemoryTool[], name: string): MemoryTool {
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) throw new InvalidInputError(`unknown tool ${name}: choose from ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}
