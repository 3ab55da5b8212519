/**
 * The mentions each memory makes, kept across reads. Graph-aware recall reads the mentions of
 * every candidate (about a hundred a search), and the next search asks again for most of the
 * same memories (59% of them over `bench scale`'s queries at 10k): each read joins four tables
 * and sorts, the largest part of what following the graph adds to a search.
 *
 * What is kept stays true while the change mark holds (change-mark.ts): any write of a
 * memory's record, its vector, its mentions or the graph's entities, by this connection or
 * another, moves it; a decision's and a retrieval's stamps do not. Each read gets its own copies.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Mention } from '../../model/graph.js';
import type { ChangeMark } from './change-mark.js';
import { KeptByMemory } from './kept-by-memory.js';

/** Memories whose mentions are kept at most; past it the older half is let go. */
const MAX_KEPT = 20_000;

export class KeptMentions {
  /** Each memory's mentions, strongest role first, as the store reads them. */
  private readonly kept: KeptByMemory<readonly Mention[]>;

  constructor(writes: ChangeMark) {
    this.kept = new KeptByMemory(() => writes.mark(), MAX_KEPT);
  }

  /**
   * The mentions of `memoryIds` (once each, in their order, each memory's strongest role first),
   * reading those not kept with `read` and keeping what it returns.
   */
  mentionsIn(tenant: string, memoryIds: readonly string[], read: (ids: string[]) => Mention[]): Mention[] {
    this.kept.refresh();
    const ids = [...new Set(memoryIds)];
    const missing = ids.filter((id) => this.kept.get(tenant, id) === undefined);
    if (missing.length > 0) {
      const byMemory = new Map<string, Mention[]>(missing.map((id) => [id, []]));
      for (const mention of read(missing)) byMemory.get(mention.memoryId)?.push({ ...mention });
      this.kept.keep([...byMemory].map(([id, made]) => [tenant, id, made] as const));
    }
    return ids.flatMap((id) => (this.kept.get(tenant, id) ?? []).map((mention) => ({ ...mention })));
  }
}
