/**
 * The documented caps on what a model may hand the memory tools. A call past a cap is refused
 * with a message saying so, and nothing is written: a runaway model cannot flood the store,
 * and every note stays small enough to put back into a context window.
 */
import { MAX_TEXT_CHARS } from '../model/memory-input.js';

/** Caps, in characters unless named otherwise. */
export const TOOL_LIMITS = {
  /** `search_memory` query. */
  queryChars: 1_000,
  /** `search_memory` results at most (a larger `limit` is clamped to this). */
  searchResults: 50,
  /** Characters of each memory's text returned by `search_memory`; longer text ends with "…". */
  resultTextChars: 2_000,
  /** A `write_memory` key. */
  keyChars: 200,
  /** The content of one `write_memory`, `write_session_handoff` or `scratch_note` call. */
  contentChars: 20_000,
  /** A note or scratchpad after appending: the engine's own cap on a memory's text. */
  noteChars: MAX_TEXT_CHARS,
  /** One `think` thought. */
  thoughtChars: 10_000,
  /** A solution's goal (`store_solution`, `recall_solution`). */
  goalChars: 1_000,
  /** A solution's approach. */
  approachChars: 10_000,
  /** A solution's outcome. */
  outcomeChars: 2_000,
  /** Solutions returned by `recall_solution` at most. */
  recalledSolutions: 10,
} as const;
