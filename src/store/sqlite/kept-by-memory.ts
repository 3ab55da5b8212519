/**
 * What one connection keeps per memory across reads (kept-memories.ts, kept-mentions.ts):
 * entries by tenant and memory id, all let go once another connection has written the file
 * (SQLite's data_version moves), and the older half let go when the bound is reached. The
 * connection's own writes are the owner's to follow: it drops or clears what they change.
 */
import type Database from 'better-sqlite3';

import { cachedStatement } from './statement-cache.js';

export class KeptByMemory<T> {
  private readonly db: Database.Database;
  private readonly max: number;
  private readonly kept = new Map<string, T>();
  private version: number | null = null;

  constructor(db: Database.Database, max: number) {
    this.db = db;
    this.max = max;
  }

  /** Lets everything go when another connection wrote since the last call; call before reading. */
  refresh(): void {
    const version = cachedStatement(this.db, 'PRAGMA data_version').pluck().get() as number;
    if (version !== this.version) {
      this.kept.clear();
      this.version = version;
    }
  }

  get(tenant: string, id: string): T | undefined {
    return this.kept.get(key(tenant, id));
  }

  /** Keeps these entries, letting the oldest go first to stay within the bound. */
  keep(entries: readonly (readonly [tenant: string, id: string, value: T])[]): void {
    if (this.kept.size + entries.length > this.max) {
      let drop = Math.max(this.kept.size >> 1, this.kept.size + entries.length - this.max);
      for (const k of this.kept.keys()) {
        if (drop-- <= 0) break;
        this.kept.delete(k);
      }
    }
    for (const [tenant, id, value] of entries) this.kept.set(key(tenant, id), value);
  }

  /** Lets these memories' entries go. */
  drop(tenant: string, ids: readonly string[]): void {
    for (const id of ids) this.kept.delete(key(tenant, id));
  }

  /** Lets every entry go. */
  clear(): void {
    this.kept.clear();
  }
}

function key(tenant: string, id: string): string {
  return `${tenant}\u0000${id}`;
}
