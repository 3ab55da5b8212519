/**
 * Memories read by id, kept across reads. A recall decision reads about a hundred candidate
 * memories by id, and the next turn's decision reads many of the same again (at 100k memories,
 * 44% of the rows `engram bench activation` asks for were asked for by an earlier turn): each
 * read is a seek by id, a seek by rowid and a row turned into a Memory, a tenth of a decision.
 *
 * A memory carries its retrieval stamps, which the change mark leaves out: the layer keeps these
 * across decisions only on a store whose mark another process's stamps move too
 * (`MemoryReader.markCoversStamps`), and drops the ones its own writes stamp (kept-reads.ts).
 * Each read gets its own copy, so a caller that changes one changes nothing kept.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Memory } from '../../model/memory.js';
import { KeptById } from './kept-by-id.js';

/** Memories kept at most; past it the older half is let go. About 1 KB each with their text. */
const MAX_KEPT = 10_000;

export class KeptMemories {
  private readonly kept = new KeptById<Memory>(MAX_KEPT);
  /** Moves on every drop: a read begun before a drop may hold the stamps it dropped. */
  private drops = 0;

  /** What `keep` is given to tell whether a drop came between a read and its keeping. */
  get since(): number {
    return this.drops;
  }

  /** Copies of the kept memories among `ids` (by id), and the ids still to read. */
  split(ids: readonly string[]): { found: Map<string, Memory>; missing: string[] } {
    const found = new Map<string, Memory>();
    const missing: string[] = [];
    for (const id of ids) {
      const memory = this.kept.get(id);
      if (memory) found.set(id, copyMemory(memory));
      else missing.push(id);
    }
    return { found, missing };
  }

  /** Keeps copies of these memories, read after `since` was taken; none if a drop came since. */
  keep(memories: readonly Memory[], since: number): void {
    if (since !== this.drops) return;
    this.kept.keep(memories.map((memory) => [memory.id, copyMemory(memory)] as const));
  }

  /** Forgets these memories (their retrieval stamps changed). */
  drop(ids: readonly string[]): void {
    this.drops += 1;
    this.kept.drop(ids);
  }
}

/** A copy that shares nothing a caller could change with the one kept. */
function copyMemory(memory: Memory): Memory {
  return { ...memory, tags: [...memory.tags], data: memory.data === null ? null : structuredClone(memory.data) };
}
