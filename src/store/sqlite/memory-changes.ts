/**
 * Writing memories in SQLite: a change's updates and inserts with their vectors (the full-text
 * index follows by trigger), and purging memories with their vectors, injections and what
 * extraction made for them alone. The caller runs each inside one write transaction.
 */
import type Database from 'better-sqlite3';

import type { Memory } from '../../model/memory.js';
import { memoryVectorKey } from '../embedding-cache.js';
import type { MemoryChange } from '../memory-store.js';
import { entitiesHeldBy, removeUnheldEntities } from '../sql-core/graph-unheld.js';
import { MEMORY_COLUMNS, memoryToParams } from '../sql-core/rows.js';
import type { SyncSession } from '../sql-core/session.js';
import { SEGMENT_TERMS_SCHEMA } from './migrations.js';
import { segmentColumn } from './segment-column.js';
import type { VectorTable } from './vector-table.js';

/** SQLite's default limit on bound parameters is 32766; stay far below it. */
export const IN_CHUNK = 500;

/** Writes `change`: updates first, as a memory superseded in this change frees its key for the insert. */
export function writeChange(db: Database.Database, vectors: VectorTable, change: MemoryChange): void {
  // The CJK bigrams and emoji the full-text index holds apart (schema 10; a file held at an
  // older schema by `migrateTo` has no such column).
  const segmented = (db.pragma('user_version', { simple: true }) as number) >= SEGMENT_TERMS_SCHEMA;
  const columns = segmented ? [...MEMORY_COLUMNS, 'segment_terms'] : MEMORY_COLUMNS;
  const paramsOf = (memory: Memory) => {
    const params = memoryToParams(memory);
    return segmented ? { ...params, segment_terms: segmentColumn(params) } : params;
  };
  const insert = db.prepare(`INSERT INTO memories (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE memories SET ${columns
      .filter((c) => c !== 'id' && c !== 'tenant')
      .map((c) => `${c} = @${c}`)
      .join(', ')} WHERE id = @id AND tenant = @tenant`,
  );
  const rowidOf = db.prepare(`SELECT rowid FROM memories WHERE id = ?`).pluck();
  const replacing = change.replaceKeyHolders === true;
  const supersededBy = db.prepare(`SELECT superseded_by FROM memories WHERE tenant = ? AND id = ?`).pluck();
  const supersedeHolder = db.prepare(
    `UPDATE memories SET superseded_by = @id, updated_at = @at
     WHERE tenant = @tenant AND scope = @scope AND key = @key AND superseded_by IS NULL AND archived_at IS NULL`,
  );
  for (const { memory, vector } of change.update ?? []) {
    // Superseded by another writer since the engine read it: their pointer stays (MemoryChange).
    const current = replacing && memory.supersededBy !== null ? supersededBy.get(memory.tenant, memory.id) : null;
    if (current != null && current !== memory.supersededBy) continue;
    const { changes } = update.run(paramsOf(memory));
    if (changes === 0) throw new Error(`update of unknown memory ${memory.id}`);
    if (vector !== undefined) {
      const rowid = rowidOf.get(memory.id) as number;
      vectors.delete(rowid);
      if (vector) vectors.write(rowid, memory.id, memory.tenant, vector, memoryVectorKey(memory));
    }
  }
  for (const { memory, vector } of change.insert ?? []) {
    if (replacing && memory.key !== null && memory.supersededBy === null && memory.archivedAt === null) {
      const { tenant, scope, key, id } = memory;
      supersedeHolder.run({ tenant, scope, key, id, at: Date.parse(memory.createdAt) });
    }
    const { lastInsertRowid } = insert.run(paramsOf(memory));
    if (vector) vectors.write(Number(lastInsertRowid), memory.id, memory.tenant, vector, memoryVectorKey(memory));
  }
}

/** Deletes these memories of `tenant` with what hangs on them; returns how many were deleted. */
export function purgeRows(
  db: Database.Database,
  sql: SyncSession,
  vectors: VectorTable,
  tenant: string,
  ids: readonly string[],
): number {
  let deleted = 0;
  for (const chunk of chunks(ids, IN_CHUNK)) {
    const marks = chunk.map(() => '?').join(', ');
    const rowids = db
      .prepare(`SELECT rowid FROM memories WHERE tenant = ? AND id IN (${marks})`)
      .pluck()
      .all(tenant, ...chunk) as number[];
    for (const rowid of rowids) vectors.delete(rowid);
    // Injections feed repeat suppression of memories that exist; a purged one's would be orphans.
    db.prepare(`DELETE FROM injections WHERE tenant = ? AND memory_id IN (${marks})`).run(tenant, ...chunk);
    const held = sql.exec(entitiesHeldBy(rowids));
    deleted += db.prepare(`DELETE FROM memories WHERE tenant = ? AND id IN (${marks})`).run(tenant, ...chunk).changes;
    // The memories' mentions went with them (trigger): what extraction made for them alone goes too.
    sql.exec(removeUnheldEntities(held));
  }
  return deleted;
}

/** `items` in slices of `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
