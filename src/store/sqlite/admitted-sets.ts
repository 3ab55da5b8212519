/**
 * The memories a recurring filter admits, held as a bitmap by rowid and kept current as
 * memories change. A vector search whose filter leaves out most of the nearest vectors (a
 * session's scopes, one tier) would otherwise ask SQLite about thousands of candidates, or scan
 * every admitted vector, on every turn; with the set held, the index skips what the filter
 * refuses as it ranks.
 *
 * SQLite itself decides what a filter admits: a set is read with the filter's own SQL, and
 * temporary triggers on this connection note every memory inserted, deleted or updated in a
 * column a filter reads (not a retrieval stamp, which every turn writes), so the next use re-asks
 * SQLite about just those rows. Writes by other connections are caught by the
 * caller (SQLite's data_version), which then clears every set.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import type { AdmittedSet } from '../vector/admitted-set.js';
import { type Clause, FILTER_COLUMNS } from './filter-clause.js';
import { cachedStatement } from './statement-cache.js';

/** Filters whose sets are held; the least recently used goes first. */
const MAX_SETS = 8;
/** Filters remembered as used, to tell one used again from one used once. */
const MAX_SEEN = 64;
/** Past this many changed memories, a set is read anew rather than brought up to date row by row. */
const MAX_PENDING = 2_000;

interface HeldSet extends AdmittedSet {
  bits: Uint8Array;
  count: number;
  version: number;
  /** Rowids changed since the set was last brought up to date; null when too many to follow. */
  pending: Set<number> | null;
}

export type { AdmittedSet };

let versions = 0;

export class AdmittedSets {
  private readonly db: Database.Database;
  private readonly sets = new Map<string, HeldSet>();
  private readonly seen = new Set<string>();

  constructor(db: Database.Database) {
    this.db = db;
    db.function('engram_memory_changed', (rowid) => {
      this.changed(Number(rowid));
      return null;
    });
    // TEMP triggers belong to this connection alone and write nothing to the file.
    db.exec(`
      CREATE TEMP TRIGGER IF NOT EXISTS engram_admitted_insert AFTER INSERT ON main.memories
        BEGIN SELECT engram_memory_changed(new.rowid); END;
      CREATE TEMP TRIGGER IF NOT EXISTS engram_admitted_update AFTER UPDATE OF ${FILTER_COLUMNS.join(', ')} ON main.memories
        BEGIN SELECT engram_memory_changed(old.rowid); SELECT engram_memory_changed(new.rowid); END;
      CREATE TEMP TRIGGER IF NOT EXISTS engram_admitted_delete AFTER DELETE ON main.memories
        BEGIN SELECT engram_memory_changed(old.rowid); END;
    `);
  }

  /** The set `where` (over alias `m`) admits, if held, brought up to date. */
  held(where: Clause): AdmittedSet | undefined {
    const key = keyOf(where);
    const set = this.sets.get(key);
    if (set === undefined) return undefined;
    this.sets.delete(key);
    this.sets.set(key, set);
    if (set.pending === null) Object.assign(set, this.read(where));
    else if (set.pending.size > 0) this.update(set, where);
    return set;
  }

  /** Whether `where` was used before; each call counts as a use. */
  recurring(where: Clause): boolean {
    const key = keyOf(where);
    const before = this.seen.delete(key);
    this.seen.add(key);
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.values().next().value as string);
    return before;
  }

  /** The set `where` admits, read now and held from here on. */
  build(where: Clause): AdmittedSet {
    const key = keyOf(where);
    const set: HeldSet = { ...this.read(where), pending: new Set() };
    this.sets.delete(key);
    this.sets.set(key, set);
    if (this.sets.size > MAX_SETS) this.sets.delete(this.sets.keys().next().value as string);
    return set;
  }

  /** Forgets every set (another connection wrote: what changed is unknown). */
  clear(): void {
    this.sets.clear();
  }

  private changed(rowid: number): void {
    for (const set of this.sets.values()) {
      if (set.pending === null) continue;
      set.pending.add(rowid);
      if (set.pending.size > MAX_PENDING) set.pending = null;
    }
  }

  private read(where: Clause): Pick<HeldSet, 'bits' | 'count' | 'version' | 'pending'> {
    const rowids = cachedStatement(this.db, `SELECT m.rowid FROM memories m WHERE ${where.sql}`)
      .pluck()
      .all(...where.params) as number[];
    let largest = 0;
    for (const rowid of rowids) if (rowid > largest) largest = rowid;
    // Room to grow, so new memories rarely make the bitmap move.
    const bits = new Uint8Array(largest + 1 + Math.max(1024, largest >> 4));
    for (const rowid of rowids) bits[rowid] = 1;
    return { bits, count: rowids.length, version: ++versions, pending: new Set() };
  }

  /** Asks SQLite about the changed rows alone. */
  private update(set: HeldSet, where: Clause): void {
    const changed = [...(set.pending as Set<number>)];
    const admitted = new Set(
      cachedStatement(this.db, `SELECT m.rowid FROM json_each(?) j CROSS JOIN memories m ON m.rowid = j.value WHERE ${where.sql}`)
        .pluck()
        .all(JSON.stringify(changed), ...where.params) as number[],
    );
    for (const rowid of changed) {
      const now = admitted.has(rowid) ? 1 : 0;
      if (rowid >= set.bits.length) {
        if (now === 0) continue;
        const bigger = new Uint8Array(rowid + 1 + Math.max(1024, rowid >> 4));
        bigger.set(set.bits);
        set.bits = bigger;
      }
      set.count += now - (set.bits[rowid] as number);
      set.bits[rowid] = now;
    }
    set.pending = new Set();
    set.version = ++versions;
  }
}

function keyOf(where: Clause): string {
  return `${where.sql}\u0000${JSON.stringify(where.params)}`;
}
