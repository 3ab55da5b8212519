/**
 * `write_memory` (seed 003): key-based notes the model keeps across tasks, replaced or
 * appended to. Every successful write adds one line to the daily activity log, in the tool's words.
 */
import { z } from 'zod';

import { InvalidInputError } from '../errors.js';
import { TIERS } from '../model/memory.js';
import { choice, requiredText, summaryOf } from './fields.js';
import { writeKeyedNote } from './keyed-note.js';
import { reservedKeyReason } from './keys.js';
import { TOOL_LIMITS } from './limits.js';
import { defineTool } from './tool.js';

const schema = z.strictObject({
  key: requiredText('key', TOOL_LIMITS.keyChars, 'name the note, e.g. "deploy-steps"').describe(
    'Name of the note, e.g. "deploy-steps" or "alice-preferences". Writing the same key again updates that note.',
  ),
  content: requiredText('content', TOOL_LIMITS.contentChars, 'write what the note should say').describe(
    `What to write (at most ${TOOL_LIMITS.contentChars} characters).`,
  ),
  mode: choice('mode', ['replace', 'append'])
    .default('replace')
    .describe('"replace" (default) overwrites the note; "append" adds the content on a new line at its end.'),
  tier: choice('tier', TIERS)
    .optional()
    .describe('How important the note is to keep: must (must remember), nice (nice to have) or unknown.'),
});

export const writeMemoryTool = defineTool({
  name: 'write_memory',
  description:
    'Save a note to long-term memory under a key, to keep something you learned for later tasks and sessions ' +
    '(facts, decisions, preferences, procedures). mode "replace" overwrites the note with that key; "append" adds to it. ' +
    `For the next session's handoff use write_session_handoff; for the current task's scratch work use scratch_note.`,
  schema,
  async run(args, context) {
    const reserved = reservedKeyReason(args.key);
    if (reserved) throw new InvalidInputError(`key ${args.key} is reserved: ${reserved}`);
    const { memory, previous } = await writeKeyedNote(context, {
      ...args,
      kind: 'note',
      activity: (previous) => ({
        action: 'write_memory',
        summary: `${previous === null ? 'created' : args.mode === 'append' ? 'appended to' : 'replaced'} ${args.key}: ${summaryOf(args.content)}`,
      }),
    });
    return {
      key: args.key,
      id: memory.id,
      mode: args.mode,
      created: previous === null,
      chars: memory.text.length,
      message: `Saved note ${args.key} (${memory.text.length} characters).`,
    };
  },
});
