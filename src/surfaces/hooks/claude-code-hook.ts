/**
 * One Claude Code hook call, from the event's text to what it prints, wherever it runs: in the
 * hook's own process (`engram hook claude-code`) or in the resident one, so both answer alike.
 */
import type { Engram } from '../../index.js';
import { parseClaudeCodeEvent } from './claude-code-events.js';
import { type ClaudeCodeHookOptions, handleClaudeCodeEvent } from './claude-code-handlers.js';
import { type ClaudeCodeHookOutput, formatHookOutput } from './claude-code-output.js';

/** Runs `action` with an open engine: the caller's own, or one opened (and closed) for it. */
export type WithEngine = (
  action: (engram: Engram) => Promise<ClaudeCodeHookOutput | null>,
) => Promise<ClaudeCodeHookOutput | null>;

/**
 * The text for stdout for the event in `input` ('' when there is nothing to add). The event is
 * parsed before `withEngine` is called, so a malformed one never opens (or creates) the database.
 * @throws InvalidInputError when `input` is not a hook event
 */
export async function answerClaudeCodeHook(
  input: string,
  withEngine: WithEngine,
  options: ClaudeCodeHookOptions = {},
): Promise<string> {
  const event = parseClaudeCodeEvent(input);
  const output = await withEngine((engram) => handleClaudeCodeEvent(engram, event, options));
  return output ? formatHookOutput(output) : '';
}
