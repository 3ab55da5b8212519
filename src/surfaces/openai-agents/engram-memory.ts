/**
 * `engramMemory`: Engram for an OpenAI Agents SDK conversation — its memory tools as the agent's
 * tools, and recall before each run as the run's `callModelInputFilter`, both on one Engram
 * session whose id is the SDK session's (or one given).
 */
import type { CallModelInputFilter, FunctionTool, Session as AgentSession } from '@openai/agents';

import type { MemoryTool } from '../../entries/tools.js';
import { type Engram, InvalidInputError, type Session } from '../../index.js';
import { toAgentTools } from './agent-tools.js';
import { createInputFilter } from './input-filter.js';

/** What `engramMemory` takes. */
export interface EngramMemoryOptions {
  engram: Engram;
  /** The SDK session the conversation is kept in: the Engram session takes its id (`getSessionId()`). */
  session?: AgentSession;
  /** The Engram session's id, when the conversation has no SDK session; a new id when neither is given. */
  sessionId?: string;
  /** The scope the session writes to and recalls from first. @default "global" */
  scope?: string;
  /** Which memory tools to offer: `true` for all, `false` for none, or a list of names. @default true */
  tools?: boolean | readonly string[];
  /** Where a failure of Engram is reported (the run then goes on without it). @default standard error */
  log?: (line: string) => void;
}

/** Engram for one conversation: pass `tools` to the agent and `callModelInputFilter` to the run. */
export interface EngramMemory {
  /** The Engram session the conversation's recall, nudges and tool writes belong to. */
  readonly session: Session;
  /** Engram's memory tools as the SDK's function tools: `new Agent({ tools: [...memory.tools] })`. */
  readonly tools: FunctionTool[];
  /** Recall before each model call: `run(agent, input, { callModelInputFilter: memory.callModelInputFilter })`. */
  readonly callModelInputFilter: CallModelInputFilter;
}

/**
 * Engram's memory for an OpenAI Agents SDK conversation (`@openai/agents` 0.20). One per
 * conversation: runs of other conversations need their own.
 */
export async function engramMemory(options: EngramMemoryOptions): Promise<EngramMemory> {
  const { engram, session: agentSession, sessionId, scope, tools = true } = options;
  if (!engram) throw new InvalidInputError('engramMemory needs { engram }: the engine from openEngram()');
  if (agentSession && sessionId !== undefined) {
    throw new InvalidInputError('engramMemory takes either an SDK session or a sessionId, not both: the session gives the id');
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const id = agentSession ? await agentSession.getSessionId() : sessionId;
  const session = engram.session({ id, scope });
  return {
    session,
    tools: toAgentTools(selectTools(session.tools(), tools), { log }),
    callModelInputFilter: createInputFilter(session, log),
  };
}

function selectTools(all: MemoryTool[], choice: boolean | readonly string[]): MemoryTool[] {
  if (choice === false) return [];
  if (choice === true) return all;
  const known = all.map((tool) => tool.name);
  const unknown = choice.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new InvalidInputError(`unknown memory tool ${unknown.join(', ')}: choose from ${known.join(', ')}`);
  }
  return all.filter((tool) => choice.includes(tool.name));
}
