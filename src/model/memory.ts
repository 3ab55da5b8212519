/**
 * The memory record: plain data shared by every layer. No behaviour lives here beyond the
 * lists of allowed values, so that any layer can import it without pulling in others.
 */

/** What a memory is about. Seed 000 adds `thought`, seed 003 `handoff` / `scratchpad`, seed 004 `solution`. */
export const KINDS = [
  'fact',
  'preference',
  'decision',
  'constraint',
  'goal',
  'note',
  'thought',
  'solution',
  'handoff',
  'scratchpad',
  'episode',
  'summary',
  'working_set',
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * Retention priority (seed 002): `must` = must_remember, `nice` = nice_to_have.
 * It says what to keep; it is only a prior when deciding what to inject.
 */
/** The scope a memory gets when none is named. */
export const DEFAULT_SCOPE = 'global';

export const TIERS = ['must', 'nice', 'unknown'] as const;
export type Tier = (typeof TIERS)[number];

/** Who wrote the memory; feeds `trust` and the provenance shown next to recalled memories. */
export const SOURCES = ['user', 'agent', 'tool', 'import', 'system'] as const;
export type Source = (typeof SOURCES)[number];

/** A stored memory. Timestamps are ISO-8601 strings in UTC so the record is plain JSON. */
export interface Memory {
  id: string;
  /** Hard isolation boundary: nothing crosses tenants. */
  tenant: string;
  /** Visibility scope such as `user:alice`, `project:x` or `session:abc`. */
  scope: string;
  kind: Kind;
  tier: Tier;
  /** Always injected by the working set (seed 002's always-pin). */
  pinned: boolean;
  /** A hard constraint: exempt from repeat suppression (seed 002). */
  hardRule: boolean;
  text: string;
  /** One sentence, used by intrusive recall (seed 001); null until written. */
  abstract: string | null;
  /**
   * Text that situates the memory without being part of it — for a conversation turn, the turn
   * before it. Indexed with the memory for search (words and meaning), never shown as the memory.
   */
  context: string | null;
  /** Name of a keyed note; at most one live memory per tenant, scope and key. */
  key: string | null;
  sessionId: string | null;
  source: Source;
  /** How far the content can be trusted, in [0, 1]. */
  trust: number;
  /** Kind-specific fields, e.g. a solution's goal, approach, outcome and confidence. */
  data: Record<string, unknown> | null;
  tags: string[];
  /** When the remembered thing happened (defaults to creation time). */
  occurredAt: string;
  createdAt: string;
  updatedAt: string;
  /** Set when a newer memory replaces this one; superseded memories are kept, not deleted. */
  supersededBy: string | null;
  /** Set by `forget`; archived memories are hidden from search and lists. */
  archivedAt: string | null;
  lastRetrievedAt: string | null;
  retrievalCount: number;
}

/** Default trust per source: what the user said outranks what a tool returned. */
export const DEFAULT_TRUST: Record<Source, number> = {
  user: 1,
  system: 1,
  agent: 0.8,
  import: 0.8,
  tool: 0.6,
};
