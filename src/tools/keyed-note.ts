/**
 * Writing a keyed note by replacing or appending — what `write_memory` and `scratch_note`
 * share. A replaced note is kept and marked superseded by the engine, so history survives.
 */
import { InvalidInputError } from '../errors.js';
import type { Kind, Memory, Tier } from '../model/memory.js';
import type { ActivityLabel } from '../model/session.js';
import { TOOL_LIMITS } from './limits.js';
import type { ToolContext } from './tool.js';

/** How new content meets the old. */
export type WriteMode = 'replace' | 'append';

/** One write to a keyed note. */
export interface KeyedWrite {
  key: string;
  /** Kind of a new note; an existing note keeps its own. */
  kind: Kind;
  content: string;
  mode: WriteMode;
  /** @default the existing note's tier, or "unknown" */
  tier?: Tier | undefined;
  /** The activity-log line of the write, given the note as it was (null when new). */
  activity: (previous: Memory | null) => ActivityLabel;
}

/** Writes the note and returns it with the text it had before (null when it is new). */
export async function writeKeyedNote(
  context: ToolContext,
  write: KeyedWrite,
): Promise<{ memory: Memory; previous: Memory | null }> {
  const previous = await context.engram.getByKey(write.key, context.scope);
  const text = write.mode === 'append' && previous ? `${previous.text}\n${write.content}` : write.content;
  if (text.length > TOOL_LIMITS.noteChars) {
    throw new InvalidInputError(
      `the note ${write.key} would be ${text.length} characters after appending, over the cap of ${TOOL_LIMITS.noteChars}: ` +
        'replace it with a shorter summary instead',
    );
  }
  const memory = await context.engram.remember(
    {
      text,
      kind: previous?.kind ?? write.kind,
      key: write.key,
      scope: context.scope,
      sessionId: context.sessionId,
      source: context.source,
      // The same note, rewritten: what the caller set about it stays.
      tier: write.tier ?? previous?.tier,
      pinned: previous?.pinned,
      hardRule: previous?.hardRule,
      tags: previous?.tags,
    },
    { activity: write.activity(previous) },
  );
  return { memory, previous };
}
