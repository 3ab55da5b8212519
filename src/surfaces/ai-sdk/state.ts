/**
 * What one middleware instance holds: the conversation driver over its session, and the memory
 * tools it offers; and how each model call is prepared from them (recall block, nudges, tools).
 */
import { applyInsertions, ConversationRecall, type MemoryTool } from '../../entries/tools.js';
import { type Engram, InvalidInputError, type Session } from '../../index.js';
import { offeredTools } from './memory-tools.js';
import { transcriptOf } from './prompt.js';
import type { CallOptions, Prompt, ToolCallContent } from './types.js';

/** What `engramMiddleware` takes. */
export interface EngramMiddlewareOptions {
  engram: Engram;
  /** The session the conversation belongs to; or give `sessionId` (and `scope`) to open one. */
  session?: Session;
  /** Opens (or resumes) this session; a new id when neither this nor `session` is given. */
  sessionId?: string;
  /** The scope of a session opened from `sessionId`. @default "global" */
  scope?: string;
  /**
   * Offer Engram's memory tools (think, search_memory, write_memory, …) to the model and run
   * its calls to them: `true` for all, or a list of tool names. @default false
   */
  memoryTools?: boolean | readonly string[];
  /** Model calls in a row the middleware makes while the model calls only memory tools. @default 5 */
  maxMemoryToolSteps?: number;
  /** Where a failed recall is reported (the call then goes on without it). @default standard error */
  log?: (line: string) => void;
}

export interface MiddlewareState {
  recall: ConversationRecall;
  tools: MemoryTool[];
  toolNames: ReadonlySet<string>;
  maxMemoryToolSteps: number;
  log: (line: string) => void;
}

export function createMiddlewareState(options: EngramMiddlewareOptions): MiddlewareState {
  const { engram, session, sessionId, scope, memoryTools = false, maxMemoryToolSteps = 5 } = options;
  if (!engram) throw new InvalidInputError('engramMiddleware needs { engram }: the engine from openEngram()');
  if (session && (sessionId !== undefined || scope !== undefined)) {
    throw new InvalidInputError('engramMiddleware takes either a session or a sessionId (with scope), not both');
  }
  if (!Number.isInteger(maxMemoryToolSteps) || maxMemoryToolSteps < 1) {
    throw new InvalidInputError(`maxMemoryToolSteps must be a whole number of at least 1 (got ${String(maxMemoryToolSteps)})`);
  }
  const active = session ?? engram.session({ id: sessionId, scope });
  const tools = selectTools(active.tools(), memoryTools);
  return {
    recall: new ConversationRecall(active),
    tools,
    toolNames: new Set(tools.map((tool) => tool.name)),
    maxMemoryToolSteps,
    log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
  };
}

/** The call options for one model call: this turn's recall block and nudges, and the memory tools. */
export async function prepareCall(state: MiddlewareState, params: CallOptions, prompt: Prompt): Promise<CallOptions> {
  const insertions = await state.recall.beforeCall(transcriptOf(prompt)).then(
    (prepared) => prepared.insertions,
    (error: unknown) => {
      // Recall is an addition: without it the model call still goes through, as the caller sent it.
      state.log(
        `engram middleware: recall failed, calling the model without it: ${error instanceof Error ? error.message : String(error)}`,
      );
      return [];
    },
  );
  const withRecall = applyInsertions(prompt, insertions, (message) => ({ role: 'system' as const, content: message.content }));
  if (state.tools.length === 0) return { ...params, prompt: withRecall };
  // A host tool of the same name wins: its calls are the host's to run.
  const hostNames = new Set((params.tools ?? []).map((tool) => tool.name));
  const offered = offeredTools(state.tools.filter((tool) => !hostNames.has(tool.name)));
  return { ...params, prompt: withRecall, tools: [...(params.tools ?? []), ...offered] };
}

/** A call the middleware runs: to a memory tool it offered, not already run by the provider. */
export function isMemoryCall(state: MiddlewareState, call: ToolCallContent, params: CallOptions): boolean {
  if (call.providerExecuted || !state.toolNames.has(call.toolName)) return false;
  return !(params.tools ?? []).some((tool) => tool.name === call.toolName);
}

function selectTools(all: MemoryTool[], choice: boolean | readonly string[]): MemoryTool[] {
  if (choice === false) return [];
  if (choice === true) return all;
  const known = new Set(all.map((tool) => tool.name));
  const unknown = choice.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(`unknown memory tool ${unknown.join(', ')}: choose from ${[...known].join(', ')}`);
  }
  return all.filter((tool) => choice.includes(tool.name));
}
