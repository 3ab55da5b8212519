/**
 * Keyed notes when several servers write one key at once. The engine finds a key's live holder
 * before it writes, outside any transaction, so two servers (or two requests of one) can both
 * find the same holder, or none, and both write. Inside the write's transaction this module
 * makes that safe: a lock per tenant, scope and key serialises the writers of one key; a
 * supersede of a memory someone else superseded meanwhile keeps their pointer; and the live
 * holder found under the lock is superseded by the new memory. So the last write to commit
 * holds the key and every earlier one is kept, superseded, in one chain: nothing is lost, and no
 * writer fails on the unique index of live keys. All of it applies to a change that asks for it
 * (`MemoryChange.replaceKeyHolders`, as the engine's writes do); other changes are refused on
 * that index, as the store contract says.
 */
import type { Memory } from '../../model/memory.js';
import type { Queryable } from './connection.js';

/** A memory that claims its key: live, with a key. */
function claimsKey(memory: Memory): boolean {
  return memory.key !== null && memory.supersededBy === null && memory.archivedAt === null;
}

/**
 * Takes the transaction-scoped lock of every key the inserted memories claim, in one order for
 * every writer (so two writers of the same keys cannot deadlock). Call it first in the transaction.
 */
export async function lockClaimedKeys(db: Queryable, inserted: readonly Memory[]): Promise<void> {
  const slots = [...new Set(inserted.filter(claimsKey).map((m) => JSON.stringify([m.tenant, m.scope, m.key])))].sort();
  for (const slot of slots) await db.query(`SELECT pg_advisory_xact_lock(hashtextextended('engram-key:' || $1, 0))`, [slot]);
}

/**
 * Whether an update that supersedes `memory` is stale: someone else superseded it first (after
 * the engine read it). Then their pointer stays, and the caller skips the update; the new memory
 * supersedes the current holder of the key instead (`supersedeHolder`). Locks the row.
 */
export async function supersededMeanwhile(db: Queryable, memory: Memory): Promise<boolean> {
  if (memory.supersededBy === null) return false;
  const result = await db.query(`SELECT superseded_by FROM memories WHERE tenant = $1 AND id = $2 FOR UPDATE`, [
    memory.tenant,
    memory.id,
  ]);
  const current = (result.rows[0] as { superseded_by: string | null } | undefined)?.superseded_by ?? null;
  return current !== null && current !== memory.supersededBy;
}

/**
 * Supersedes whichever memory holds the key `memory` claims now (one another writer committed
 * after the engine looked), by `memory`, stamped with its creation time. Call it under
 * `lockClaimedKeys`, before inserting `memory`.
 */
export async function supersedeHolder(db: Queryable, memory: Memory): Promise<void> {
  if (!claimsKey(memory)) return;
  await db.query(
    `UPDATE memories SET superseded_by = $4, updated_at = $5
     WHERE tenant = $1 AND scope = $2 AND key = $3 AND superseded_by IS NULL AND archived_at IS NULL`,
    [memory.tenant, memory.scope, memory.key, memory.id, Date.parse(memory.createdAt)],
  );
}
