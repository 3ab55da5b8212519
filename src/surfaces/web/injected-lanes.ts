/**
 * A recall's injections told apart: memories recalled for a turn's query (the hot lane), and
 * memories pinned whatever the query (carried by the working set, or hard rules and pinned
 * memories when there is none). The session pages count them in two columns, with these titles.
 */
import type { Receipt } from '../../index.js';

/** The tooltip of the Recalled columns. */
export const RECALLED_TITLE = 'Memories recalled for this turn’s query (the hot lane)';
/** The tooltip of the Pinned columns. */
export const PINNED_TITLE =
  'Memories carried by the working set (or hard rules and pinned memories when there is none): injected every turn, whatever the query';

/** A decision's injections: recalled for its query, and pinned whatever the query. */
export function injectedByLane(receipt: Receipt): { recalled: number; pinned: number } {
  const recalled = receipt.chosen.filter((entry) => entry.lane === 'hot').length;
  return { recalled, pinned: receipt.chosen.length - recalled };
}
