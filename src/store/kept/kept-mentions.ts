/**
 * The mentions each memory makes, kept across reads. Graph-aware recall reads the mentions of
 * every candidate (about a hundred a search), and the next search asks again for most of the
 * same memories (59% of them over `bench scale`'s queries at 10k): each read joins four tables
 * and sorts, the largest part of what following the graph adds to a search. One set is kept per
 * tenant under one change mark (kept-under-mark.ts); each read gets its own copies.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { Mention } from '../../model/graph.js';
import { KeptById } from './kept-by-id.js';

/** Memories whose mentions are kept at most; past it the older half is let go. */
const MAX_KEPT = 20_000;

export class KeptMentions {
  /** Each memory's mentions, strongest role first, as the store reads them. */
  private readonly kept = new KeptById<readonly Mention[]>(MAX_KEPT);

  /**
   * The mentions of `memoryIds` (once each, in their order, each memory's strongest role first),
   * reading those not kept with `read` and keeping what it returns.
   */
  async mentionsIn(memoryIds: readonly string[], read: (ids: string[]) => Promise<Mention[]>): Promise<Mention[]> {
    const ids = [...new Set(memoryIds)];
    const missing = ids.filter((id) => this.kept.get(id) === undefined);
    if (missing.length > 0) {
      const byMemory = new Map<string, Mention[]>(missing.map((id) => [id, []]));
      for (const mention of await read(missing)) byMemory.get(mention.memoryId)?.push({ ...mention });
      this.kept.keep(byMemory);
    }
    return ids.flatMap((id) => (this.kept.get(id) ?? []).map((mention) => ({ ...mention })));
  }
}
