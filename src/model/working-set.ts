/**
 * The working set's shape (seed 002's backbone lane): which memories it carries and why. Plain
 * data; activation synthesises it, context formats it.
 */
import type { Memory } from './memory.js';

/** Why a memory is in the working set, in the order the sections appear. */
export const WORKING_SET_ROLES = ['rule', 'pinned', 'constraint', 'preference', 'decision', 'goal'] as const;
export type WorkingSetRole = (typeof WORKING_SET_ROLES)[number];

export interface WorkingSetItem {
  memory: Memory;
  role: WorkingSetRole;
}

export interface WorkingSet {
  scope: string;
  /** In section order: rules, pinned, constraints, preferences, decisions, the goal. */
  items: WorkingSetItem[];
}

/** The working set as stored (`working_set:<scope>`): its scope, its formatted text and the ids of the memories it carries. */
export interface StoredWorkingSet {
  scope: string;
  text: string;
  itemIds: readonly string[];
}
