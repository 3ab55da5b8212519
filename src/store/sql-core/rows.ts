/**
 * Converting between the Memory record and its row, alike in SQLite and PostgreSQL: booleans as
 * 0/1, timestamps as epoch milliseconds, tags and data as JSON text; and SQLite's float32 vector
 * blobs.
 */
import type { Kind, Memory, Source, Tier } from '../../model/memory.js';

/** A `memories` row as either driver returns it (PostgreSQL's 64-bit integers read as numbers). */
export interface MemoryRow {
  rowid: number;
  id: string;
  tenant: string;
  scope: string;
  kind: string;
  tier: string;
  pinned: number;
  hard_rule: number;
  text: string;
  abstract: string | null;
  context: string | null;
  key: string | null;
  session_id: string | null;
  source: string;
  trust: number;
  data: string | null;
  tags: string;
  occurred_at: number;
  created_at: number;
  updated_at: number;
  superseded_by: string | null;
  archived_at: number | null;
  last_retrieved_at: number | null;
  retrieval_count: number;
}

/** The named parameters of an insert or update (everything but `rowid`). */
export type MemoryParams = Omit<MemoryRow, 'rowid'>;

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
const ms = (value: string): number => Date.parse(value);
const msOrNull = (value: string | null): number | null => (value === null ? null : Date.parse(value));

export function rowToMemory(row: MemoryRow): Memory {
  return {
    id: row.id,
    tenant: row.tenant,
    scope: row.scope,
    kind: row.kind as Kind,
    tier: row.tier as Tier,
    pinned: row.pinned === 1,
    hardRule: row.hard_rule === 1,
    text: row.text,
    abstract: row.abstract,
    context: row.context,
    key: row.key,
    sessionId: row.session_id,
    source: row.source as Source,
    trust: row.trust,
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
    tags: JSON.parse(row.tags) as string[],
    occurredAt: iso(row.occurred_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    supersededBy: row.superseded_by,
    archivedAt: isoOrNull(row.archived_at),
    lastRetrievedAt: isoOrNull(row.last_retrieved_at),
    retrievalCount: row.retrieval_count,
  };
}

export function memoryToParams(memory: Memory): MemoryParams {
  return {
    id: memory.id,
    tenant: memory.tenant,
    scope: memory.scope,
    kind: memory.kind,
    tier: memory.tier,
    pinned: memory.pinned ? 1 : 0,
    hard_rule: memory.hardRule ? 1 : 0,
    text: memory.text,
    abstract: memory.abstract,
    context: memory.context,
    key: memory.key,
    session_id: memory.sessionId,
    source: memory.source,
    trust: memory.trust,
    data: memory.data === null ? null : JSON.stringify(memory.data),
    tags: JSON.stringify(memory.tags),
    occurred_at: ms(memory.occurredAt),
    created_at: ms(memory.createdAt),
    updated_at: ms(memory.updatedAt),
    superseded_by: memory.supersededBy,
    archived_at: msOrNull(memory.archivedAt),
    last_retrieved_at: msOrNull(memory.lastRetrievedAt),
    retrieval_count: memory.retrievalCount,
  };
}

/** Column list and `@name` placeholders in the same order, for INSERT statements. */
export const MEMORY_COLUMNS = [
  'id',
  'tenant',
  'scope',
  'kind',
  'tier',
  'pinned',
  'hard_rule',
  'text',
  'abstract',
  'context',
  'key',
  'session_id',
  'source',
  'trust',
  'data',
  'tags',
  'occurred_at',
  'created_at',
  'updated_at',
  'superseded_by',
  'archived_at',
  'last_retrieved_at',
  'retrieval_count',
] as const satisfies readonly (keyof MemoryParams)[];

/** Vectors are stored as little-endian float32 blobs. */
export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}
