/**
 * Keeps the knowledge graph in step with the memories: extraction after a write, a superseded
 * or forgotten memory ending the relations it stated (they are kept, marked ended) and losing
 * its mentions, re-extraction when text changes or on `reindex`. Off when `[graph] extract`
 * is false; then the graph holds only what callers put in it.
 */
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import type { Memory } from '../model/memory.js';
import type { GraphExtraction, GraphStore } from '../store/store.js';
import { extractMemories } from './graph-extraction.js';

/** Memories extracted per store write when re-extracting many (bounded transactions). */
const BATCH = 500;

export class GraphSync {
  constructor(private readonly parts: { store: GraphStore; clock: Clock; ids: IdGenerator; enabled: boolean }) {}

  /** The graph of new or changed memories, computed before they are written (so a failure writes nothing). */
  async prepare(memories: readonly Memory[]): Promise<GraphExtraction[]> {
    return this.parts.enabled ? extractMemories(memories, this.parts.ids) : [];
  }

  /** Records prepared extractions once their memories are stored, and ends what `ended` memories stated. */
  async record(tenant: string, extractions: readonly GraphExtraction[], ended: readonly string[] = []): Promise<void> {
    const at = this.now();
    if (ended.length > 0) {
      await this.parts.store.invalidateRelations(tenant, ended, at);
      await this.parts.store.removeMentions(tenant, ended);
    }
    if (extractions.length > 0) await this.parts.store.recordExtractions(tenant, extractions, at);
  }

  /** A forgotten memory no longer names anything, and what it stated no longer holds. */
  async forget(tenant: string, ids: readonly string[]): Promise<void> {
    await this.record(tenant, [], ids);
  }

  /** Extracts these memories again, in batches, each in its own tenant (for `reindex`). */
  async reextract(memories: readonly Memory[], onBatch?: (done: number) => void): Promise<number> {
    if (!this.parts.enabled) return 0;
    let done = 0;
    for (let start = 0; start < memories.length; start += BATCH) {
      const batch = memories.slice(start, start + BATCH);
      const byTenant = new Map<string, GraphExtraction[]>();
      const tenants = new Map(batch.map((memory) => [memory.id, memory.tenant]));
      for (const extraction of await this.prepare(batch)) {
        const tenant = tenants.get(extraction.memoryId) as string;
        byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), extraction]);
      }
      for (const [tenant, extractions] of byTenant) await this.parts.store.recordExtractions(tenant, extractions, this.now());
      done += batch.length;
      onBatch?.(done);
    }
    return done;
  }

  private now(): string {
    return this.parts.clock.now().toISOString();
  }
}
