/**
 * The notes an agent keeps for itself, each read with the engine's list (as `GET
 * /v1/memories?kind=…`): the working set of each scope with the memories it carries, the
 * handoff note and the scratchpad of each scope, and the daily activity log.
 */
import type { ActivityEntry } from '../../../entries/model.js';
import type { Engram, Memory } from '../../../index.js';

/** Working sets, notes and earlier versions shown at most. */
const MAX_NOTES = 100;
/** Items of one working set resolved at most. */
const MAX_ITEMS = 60;
/** Activity lines shown at most. */
export const MAX_ACTIVITY = 500;

/** One scope's working set and the memories it carries, in its order. */
export interface WorkingSetView {
  memory: Memory;
  items: Memory[];
}

/** Every scope's working set with the memories it carries. */
export async function loadWorkingSets(engram: Engram): Promise<WorkingSetView[]> {
  const sets = await engram.list({ kinds: ['working_set'], limit: MAX_NOTES });
  return Promise.all(
    sets.map(async (memory) => {
      const ids = Array.isArray(memory.data?.itemIds) ? (memory.data.itemIds as unknown[]).filter(isString) : [];
      const items = await Promise.all(ids.slice(0, MAX_ITEMS).map((id) => engram.get(id)));
      return { memory, items: items.filter((item): item is Memory => item !== null) };
    }),
  );
}

/** The handoff and scratchpad page. */
export interface NotesView {
  handoffs: Memory[];
  scratchpads: Memory[];
  /** Handoff notes replaced by newer ones, newest first. */
  earlierHandoffs: Memory[];
}

/** The live handoff notes and scratchpads, and the handoffs they replaced. */
export async function loadNotes(engram: Engram): Promise<NotesView> {
  const [handoffs, scratchpads, everyHandoff] = await Promise.all([
    engram.list({ kinds: ['handoff'], limit: MAX_NOTES }),
    engram.list({ kinds: ['scratchpad'], limit: MAX_NOTES }),
    engram.list({ kinds: ['handoff'], limit: MAX_NOTES, all: true }),
  ]);
  return { handoffs, scratchpads, earlierHandoffs: everyHandoff.filter((memory) => memory.supersededBy !== null) };
}

/** The activity log of one UTC day, or the latest lines; newest first. */
export async function loadActivity(engram: Engram, day: string | undefined): Promise<ActivityEntry[]> {
  return (await engram.activity({ day, limit: MAX_ACTIVITY })).reverse();
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}
