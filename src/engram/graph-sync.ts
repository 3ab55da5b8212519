/**
 * Keeps the knowledge graph in step with the memories: extraction after a write, a superseded
 * or forgotten memory ending the relations it stated (kept, marked ended) and losing its
 * mentions, re-extraction when text changes or on `reindex`. Off when `[graph] extract` is false.
 * Extraction is best effort: a memory whose graph cannot be extracted or recorded is stored all
 * the same, and the failure is recorded in the store and the activity log until a later
 * extraction of it succeeds (docs/storage-and-embeddings.md#the-knowledge-graph).
 */
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import type { Memory } from '../model/memory.js';
import type { ActivityLog, ExtractionFailure, GraphExtraction, GraphStore } from '../store/store.js';
import { describeFailure, extractMemories, type Extractor, type PreparedGraph } from './graph-extraction.js';

/** Memories extracted per store write when re-extracting many (bounded transactions). */
const BATCH = 500;

/** The activity-log action of a failed extraction. */
export const EXTRACTION_FAILED = 'graph_extraction_failed';

/** What `reextract` did. */
export interface ReextractSummary {
  /** Memories read (extracted, or skipped as having nothing to extract). */
  memories: number;
  /** Memories whose extraction failed this time. */
  failed: number;
}

export class GraphSync {
  constructor(
    private readonly parts: {
      store: GraphStore & ActivityLog;
      clock: Clock;
      ids: IdGenerator;
      enabled: boolean;
      /** @default the offline extractor (graph/extract.ts) */
      extractor?: Extractor | undefined;
    },
  ) {}

  /** The graph of new or changed memories, computed before they are written; never throws for a memory it cannot read. */
  async prepare(memories: readonly Memory[]): Promise<PreparedGraph> {
    return this.parts.enabled
      ? extractMemories(memories, this.parts.ids, this.parts.extractor)
      : { extractions: [], failures: [] };
  }

  /**
   * Records prepared graphs once their memories are stored, and ends what `ended` memories
   * stated. An extraction the store refuses becomes a recorded failure, like one that threw.
   */
  async record(tenant: string, prepared: PreparedGraph, ended: readonly string[] = []): Promise<number> {
    const at = this.now();
    // Ended first, so a new memory stating the same fact gets a live relation of its own; their
    // mentions last, so an entity the new memories name again is never let go in between.
    if (ended.length > 0) await this.parts.store.invalidateRelations(tenant, ended, at);
    const failures = [...prepared.failures, ...(await this.recordEach(tenant, prepared.extractions, at))];
    if (ended.length > 0) await this.parts.store.removeMentions(tenant, ended);
    if (failures.length > 0) await this.recordFailures(tenant, failures, at);
    return failures.length;
  }

  /** A forgotten memory no longer names anything, and what it stated no longer holds. */
  async forget(tenant: string, ids: readonly string[]): Promise<void> {
    await this.record(tenant, { extractions: [], failures: [] }, ids);
  }

  /** Extracts these memories again, in batches, each in its own tenant (for `reindex`, which so retries failed ones). */
  async reextract(memories: readonly Memory[], onBatch?: (done: number) => void): Promise<ReextractSummary> {
    const summary: ReextractSummary = { memories: 0, failed: 0 };
    if (!this.parts.enabled) return summary;
    for (let start = 0; start < memories.length; start += BATCH) {
      const batch = memories.slice(start, start + BATCH);
      const prepared = await this.prepare(batch);
      for (const tenant of new Set(batch.map((memory) => memory.tenant))) {
        const ids = new Set(batch.filter((memory) => memory.tenant === tenant).map((memory) => memory.id));
        summary.failed += await this.record(tenant, {
          extractions: prepared.extractions.filter((extraction) => ids.has(extraction.memoryId)),
          failures: prepared.failures.filter((failure) => ids.has(failure.memoryId)),
        });
      }
      summary.memories += batch.length;
      onBatch?.(summary.memories);
    }
    return summary;
  }

  /** Records the extractions in one write or, when the store refuses that, one by one: one bad extraction loses only its own graph. */
  private async recordEach(tenant: string, extractions: readonly GraphExtraction[], at: string): Promise<ExtractionFailure[]> {
    if (extractions.length === 0) return [];
    try {
      await this.parts.store.recordExtractions(tenant, extractions, at);
      return [];
    } catch (error) {
      if (extractions.length === 1)
        return [{ memoryId: (extractions[0] as GraphExtraction).memoryId, error: describeFailure(error) }];
    }
    const failures: ExtractionFailure[] = [];
    for (const extraction of extractions) failures.push(...(await this.recordEach(tenant, [extraction], at)));
    return failures;
  }

  /** Records failures in the store and the activity log; a store that cannot take even that is an error of the write. */
  private async recordFailures(tenant: string, failures: readonly ExtractionFailure[], at: string): Promise<void> {
    await this.parts.store.recordExtractionFailures(tenant, failures, at);
    for (const failure of failures) {
      await this.parts.store.appendActivity({
        tenant,
        at,
        action: EXTRACTION_FAILED,
        key: null,
        memoryId: failure.memoryId,
        summary: `graph extraction failed (${failure.error}); the memory is stored, engram reindex tries again`,
      });
    }
  }

  private now(): string {
    return this.parts.clock.now().toISOString();
  }
}
