/**
 * The working set (seed 002's backbone lane): standing context synthesised deterministically
 * from what is stored — hard rules and pinned memories, durable constraints and preferences,
 * recent durable decisions, and the current goal — injected first as one pinned slot so these
 * memories need not re-win the hot lane every turn.
 */
import type { Memory } from '../model/memory.js';
import { WORKING_SET_ROLES, type WorkingSet, type WorkingSetItem, type WorkingSetRole } from '../model/working-set.js';

/** Kinds the working set reads besides pinned memories and hard rules. */
export const WORKING_SET_KINDS = ['constraint', 'preference', 'decision', 'goal'] as const;

/** At most this many hard rules and pinned memories (a safety cap, not a quota). */
export const MAX_PINNED_ITEMS = 20;
/** Items of each durable role at most, newest first. */
export const MAX_PER_ROLE: Readonly<Record<(typeof WORKING_SET_KINDS)[number], number>> = {
  constraint: 5,
  preference: 5,
  decision: 3,
  goal: 1,
};
/** A decision counts as recent for this long. */
const RECENT_DECISION_DAYS = 30;
const DAY_MS = 86_400_000;

export interface WorkingSetSources {
  scope: string;
  /** Live pinned and hard-rule memories. */
  pinned: readonly Memory[];
  /** Live memories of the working-set kinds, any order. */
  durable: readonly Memory[];
  now: Date;
}

/** The working set for `scope`, or null when nothing qualifies. Same inputs, same output. */
export function synthesizeWorkingSet({ scope, pinned, durable, now }: WorkingSetSources): WorkingSet | null {
  const items: WorkingSetItem[] = [];
  const taken = new Set<string>();
  const add = (memory: Memory, role: WorkingSetRole) => {
    if (taken.has(memory.id)) return;
    taken.add(memory.id);
    items.push({ memory, role });
  };
  for (const memory of [...pinned].sort(oldestFirst).slice(0, MAX_PINNED_ITEMS)) {
    add(memory, memory.hardRule ? 'rule' : 'pinned');
  }
  const newest = [...durable].sort(oldestFirst).reverse();
  const pick = (role: keyof typeof MAX_PER_ROLE, accept: (memory: Memory) => boolean) => {
    for (const memory of newest.filter((m) => m.kind === role && !taken.has(m.id) && accept(m)).slice(0, MAX_PER_ROLE[role])) {
      add(memory, role);
    }
  };
  // Durable means must_remember: nice and unknown ones compete in the hot lane.
  pick('constraint', (m) => m.tier === 'must');
  pick('preference', (m) => m.tier === 'must');
  pick('decision', (m) => m.tier === 'must' && now.getTime() - Date.parse(m.occurredAt) <= RECENT_DECISION_DAYS * DAY_MS);
  pick('goal', () => true);
  if (items.length === 0) return null;
  items.sort((a, b) => WORKING_SET_ROLES.indexOf(a.role) - WORKING_SET_ROLES.indexOf(b.role));
  return { scope, items };
}

function oldestFirst(a: Memory, b: Memory): number {
  return a.occurredAt.localeCompare(b.occurredAt) || a.id.localeCompare(b.id);
}
