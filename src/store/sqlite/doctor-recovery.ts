/**
 * What to do about a file damaged beyond what the repair mends: the integrity finding's fix,
 * chosen by what can still be read, so that the advice is one that works. When every memory
 * still reads back, `engram export` can copy them into a new file; when the memories, or the
 * schema itself (a truncated file), cannot be read, nothing can copy them and only a backup
 * brings them back. Nothing here writes.
 */
import path from 'node:path';

import type Database from 'better-sqlite3';

import { hasTable, plural } from './doctor-part.js';
import { isDamage } from './storage-error.js';

/** How to bring a backup back, the one way out that always works. */
export const RESTORE =
  'restore a backup (engram backup makes one): point --db at it, or copy it over this file while no process has it open';
const NO_REPAIR = '--repair does not write into a file damaged like this';

/**
 * The fix for damage the repair leaves alone.
 * @param schemaReadable whether the schema check could read the file's tables
 */
export function recoveryFix(db: Database.Database, file: string, schemaReadable: boolean): string {
  if (!schemaReadable)
    return `SQLite cannot read this file's schema, so nothing can be copied out of it: ${RESTORE}; ${NO_REPAIR}`;
  const readable = readEveryMemory(db);
  if ('problem' in readable) {
    return `the memories themselves cannot all be read (${readable.problem}), so engram export cannot copy them either: ${RESTORE}; ${NO_REPAIR}`;
  }
  const copy = recoveredPath(file);
  const tenants = readable.tenants > 1 ? `, once per tenant (ENGRAM_STORE__TENANT names it; ${readable.tenants} here)` : '';
  return (
    `every memory still reads back: copy ${plural(readable.memories, 'memory', 'memories')} into a new file with ` +
    `engram export --db ${file} | engram import --db ${copy}${tenants}, then use that file (the knowledge graph is ` +
    `extracted again; sessions, receipts and entities added by hand stay behind); or ${RESTORE}; ${NO_REPAIR}`
  );
}

/** Reads every memory row, as `engram export` does: how many and in how many tenants, or why not. */
function readEveryMemory(db: Database.Database): { memories: number; tenants: number } | { problem: string } {
  if (!hasTable(db, 'memories')) return { problem: 'the file has no memories table' };
  try {
    let memories = 0;
    const tenants = new Set<unknown>();
    for (const row of db.prepare('SELECT m.* FROM memories m ORDER BY m.rowid').iterate() as Iterable<{ tenant: unknown }>) {
      memories += 1;
      tenants.add(row.tenant);
    }
    return { memories, tenants: tenants.size };
  } catch (error) {
    if (!isDamage(error)) throw error;
    return { problem: (error as Error).message };
  }
}

/** A new file beside `file`: `engram.db` → `engram-recovered.db`. */
function recoveredPath(file: string): string {
  const extension = path.extname(file);
  return path.join(path.dirname(file), `${path.basename(file, extension)}-recovered${extension || '.db'}`);
}
