/**
 * `scratch_note` (seed 003): the current task's scratchpad, under the fixed key `scratchpad`.
 * `clear` archives the note (kept in the database, hidden from search and context), so a
 * cleared scratchpad reads as empty: `getByKey('scratchpad')` returns null, and context
 * assembly has nothing to show. Memories need non-empty text, so "empty" is "no live note".
 */
import { z } from 'zod';

import { choice, summaryOf } from './fields.js';
import { writeKeyedNote } from './keyed-note.js';
import { SCRATCHPAD_KEY } from './keys.js';
import { TOOL_LIMITS } from './limits.js';
import { defineTool } from './tool.js';

const MODES = ['replace', 'append', 'clear', 'read'] as const;

const schema = z
  .strictObject({
    mode: choice('mode', MODES).describe(
      '"replace" sets the scratchpad to content, "append" adds content on a new line, "clear" empties it, "read" returns it.',
    ),
    content: z
      .string({ error: 'content must be a string' })
      .max(TOOL_LIMITS.contentChars, `content is longer than ${TOOL_LIMITS.contentChars} characters: shorten it`)
      .optional()
      .describe(
        `Text to write (at most ${TOOL_LIMITS.contentChars} characters); required for replace and append, not used otherwise.`,
      ),
  })
  .superRefine((args, ctx) => {
    const writes = args.mode === 'replace' || args.mode === 'append';
    if (writes && (args.content === undefined || args.content.trim() === '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['content'],
        message: `content is required with mode ${args.mode}: give the text to write`,
      });
    }
    if (!writes && args.content !== undefined) {
      const hint = args.mode === 'clear' ? 'use mode replace to set new text' : 'leave it out';
      ctx.addIssue({ code: 'custom', path: ['content'], message: `content is not used with mode ${args.mode}: ${hint}` });
    }
  });

/** What `scratch_note` returns. */
export interface ScratchNoteResult {
  mode: (typeof MODES)[number];
  /** The scratchpad after the call; empty when cleared or never written. */
  text: string;
  /** The scratchpad memory's id, null when it is empty. */
  id: string | null;
  message: string;
}

export const scratchNoteTool = defineTool({
  name: 'scratch_note',
  description:
    'Your scratchpad for the current task: plans, intermediate results, what is left to do. It stays in your working context ' +
    'until cleared. mode "replace" or "append" writes, "read" shows it, "clear" empties it — clear it when the task is done.',
  schema,
  async run(args, context): Promise<ScratchNoteResult> {
    const current = await context.engram.getByKey(SCRATCHPAD_KEY, context.scope);
    if (args.mode === 'read') {
      return {
        mode: 'read',
        text: current?.text ?? '',
        id: current?.id ?? null,
        message: current ? 'Scratchpad read.' : 'The scratchpad is empty.',
      };
    }
    if (args.mode === 'clear') {
      if (current) {
        await context.engram.forget(current.id, { activity: { action: 'scratch_note', summary: 'cleared the scratchpad' } });
      }
      return {
        mode: 'clear',
        text: '',
        id: null,
        message: current ? 'Scratchpad cleared.' : 'The scratchpad was already empty.',
      };
    }
    const content = (args.content as string).trim();
    const { memory } = await writeKeyedNote(context, {
      key: SCRATCHPAD_KEY,
      kind: 'scratchpad',
      content,
      mode: args.mode,
      activity: (previous) => ({
        action: 'scratch_note',
        summary: `${previous === null ? 'wrote' : args.mode === 'append' ? 'appended to' : 'replaced'} the scratchpad: ${summaryOf(content)}`,
      }),
    });
    return {
      mode: args.mode,
      text: memory.text,
      id: memory.id,
      message: `Scratchpad ${args.mode === 'append' ? 'appended to' : 'replaced'} (${memory.text.length} characters): ${summaryOf(content, 40)}`,
    };
  },
});
