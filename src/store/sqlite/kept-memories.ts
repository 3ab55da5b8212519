/**
 * Memories read by id, kept across reads. A recall decision reads about a hundred candidate
 * memories by id, and the next turn's decision reads many of the same again (at 100k memories,
 * 44% of the rows `engram bench activation` asks for were asked for by an earlier turn): each
 * read is a seek by id, a seek by rowid and a row turned into a Memory, a tenth of a decision.
 *
 * What is kept stays true as long as the caller drops what it changes: the store drops the
 * memories a turn stamps as retrieved and clears everything on any other write of memories,
 * and another connection's write (SQLite's data_version moves) clears everything too. Each
 * read gets its own copy, so a caller that changes one changes nothing kept.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import type { Memory } from '../../model/memory.js';
import { KeptByMemory } from '../kept/kept-by-memory.js';
import { cachedStatement } from './statement-cache.js';

/** Memories kept at most; past it the older half is let go. About 1 KB each with their text. */
const MAX_KEPT = 10_000;

export class KeptMemories {
  private readonly kept: KeptByMemory<Memory>;

  constructor(db: Database.Database) {
    // Another connection's write lets everything go; this connection's are followed by the store.
    this.kept = new KeptByMemory(() => cachedStatement(db, 'PRAGMA data_version').pluck().get() as number, MAX_KEPT);
  }

  /** Copies of the kept memories among `ids` (by id), and the ids still to read. */
  split(tenant: string, ids: readonly string[]): { found: Map<string, Memory>; missing: string[] } {
    this.kept.refresh();
    const found = new Map<string, Memory>();
    const missing: string[] = [];
    for (const id of ids) {
      const memory = this.kept.get(tenant, id);
      if (memory) found.set(id, copy(memory));
      else missing.push(id);
    }
    return { found, missing };
  }

  /** The session of each of `ids` among the memories kept (null without one), undefined for one not kept. */
  sessionsOf(tenant: string, ids: readonly string[]): Map<string, string | null | undefined> {
    this.kept.refresh();
    return new Map(ids.map((id) => [id, this.kept.get(tenant, id)?.sessionId]));
  }

  /** Keeps copies of these memories, just read. */
  keep(memories: readonly Memory[]): void {
    this.kept.keep(memories.map((memory) => [memory.tenant, memory.id, copy(memory)] as const));
  }

  /** Forgets these memories (this connection changed them). */
  drop(tenant: string, ids: readonly string[]): void {
    this.kept.drop(tenant, ids);
  }

  /** Forgets every memory (this connection wrote memories). */
  clear(): void {
    this.kept.clear();
  }
}

/** A copy that shares nothing a caller could change with the one kept. */
function copy(memory: Memory): Memory {
  return { ...memory, tags: [...memory.tags], data: memory.data === null ? null : structuredClone(memory.data) };
}
