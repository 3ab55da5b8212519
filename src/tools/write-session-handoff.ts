/**
 * `write_session_handoff` (seed 003): one continuity note for the next session, under the
 * fixed key `session-handoff`. It always overwrites — one clean note per wrap-up — and the
 * next session's context puts it before everything else.
 */
import { z } from 'zod';

import { requiredText, summaryOf } from './fields.js';
import { writeKeyedNote } from './keyed-note.js';
import { SESSION_HANDOFF_KEY } from './keys.js';
import { TOOL_LIMITS } from './limits.js';
import { defineTool } from './tool.js';

const schema = z.strictObject({
  content: requiredText('content', TOOL_LIMITS.contentChars, 'write what the next session needs to know').describe(
    `The handoff note (at most ${TOOL_LIMITS.contentChars} characters): where things stand, what is unfinished, what to do next.`,
  ),
});

export const writeSessionHandoffTool = defineTool({
  name: 'write_session_handoff',
  description:
    'Write the handoff note for your next session, when wrapping up: where things stand, open threads, next steps. ' +
    'It replaces the previous handoff note (there is only one) and is the first thing the next session reads.',
  schema,
  async run(args, context) {
    const { memory, previous } = await writeKeyedNote(context, {
      key: SESSION_HANDOFF_KEY,
      kind: 'handoff',
      content: args.content,
      mode: 'replace',
      activity: (previous) => ({
        action: 'write_session_handoff',
        summary: `${previous ? 'replaced' : 'created'} the session handoff: ${summaryOf(args.content)}`,
      }),
    });
    return {
      key: SESSION_HANDOFF_KEY,
      id: memory.id,
      replaced: previous !== null,
      message: 'Handoff note saved; the next session will read it first.',
    };
  },
});
