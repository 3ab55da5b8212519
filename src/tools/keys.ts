/**
 * The fixed keys of seed 003's notes. Other parts read them (the session context puts the
 * handoff first and the scratchpad in the working context), so they never change.
 */

/** The one cross-session handoff note (`write_session_handoff`). */
export const SESSION_HANDOFF_KEY = 'session-handoff';

/** The current task's scratchpad (`scratch_note`). */
export const SCRATCHPAD_KEY = 'scratchpad';

/** Why `write_memory` may not write `key`, or null when it may. */
export function reservedKeyReason(key: string): string | null {
  if (key === SESSION_HANDOFF_KEY) return 'use write_session_handoff to write it';
  if (key === SCRATCHPAD_KEY) return 'use scratch_note to write it';
  // Seed 002's working set is synthesised by Engram as `working_set:<scope>`.
  if (key.startsWith('working_set:')) return 'Engram keeps the working set itself: choose another key';
  return null;
}
