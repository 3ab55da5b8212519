/**
 * The events `engram hook claude-code` answers, as Claude Code sends them on standard input
 * (hooks reference, code.claude.com/docs/en/hooks: "Common input fields" and each event's
 * "input" section). Validated here, at the edge; unknown fields pass through, since Claude
 * Code adds fields (prompt_id, model, effort, …) between versions.
 */
import { z } from 'zod';

import { InvalidInputError } from '../../index.js';

/** The events this hook handles, in lifecycle order. */
export const CLAUDE_CODE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd'] as const;
export type ClaudeCodeEventName = (typeof CLAUDE_CODE_EVENTS)[number];

/** Fields every event carries. Only `session_id` is needed here; the rest is read when present. */
const common = {
  session_id: z.string().trim().min(1, 'session_id must be a non-empty string'),
  // Some agents that speak this format send null when there is no transcript file.
  transcript_path: z.string().nullish(),
  cwd: z.string().optional(),
  permission_mode: z.string().optional(),
};

const SessionStartSchema = z.looseObject({
  ...common,
  hook_event_name: z.literal('SessionStart'),
  /** "startup" | "resume" | "clear" | "compact"; not enforced, new values appear. */
  source: z.string().optional(),
  model: z.string().optional(),
});

const UserPromptSubmitSchema = z.looseObject({
  ...common,
  hook_event_name: z.literal('UserPromptSubmit'),
  prompt: z.string(),
});

const PostToolUseSchema = z.looseObject({
  ...common,
  hook_event_name: z.literal('PostToolUse'),
  tool_name: z.string().min(1),
  tool_input: z.unknown().optional(),
  tool_response: z.unknown().optional(),
  tool_use_id: z.string().optional(),
});

const StopSchema = z.looseObject({
  ...common,
  hook_event_name: z.literal('Stop'),
  stop_hook_active: z.boolean().optional(),
  /** The final answer of the turn, in recent Claude Code versions; older ones leave it out. */
  last_assistant_message: z.string().nullish(),
});

const SessionEndSchema = z.looseObject({
  ...common,
  hook_event_name: z.literal('SessionEnd'),
  /** "clear" | "resume" | "logout" | "prompt_input_exit" | "bypass_permissions_disabled" | "other" */
  reason: z.string().optional(),
});

const ClaudeCodeEventSchema = z.discriminatedUnion('hook_event_name', [
  SessionStartSchema,
  UserPromptSubmitSchema,
  PostToolUseSchema,
  StopSchema,
  SessionEndSchema,
]);

export type ClaudeCodeEvent = z.infer<typeof ClaudeCodeEventSchema>;
export type SessionStartEvent = z.infer<typeof SessionStartSchema>;
export type UserPromptSubmitEvent = z.infer<typeof UserPromptSubmitSchema>;
export type PostToolUseEvent = z.infer<typeof PostToolUseSchema>;
export type StopEvent = z.infer<typeof StopSchema>;
export type SessionEndEvent = z.infer<typeof SessionEndSchema>;

/**
 * Parses the text Claude Code wrote on standard input into one event.
 * @throws InvalidInputError with a one-line message saying what is wrong: not JSON, not an
 *   object, an event this hook does not handle, or a field of the wrong type.
 */
export function parseClaudeCodeEvent(text: string): ClaudeCodeEvent {
  if (text.trim().length === 0) {
    throw new InvalidInputError('hook claude-code got no input: it reads the hook event JSON Claude Code writes on stdin');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new InvalidInputError(`hook claude-code input is not JSON (${oneLine((cause as Error).message)})`, { cause });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidInputError('hook claude-code input must be a JSON object: the hook event Claude Code sends');
  }
  const name = (value as { hook_event_name?: unknown }).hook_event_name;
  if (typeof name !== 'string' || !(CLAUDE_CODE_EVENTS as readonly string[]).includes(name)) {
    const got =
      typeof name === 'string' ? name : name === undefined ? 'no hook_event_name' : `hook_event_name ${JSON.stringify(name)}`;
    throw new InvalidInputError(`hook claude-code handles ${CLAUDE_CODE_EVENTS.join(', ')}; got ${got}`);
  }
  const result = ClaudeCodeEventSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'the event';
    throw new InvalidInputError(`hook claude-code: ${name} event: ${field}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

/** An error text on one short line: JSON.parse quotes the input, line breaks included. */
function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
