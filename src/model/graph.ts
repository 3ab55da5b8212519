/**
 * The knowledge graph's records: entities (people, places, organisations, things, dates), the
 * relations between them and the mentions that tie memories to entities. Plain data shared by
 * every layer, plus the one rule every backend and caller must agree on: how a name is matched.
 */

/**
 * Entity types extraction produces. A caller may give any other string (the MCP memory server's
 * `entityType` is free text); these are the ones Engram itself understands.
 */
export const ENTITY_TYPES = ['person', 'place', 'organization', 'thing', 'date'] as const;
export type KnownEntityType = (typeof ENTITY_TYPES)[number];
/** A known type or any caller-given string. */
export type EntityType = KnownEntityType | (string & {});

/**
 * Who made an entity: `extracted` by Engram from a memory's text, or `user`, made on purpose
 * (the graph tools, `engram graph add`, the library). Engram removes an extracted entity once
 * nothing holds it (no memory names it, it has no observation and no live relation); a user's
 * entity stays until deleted. Creating an extracted entity by name, or adding an observation
 * to it, makes it the user's.
 */
export type EntityOrigin = 'extracted' | 'user';

/** Something memories talk about. Its name is its identity within a tenant (matched case-insensitively). */
export interface Entity {
  /** Hard isolation boundary: an entity of another tenant with the same name is another entity. */
  tenant: string;
  id: string;
  /** The spelling first given; lookups ignore case (see `entityKey`). */
  name: string;
  type: EntityType;
  /** Other names it goes by ("Bob" for "Robert Smith"); lookups match them too. */
  aliases: string[];
  /** Free-text facts about the entity, in the order they were added, without duplicates. */
  observations: string[];
  /** Who made it, which decides whether Engram removes it once nothing holds it. */
  origin: EntityOrigin;
  createdAt: string;
  updatedAt: string;
}

/**
 * A directed, typed link between two entities ("Alice works_at Acme"). A superseded fact ends
 * its relation (`invalidatedAt`) instead of erasing it, so the graph keeps its history.
 */
export interface Relation {
  tenant: string;
  id: string;
  /** The subject entity's id. */
  from: string;
  /** The object entity's id. */
  to: string;
  /** e.g. `works_at`, `lives_in`, `knows`; matched exactly. */
  type: string;
  /** The memory the relation was extracted from; null when a caller stated it directly or that memory was purged. */
  memoryId: string | null;
  /** When the fact started to hold, if known. */
  validFrom: string | null;
  /** When the fact stopped holding (its memory was superseded, or a caller ended it); null while it holds. */
  invalidatedAt: string | null;
  createdAt: string;
}

/**
 * How a memory names an entity, strongest first: `speaker` (the entity said the memory, e.g.
 * the speaker of a conversation turn), `subject` (the memory is about it, e.g. a relation's
 * end), `mention` (it is merely named). A memory names an entity at most once, with its strongest role.
 */
export const MENTION_ROLES = ['speaker', 'subject', 'mention'] as const;
export type MentionRole = (typeof MENTION_ROLES)[number];

/** A memory naming an entity. */
export interface Mention {
  tenant: string;
  memoryId: string;
  entityId: string;
  role: MentionRole;
}

/**
 * The key a name is matched by: Unicode-normalised (NFKC), lower-cased, trimmed, inner
 * whitespace collapsed. "  ALICE  Smith" and "alice smith" are the same entity.
 */
export function entityKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().trim().replace(/\s+/g, ' ');
}
