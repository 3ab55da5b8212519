/**
 * Writing memories in PostgreSQL: a change's updates and inserts with their search columns
 * (lexical-text.ts computes the words in Engram) and vectors, with the writers of one key taking
 * turns (key-holders.ts), and purging memories with their injections and what extraction made
 * for them alone. The caller runs each in one transaction and tells the vector index what
 * changed once it commits.
 */
import type { Memory } from '../../model/memory.js';
import { memoryVectorKey } from '../embedding-cache.js';
import type { MemoryChange } from '../memory-store.js';
import { entitiesHeldBy, memoryRowids, removeUnheldEntities } from '../sql-core/graph-unheld.js';
import { MEMORY_COLUMNS, memoryToParams } from '../sql-core/rows.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';
import { lockClaimedKeys, supersededMeanwhile, supersedeHolder } from './key-holders.js';
import { searchFields, searchVectorSql } from './lexical-text.js';
import { postgresSession } from './postgres-session.js';
import type { PostgresVectorTable } from './vector-table.js';

/** What a change did to the vectors, for the in-memory index once it commits. */
export interface VectorChanges {
  removed: number[];
  added: { rowid: number; tenant: string; vector: Float32Array }[];
}

/** Writes `change` on `db` (inside a transaction): updates first, as a superseded memory frees its key for the insert. */
export async function writeChange(db: Queryable, vectors: PostgresVectorTable, change: MemoryChange): Promise<VectorChanges> {
  const done: VectorChanges = { removed: [], added: [] };
  // Writers of one key, on any server, take turns from here (key-holders.ts).
  const replacing = change.replaceKeyHolders === true;
  if (replacing)
    await lockClaimedKeys(
      db,
      (change.insert ?? []).map(({ memory }) => memory),
    );
  for (const { memory, vector } of change.update ?? []) {
    if (replacing && (await supersededMeanwhile(db, memory))) continue;
    const rowid = await writeMemory(db, memory, 'update');
    if (vector !== undefined) {
      await vectors.delete(db, rowid);
      done.removed.push(rowid);
      if (vector) {
        await vectors.write(db, rowid, memory.tenant, vector, memoryVectorKey(memory));
        done.added.push({ rowid, tenant: memory.tenant, vector });
      }
    }
  }
  for (const { memory, vector } of change.insert ?? []) {
    if (replacing) await supersedeHolder(db, memory);
    const rowid = await writeMemory(db, memory, 'insert');
    if (vector) {
      await vectors.write(db, rowid, memory.tenant, vector, memoryVectorKey(memory));
      done.added.push({ rowid, tenant: memory.tenant, vector });
    }
  }
  return done;
}

/** Deletes these memories of `tenant` with what hangs on them (inside a transaction holding the graph lock); returns their rowids. */
export async function purgeRows(db: Queryable, tenant: string, ids: readonly string[]): Promise<number[]> {
  // Injections feed repeat suppression of memories that exist; a purged one's would be orphans.
  await db.query(`DELETE FROM injections WHERE tenant = $1 AND memory_id = ANY($2::text[])`, [tenant, [...ids]]);
  const sql = postgresSession(db);
  const held = await sql.exec(entitiesHeldBy(await sql.exec(memoryRowids(tenant, ids))));
  const result = await db.query(`DELETE FROM memories WHERE tenant = $1 AND id = ANY($2::text[]) RETURNING rowid`, [
    tenant,
    [...ids],
  ]);
  // The memories' mentions went with them (foreign keys): what extraction made for them alone goes too.
  await sql.exec(removeUnheldEntities(held));
  return (result.rows as { rowid: number }[]).map((row) => row.rowid);
}

/** Inserts or updates one memory with its search columns; returns its rowid. */
async function writeMemory(db: Queryable, memory: Memory, mode: 'insert' | 'update'): Promise<number> {
  const values = memoryToParams(memory);
  const { fields, length } = searchFields(memory);
  const params = new Params(MEMORY_COLUMNS.map((column) => values[column]));
  const vector = searchVectorSql(fields.map((field) => params.add(field)));
  const lengthParam = params.add(length);
  if (mode === 'insert') {
    const result = await db.query(
      `INSERT INTO memories (${MEMORY_COLUMNS.join(', ')}, search_vector, search_length)
       VALUES (${MEMORY_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, ${vector}, ${lengthParam}) RETURNING rowid`,
      params.values,
    );
    return (result.rows[0] as { rowid: number }).rowid;
  }
  const assignments = MEMORY_COLUMNS.map((column, i) => ({ column, i }))
    .filter(({ column }) => column !== 'id' && column !== 'tenant')
    .map(({ column, i }) => `${column} = $${i + 1}`);
  const result = await db.query(
    `UPDATE memories SET ${assignments.join(', ')}, search_vector = ${vector}, search_length = ${lengthParam}
     WHERE id = $1 AND tenant = $2 RETURNING rowid`,
    params.values,
  );
  const row = result.rows[0] as { rowid: number } | undefined;
  if (row === undefined) throw new Error(`update of unknown memory ${memory.id}`);
  return row.rowid;
}
