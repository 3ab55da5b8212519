/**
 * What each Claude Code hook event does to an Engram session. Claude Code's `session_id` is the
 * session's id, so every event (a new process each time) resumes the same session from the
 * store. SessionStart gives the session-start context, UserPromptSubmit active recall (seed 000),
 * PostToolUse a tool-only step and on every `every_tool_turns`-th the reflection nudge (seed 001),
 * Stop a step that answered, SessionEnd ends the session (docs/serving.md#hooks-for-coding-agents).
 * Only UserPromptSubmit, and PostToolUse when a nudge is due, embed text.
 */
import type { Engram, Session } from '../../index.js';
import type { ClaudeCodeEvent, PostToolUseEvent, StopEvent, UserPromptSubmitEvent } from './claude-code-events.js';
import { additionalContext, type ClaudeCodeHookOutput } from './claude-code-output.js';
import { clipText, lastAssistantText, messageOfToolUse, readAssistantTail } from './transcript-tail.js';

/** How the hook runs. */
export interface ClaudeCodeHookOptions {
  /** The session's scope. @default the engine's default scope ("global") */
  scope?: string | undefined;
  /** Told about a transcript that exists but cannot be read (the hook still answers). */
  warn?: ((line: string) => void) | undefined;
}

/** Answers one event; null when there is nothing to add to Claude's context. */
export async function handleClaudeCodeEvent(
  engram: Engram,
  event: ClaudeCodeEvent,
  options: ClaudeCodeHookOptions = {},
): Promise<ClaudeCodeHookOutput | null> {
  const session = engram.session({ id: event.session_id, scope: options.scope });
  switch (event.hook_event_name) {
    case 'SessionStart':
      return startSession(session);
    case 'UserPromptSubmit':
      return recallForPrompt(session, event);
    case 'PostToolUse':
      return countToolStep(session, event, options.warn);
    case 'Stop':
      return closeTurn(session, event, options.warn);
    case 'SessionEnd':
      await session.end();
      return null;
  }
}

async function startSession(session: Session): Promise<ClaudeCodeHookOutput | null> {
  const { text } = await session.start();
  return text.trim().length > 0 ? additionalContext('SessionStart', text) : null;
}

async function recallForPrompt(session: Session, event: UserPromptSubmitEvent): Promise<ClaudeCodeHookOutput | null> {
  // An empty prompt has nothing to recall for (and is not a user message to count).
  if (event.prompt.trim().length === 0) return null;
  const { message } = await session.beforeTurn(event.prompt);
  return message ? additionalContext('UserPromptSubmit', message.content) : null;
}

/**
 * PostToolUse fires once per tool call, but a model step may call several tools at once. When
 * the transcript shows the step, only its first call counts, and the step's own text joins
 * intrusive recall's query window; when it does not, every call counts as a step.
 */
async function countToolStep(
  session: Session,
  event: PostToolUseEvent,
  warn: ClaudeCodeHookOptions['warn'],
): Promise<ClaudeCodeHookOutput | null> {
  const step =
    event.transcript_path && event.tool_use_id
      ? messageOfToolUse(await readAssistantTail(event.transcript_path, { warn }), event.tool_use_id)
      : null;
  if (step && step.toolUseIds[0] !== event.tool_use_id) return null;
  const { nudge } = await session.afterStep({
    assistantText: step && step.text.length > 0 ? clipText(step.text) : null,
    toolCalls: [{ name: event.tool_name, input: event.tool_input }],
  });
  return nudge ? additionalContext('PostToolUse', nudge.content) : null;
}

/** The turn's answer: a step without tool calls, whose text joins the query window. */
async function closeTurn(session: Session, event: StopEvent, warn: ClaudeCodeHookOptions['warn']): Promise<null> {
  const text = event.last_assistant_message?.trim()
    ? clipText(event.last_assistant_message.trim())
    : event.transcript_path
      ? lastAssistantText(await readAssistantTail(event.transcript_path, { warn }))
      : null;
  await session.afterStep({ assistantText: text, toolCalls: [] });
  return null;
}
