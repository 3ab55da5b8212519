/**
 * What Engram's hook callbacks return to the Agent SDK: its `SyncHookJSONOutput`, context in
 * `hookSpecificOutput.additionalContext` (which SessionStart, UserPromptSubmit and PostToolUse
 * accept), or `{}` — "go on as if no hook ran" — when there is nothing to add.
 */
import type { SyncHookJSONOutput } from '@anthropic-ai/claude-agent-sdk';

import type { ClaudeCodeHookOutput, ContextEventName } from '../hooks/claude-code-output.js';

/** Output that changes nothing (a new object each time: it is the SDK's to keep). */
export function nothingToAdd(): SyncHookJSONOutput {
  return {};
}

/** The SDK's output adding `text` to the model's context for the event `name`. */
export function contextOutput(name: ContextEventName, text: string): SyncHookJSONOutput {
  // One branch per event: the SDK's output type is a union discriminated by hookEventName.
  switch (name) {
    case 'SessionStart':
      return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: text } };
    case 'UserPromptSubmit':
      return { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: text } };
    case 'PostToolUse':
      return { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: text } };
  }
}

/** The command hook's answer as the SDK's output. */
export function sdkOutputOf(output: ClaudeCodeHookOutput | null): SyncHookJSONOutput {
  return output
    ? contextOutput(output.hookSpecificOutput.hookEventName, output.hookSpecificOutput.additionalContext)
    : nothingToAdd();
}

/** The text `output` adds, or null. */
export function addedText(output: ClaudeCodeHookOutput | null): string | null {
  const text = output?.hookSpecificOutput.additionalContext;
  return text && text.trim().length > 0 ? text : null;
}
