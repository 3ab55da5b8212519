/**
 * What `engram hook claude-code` prints: Claude Code's hook output JSON (hooks reference,
 * "JSON output"). Context goes in `hookSpecificOutput.additionalContext`, which SessionStart,
 * UserPromptSubmit and PostToolUse accept (PostToolUse adds it alongside the tool result).
 * With nothing to add the hook prints nothing and exits 0, which lets the action proceed.
 */
import type { ClaudeCodeEventName } from './claude-code-events.js';

/** The events whose output may carry `additionalContext`. */
export type ContextEventName = Extract<ClaudeCodeEventName, 'SessionStart' | 'UserPromptSubmit' | 'PostToolUse'>;

/** The hook output object, as Claude Code reads it from stdout on exit 0. */
export interface ClaudeCodeHookOutput {
  hookSpecificOutput: {
    hookEventName: ContextEventName;
    additionalContext: string;
  };
}

/** Output that adds `text` to Claude's context for this event. */
export function additionalContext(hookEventName: ContextEventName, text: string): ClaudeCodeHookOutput {
  return { hookSpecificOutput: { hookEventName, additionalContext: text } };
}

/** The exact text for stdout: one JSON object and a newline ("stdout must contain only the JSON object"). */
export function formatHookOutput(output: ClaudeCodeHookOutput): string {
  return `${JSON.stringify(output)}\n`;
}
