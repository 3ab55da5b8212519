/**
 * Reading the backbone lane from the store: the working set synthesised from pinned memories,
 * hard rules and durable kinds (seed 002) — or, without a working set, the hard rules and
 * pinned memories that must still be injected every turn.
 */
import type { Memory } from '../model/memory.js';
import type { WorkingSet } from '../model/working-set.js';
import type { Store } from '../store/store.js';
import { MAX_PER_ROLE, MAX_PINNED_ITEMS, synthesizeWorkingSet, WORKING_SET_KINDS } from './working-set.js';

export interface BackboneRequest {
  tenant: string;
  /** Most specific first; the first one names the working set. */
  scopes: readonly string[];
  now: Date;
  workingSet: boolean;
  pinHardRules: boolean;
}

export interface Backbone {
  workingSet: WorkingSet | null;
  /** Hard rules and pinned memories for the pinned lane (only without a working set). */
  pinned: Memory[];
}

export async function loadBackbone(store: Store, request: BackboneRequest): Promise<Backbone> {
  const { tenant, scopes } = request;
  if (!request.workingSet && !request.pinHardRules) return { workingSet: null, pinned: [] };
  const pinned = await store.listMemories(
    { tenant, scopes, pinnedOrHardRule: true, excludeKinds: ['working_set'] },
    { limit: MAX_PINNED_ITEMS, order: 'oldest' },
  );
  if (!request.workingSet) return { workingSet: null, pinned };
  // One query per kind, newest first: each walks its kind's index and stops early.
  const durable = (
    await Promise.all(
      WORKING_SET_KINDS.map((kind) =>
        store.listMemories(
          { tenant, scopes, kinds: [kind], tiers: kind === 'goal' ? undefined : ['must'] },
          { limit: MAX_PER_ROLE[kind], order: 'newest' },
        ),
      ),
    )
  ).flat();
  const scope = scopes[0] ?? 'global';
  return { workingSet: synthesizeWorkingSet({ scope, pinned, durable, now: request.now }), pinned: [] };
}
