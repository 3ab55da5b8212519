/**
 * Converting between the graph records and their rows, alike in SQLite and PostgreSQL: aliases
 * and observations as JSON text, timestamps as epoch milliseconds, entity and memory links as
 * rowids (read back as ids through joins), and the lower-cased search text an entity is
 * searched by.
 */
import {
  type Entity,
  entityKey,
  type EntityOrigin,
  type Mention,
  MENTION_ROLES,
  type MentionRole,
  type Relation,
} from '../../model/graph.js';
import type { EntityInput } from '../graph-store.js';

/** An `entities` row as either driver returns it. */
export interface EntityRow {
  rowid: number;
  tenant: string;
  id: string;
  name: string;
  name_key: string;
  type: string;
  aliases: string;
  observations: string;
  search_text: string;
  origin: EntityOrigin;
  created_at: number;
  updated_at: number;
}

/** A relation row joined with its entities' and memory's ids (see `RELATION_SELECT`). */
export interface RelationRow {
  rowid: number;
  tenant: string;
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  memory_id: string | null;
  valid_from: number | null;
  invalidated_at: number | null;
  created_at: number;
}

/** Relations with their ends and source as ids; add WHERE / ORDER BY after it, over alias `r`. */
export const RELATION_SELECT = `SELECT r.rowid AS rowid, r.tenant AS tenant, r.id AS id, f.id AS from_id, t.id AS to_id,
    r.type AS type, m.id AS memory_id, r.valid_from AS valid_from, r.invalidated_at AS invalidated_at, r.created_at AS created_at
  FROM relations r
  JOIN entities f ON f.rowid = r.from_rowid
  JOIN entities t ON t.rowid = r.to_rowid
  LEFT JOIN memories m ON m.rowid = r.memory_rowid`;

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** Whether writing `input` makes the stored extracted entity the user's (see EntityOrigin). */
export function claims(input: EntityInput, stored: EntityRow): boolean {
  return (input.origin ?? 'user') === 'user' && stored.origin === 'extracted';
}

export function rowToEntity(row: EntityRow): Entity {
  return {
    tenant: row.tenant,
    id: row.id,
    name: row.name,
    type: row.type,
    aliases: JSON.parse(row.aliases) as string[],
    observations: JSON.parse(row.observations) as string[],
    origin: row.origin,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function rowToRelation(row: RelationRow): Relation {
  return {
    tenant: row.tenant,
    id: row.id,
    from: row.from_id,
    to: row.to_id,
    type: row.type,
    memoryId: row.memory_id,
    validFrom: isoOrNull(row.valid_from),
    invalidatedAt: isoOrNull(row.invalidated_at),
    createdAt: iso(row.created_at),
  };
}

/** A mention as read: the memory's and entity's ids and the role. */
export function toMention(tenant: string, row: { memoryId: string; entityId: string; role: string }): Mention {
  return { tenant, memoryId: row.memoryId, entityId: row.entityId, role: row.role as MentionRole };
}

/** How strong a role is: lower is stronger (the order of MENTION_ROLES). */
export function roleRank(role: MentionRole): number {
  return MENTION_ROLES.indexOf(role);
}

/** SQL that ranks `column` the way `roleRank` does, for ORDER BY. */
export const ROLE_RANK_SQL = (column: string): string =>
  `CASE ${column} ${MENTION_ROLES.map((role, rank) => `WHEN '${role}' THEN ${rank}`).join(' ')} ELSE ${MENTION_ROLES.length} END`;

/**
 * What `searchEntities` matches words against: every field, keyed like names (so matching
 * ignores case beyond ASCII, which SQLite's own `lower()` does not), one field per line.
 */
export function searchTextOf(fields: {
  name: string;
  type: string;
  aliases: readonly string[];
  observations: readonly string[];
}): string {
  return [fields.name, fields.type, ...fields.aliases, ...fields.observations].map(entityKey).join('\n');
}

/** Milliseconds since the epoch for an ISO time, or null. */
export function msOrNull(value: string | null | undefined): number | null {
  return value === null || value === undefined ? null : Date.parse(value);
}
