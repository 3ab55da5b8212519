/**
 * The Agent SDK's hook inputs as the events of Engram's Claude Code hook. The SDK runs Claude
 * Code, which sends its callbacks the same JSON its command hooks read on standard input, so one
 * parser checks both; the input is checked here, at the edge, as the command hook checks it.
 */
import type { HookInput } from '@anthropic-ai/claude-agent-sdk';

import { InvalidInputError } from '../../index.js';
import { type ClaudeCodeEvent, parseClaudeCodeEvent, type SessionStartEvent } from '../hooks/claude-code-events.js';

/**
 * The event in `input`.
 * @throws InvalidInputError when `input` is not one of the events Engram answers, or a field
 *   has the wrong type
 */
export function eventOfHookInput(input: HookInput): ClaudeCodeEvent {
  // The tool's output is never read (the step's text comes from the transcript), and may be large.
  const { tool_response: _unread, ...rest } = input as HookInput & { tool_response?: unknown };
  try {
    return parseClaudeCodeEvent(JSON.stringify(rest));
  } catch (error) {
    // The parser speaks of the command hook's stdin; here the input is the SDK's.
    if (!(error instanceof InvalidInputError)) throw error;
    throw new InvalidInputError(`the SDK's input: ${error.message.replace(/^hook claude-code:? /, '')}`, { cause: error });
  }
}

/** A SessionStart for the session `event` belongs to, for a session whose start the SDK did not report. */
export function sessionStartOf(event: ClaudeCodeEvent): SessionStartEvent {
  return {
    session_id: event.session_id,
    transcript_path: event.transcript_path,
    cwd: event.cwd,
    hook_event_name: 'SessionStart',
    source: 'startup',
  };
}
