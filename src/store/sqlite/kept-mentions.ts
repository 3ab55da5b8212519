/**
 * The mentions each memory makes, kept across reads. Graph-aware recall reads the mentions of
 * every candidate (about a hundred a search), and the next search asks again for most of the
 * same memories (59% of them over `bench scale`'s queries at 10k): each read joins four tables
 * and sorts, the largest part of what following the graph adds to a search.
 *
 * What is kept stays true as long as the store clears it on every write that may change a
 * mention — any write transaction but a decision's or a retrieval's stamps (which touch no
 * mention), and the mentions' own removal — and another connection's write (SQLite's
 * data_version moves) clears it too. Each read gets its own copies.
 */
import type Database from 'better-sqlite3';

import type { Mention } from '../../model/graph.js';
import { cachedStatement } from './statement-cache.js';

/** Memories whose mentions are kept at most; past it the older half is let go. */
const MAX_KEPT = 20_000;

export class KeptMentions {
  private readonly db: Database.Database;
  /** Each memory's mentions, strongest role first, as the store reads them. */
  private readonly kept = new Map<string, readonly Mention[]>();
  private version: number | null = null;

  constructor(db: Database.Database) {
    this.db = db;
  }

  /**
   * The mentions of `memoryIds` (once each, in their order, each memory's strongest role first),
   * reading those not kept with `read` and keeping what it returns.
   */
  mentionsIn(tenant: string, memoryIds: readonly string[], read: (ids: string[]) => Mention[]): Mention[] {
    const version = cachedStatement(this.db, 'PRAGMA data_version').pluck().get() as number;
    if (version !== this.version) {
      this.kept.clear();
      this.version = version;
    }
    const ids = [...new Set(memoryIds)];
    const missing = ids.filter((id) => !this.kept.has(key(tenant, id)));
    if (missing.length > 0) this.keep(tenant, missing, read(missing));
    return ids.flatMap((id) => (this.kept.get(key(tenant, id)) ?? []).map((mention) => ({ ...mention })));
  }

  /** Forgets everything (this connection wrote something that may change a mention). */
  clear(): void {
    this.kept.clear();
  }

  private keep(tenant: string, ids: readonly string[], mentions: readonly Mention[]): void {
    if (this.kept.size + ids.length > MAX_KEPT) {
      let drop = Math.max(this.kept.size >> 1, this.kept.size + ids.length - MAX_KEPT);
      for (const k of this.kept.keys()) {
        if (drop-- <= 0) break;
        this.kept.delete(k);
      }
    }
    const byMemory = new Map<string, Mention[]>(ids.map((id) => [id, []]));
    for (const mention of mentions) byMemory.get(mention.memoryId)?.push({ ...mention });
    for (const [id, made] of byMemory) this.kept.set(key(tenant, id), made);
  }
}

function key(tenant: string, id: string): string {
  return `${tenant}\u0000${id}`;
}
