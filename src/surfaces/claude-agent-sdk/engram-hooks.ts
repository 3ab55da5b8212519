/**
 * `engramHooks`: the Agent SDK's `hooks` option making the same decisions as Engram's Claude Code
 * hooks (src/surfaces/hooks/claude-code-handlers.ts), in the SDK's own process: SessionStart the
 * session-start context, UserPromptSubmit active recall (seed 000), PostToolUse a tool-only step
 * and every `every_tool_turns`-th the reflection nudge (seed 001), Stop a step that answered,
 * SessionEnd ends the session. The SDK's `session_id` is the Engram session's id.
 */
import type { HookCallback, HookCallbackMatcher, HookEvent, HookJSONOutput } from '@anthropic-ai/claude-agent-sdk';

import { type Engram, InvalidInputError } from '../../index.js';
import { CLAUDE_CODE_EVENTS, type ClaudeCodeEvent } from '../hooks/claude-code-events.js';
import { handleClaudeCodeEvent } from '../hooks/claude-code-handlers.js';
import type { ClaudeCodeHookOutput } from '../hooks/claude-code-output.js';
import { eventOfHookInput, sessionStartOf } from './hook-events.js';
import { addedText, contextOutput, nothingToAdd, sdkOutputOf } from './hook-output.js';
import { SessionQueue } from './session-queue.js';

/** What `engramHooks` takes. */
export interface EngramHooksOptions {
  /** The engine from `openEngram()`; the hooks do not close it. */
  engram: Engram;
  /** The scope of the sessions (recall sees it first, then "global"). @default "global" */
  scope?: string | undefined;
  /** Where a failing hook is reported, one line each; the agent's turn goes on without it. @default standard error */
  log?: ((line: string) => void) | undefined;
}

/** The events Engram answers, in lifecycle order. */
export const ENGRAM_HOOK_EVENTS = CLAUDE_CODE_EVENTS;

/** The SDK's `hooks` option: one matcher per event, for every tool. */
export type EngramHooks = Partial<Record<HookEvent, HookCallbackMatcher[]>>;

/** Told the SDK session of each event before it is answered (the MCP server's tools follow it). */
export type SessionObserver = (sessionId: string) => void;

/**
 * The SDK's `hooks` option giving an agent Engram's recall: `query({ prompt, options: { hooks:
 * engramHooks({ engram }) } })`. A hook never throws into the SDK: a failure is one line on
 * `log` and an output that changes nothing.
 */
export function engramHooks(options: EngramHooksOptions): EngramHooks {
  return createEngramHooks(options);
}

/** `engramHooks`, telling `observe` each event's session (for `engramForAgentSdk`). */
export function createEngramHooks(options: EngramHooksOptions, observe?: SessionObserver): EngramHooks {
  const { engram, scope } = options ?? ({} as Partial<EngramHooksOptions>);
  if (!engram) throw new InvalidInputError('engramHooks needs { engram }: the engine from openEngram()');
  if (scope !== undefined && (typeof scope !== 'string' || scope.trim().length === 0)) {
    throw new InvalidInputError(`scope must be a non-empty string such as "project:billing" (got ${JSON.stringify(scope)})`);
  }
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const answer = answerer(engram, { scope, warn: (line) => log(`engram claude-agent-sdk: ${line}`) });
  const queue = new SessionQueue();

  const callback: HookCallback = async (input, _toolUseId, context): Promise<HookJSONOutput> => {
    const name = input?.hook_event_name ?? 'a';
    try {
      if (context?.signal?.aborted) return nothingToAdd();
      const event = eventOfHookInput(input);
      observe?.(event.session_id);
      return await queue.run(event.session_id, () => answer(event));
    } catch (error) {
      log(`engram claude-agent-sdk: ${name} hook failed, the agent goes on without it: ${describe(error)}`);
      return nothingToAdd();
    }
  };
  return Object.fromEntries(ENGRAM_HOOK_EVENTS.map((event) => [event, [{ hooks: [callback] }]]));
}

/** Answers one event, giving a session whose start the SDK did not report its start context with its first prompt. */
function answerer(engram: Engram, options: { scope: string | undefined; warn: (line: string) => void }) {
  // Sessions whose start context was given in this process.
  const started = new Set<string>();
  const handle = (event: ClaudeCodeEvent): Promise<ClaudeCodeHookOutput | null> => handleClaudeCodeEvent(engram, event, options);

  return async (event: ClaudeCodeEvent): Promise<HookJSONOutput> => {
    switch (event.hook_event_name) {
      case 'SessionStart': {
        const output = await handle(event);
        started.add(event.session_id);
        return sdkOutputOf(output);
      }
      case 'UserPromptSubmit': {
        // The SDK does not call SessionStart callbacks (Agent SDK 0.3): the first prompt carries the start.
        const start = started.has(event.session_id) ? null : addedText(await handle(sessionStartOf(event)));
        started.add(event.session_id);
        const recall = addedText(await handle(event));
        const text = [start, recall].filter((part) => part !== null).join('\n\n');
        return text ? contextOutput('UserPromptSubmit', text) : nothingToAdd();
      }
      case 'SessionEnd':
        started.delete(event.session_id);
        return sdkOutputOf(await handle(event));
      default:
        return sdkOutputOf(await handle(event));
    }
  };
}

/** An error as one short line. */
function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, ' ').trim();
}
