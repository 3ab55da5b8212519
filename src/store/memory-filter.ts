/**
 * Which memories an operation may see: the one filter shared by listing, counting, iterating
 * and both searches, so every part of a Store draws the same line around a tenant's memories.
 */
import type { Kind, Tier } from '../model/memory.js';

/** Which memories an operation may see. `tenant` is always required: it is the isolation boundary. */
export interface MemoryFilter {
  tenant: string;
  /** Only these scopes (any of them). */
  scopes?: readonly string[] | undefined;
  /** Only memories that occurred at or after this ISO time. */
  occurredAfter?: string | undefined;
  /** Only memories that occurred before this ISO time. */
  occurredBefore?: string | undefined;
  kinds?: readonly Kind[] | undefined;
  tiers?: readonly Tier[] | undefined;
  sessionId?: string | undefined;
  /** Only pinned or hard-rule memories. */
  pinnedOrHardRule?: boolean | undefined;
  /** Only pinned memories. */
  onlyPinned?: boolean | undefined;
  /** Only hard-rule memories. */
  onlyHardRule?: boolean | undefined;
  /** Leave out these kinds. */
  excludeKinds?: readonly Kind[] | undefined;
  /** Include memories archived by `forget`. @default false */
  includeArchived?: boolean | undefined;
  /** Include memories replaced by newer ones. @default false */
  includeSuperseded?: boolean | undefined;
  /** Only memories archived by `forget` (whatever `includeArchived` says). */
  onlyArchived?: boolean | undefined;
  /** Only memories replaced by newer ones (whatever `includeSuperseded` says). */
  onlySuperseded?: boolean | undefined;
}
