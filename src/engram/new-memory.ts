/**
 * Builds complete Memory records from validated input: fills defaults, stamps times and ids.
 */
import { DEFAULT_TRUST, type Memory } from '../model/memory.js';
import type { ParsedMemoryInput, ParsedMemoryPatch } from '../model/memory-input.js';

/** Defaults a caller did not give. */
export interface MemoryDefaults {
  tenant: string;
  /** @default "global" */
  scope: string;
}

/** A new memory from `input`, created at `now` with `id`. */
export function newMemory(input: ParsedMemoryInput, id: string, now: Date, defaults: MemoryDefaults): Memory {
  const at = now.toISOString();
  const source = input.source ?? 'user';
  return {
    id,
    tenant: input.tenant ?? defaults.tenant,
    scope: input.scope ?? defaults.scope,
    kind: input.kind ?? 'note',
    tier: input.tier ?? 'unknown',
    pinned: input.pinned ?? false,
    hardRule: input.hardRule ?? false,
    text: input.text,
    abstract: input.abstract ?? null,
    context: input.context ?? null,
    key: input.key ?? null,
    sessionId: input.sessionId ?? null,
    source,
    trust: input.trust ?? DEFAULT_TRUST[source],
    data: input.data ?? null,
    tags: input.tags ?? [],
    occurredAt: input.occurredAt ?? at,
    createdAt: at,
    updatedAt: at,
    supersededBy: null,
    archivedAt: null,
    lastRetrievedAt: null,
    retrievalCount: 0,
  };
}

/** What a new version takes from the memory it replaces when it does not say otherwise. */
const CARRIED = ['kind', 'tier', 'tags', 'pinned', 'hardRule'] as const;

/**
 * `input` as a new version of `previous`: kind, tier, tags, pinned and hard rule — and, when it
 * names `previous` in `supersedes`, its scope and key — come from `previous` unless `input` sets
 * them, so a fact that changes keeps the importance and the place it had. With no `previous`,
 * `input` itself.
 */
export function carryForward(input: ParsedMemoryInput, previous: Memory | null, via: 'supersedes' | 'key'): ParsedMemoryInput {
  if (previous === null) return input;
  const fields = via === 'supersedes' ? ([...CARRIED, 'scope', 'key'] as const) : CARRIED;
  const carried: Record<string, unknown> = { ...input };
  for (const field of fields) if (carried[field] === undefined) carried[field] = previous[field];
  return carried as ParsedMemoryInput;
}

/** `memory` with `patch` applied and `updatedAt` moved to `now`. */
export function patchMemory(memory: Memory, patch: ParsedMemoryPatch, now: Date): Memory {
  const next: Memory = { ...memory, updatedAt: now.toISOString() };
  for (const [field, value] of Object.entries(patch)) {
    if (value !== undefined) (next as unknown as Record<string, unknown>)[field] = value;
  }
  return next;
}

/**
 * Within one batch, a later memory with the same tenant, scope and key replaces an earlier one:
 * the earlier one is stored already superseded, as if the two had been added one by one.
 */
export function supersedeRepeatedKeys(memories: Memory[], now: Date): void {
  const latest = new Map<string, number>();
  memories.forEach((memory, index) => {
    if (memory.key === null) return;
    const slot = JSON.stringify([memory.tenant, memory.scope, memory.key]);
    const earlier = latest.get(slot);
    if (earlier !== undefined) {
      memories[earlier] = { ...(memories[earlier] as Memory), supersededBy: memory.id, updatedAt: now.toISOString() };
    }
    latest.set(slot, index);
  });
}
