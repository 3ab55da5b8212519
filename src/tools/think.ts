/**
 * `think` (seed 000): the model reasons out loud into memory. A thought is stored with the
 * session's id as kind `thought`: the agent sees it in later turns of the session and may
 * recall it in later sessions; it is never part of a reply to the user.
 */
import { z } from 'zod';

import { requiredText, summaryOf } from './fields.js';
import { TOOL_LIMITS } from './limits.js';
import { defineTool } from './tool.js';

const schema = z.strictObject({
  thought: requiredText('thought', TOOL_LIMITS.thoughtChars, 'write the reasoning to keep').describe(
    `Your reasoning, plan or self-correction (at most ${TOOL_LIMITS.thoughtChars} characters).`,
  ),
});

export const thinkTool = defineTool({
  name: 'think',
  description:
    'Think out loud: record reasoning, a plan or a self-correction for multi-step work. The thought is kept for the rest ' +
    'of this session (and can be recalled later) but is never shown to the user. Use it before complex answers.',
  schema,
  async run(args, context) {
    const memory = await context.engram.remember(
      {
        text: args.thought,
        kind: 'thought',
        scope: context.scope,
        sessionId: context.sessionId,
        source: context.source,
      },
      { activity: { action: 'think', summary: `thought: ${summaryOf(args.thought)}` } },
    );
    return { id: memory.id, message: 'Thought recorded.' };
  },
});
