/**
 * The engine as the tools and sessions see it: the operations they call, declared here, below
 * them, so they never depend on the facade that implements it (`Engram` in `src/engram/`).
 * Tests and other engines can stand in for it.
 */
import type { EngramConfig } from '../config/schema.js';
import type { Memory } from '../model/memory.js';
import type { MemoryInput } from '../model/memory-input.js';
import type { SearchOptions } from '../model/search-request.js';
import type { ActivityEntry, ActivityLabel } from '../model/session.js';
import type { SearchHit } from '../retrieval/hybrid-search.js';
import type { KnowledgeGraph } from './knowledge-graph.js';

/** What forgetting did: archived (kept, hidden) or deleted for good. */
export interface ForgetOutcome {
  id: string;
  outcome: 'archived' | 'deleted';
}

/** The engine operations the memory tools use. */
export interface ToolEngine {
  /** The engine's settings (thresholds, similarity, limits). */
  readonly config: EngramConfig;
  /** Whether the engine embeds text; without an embedder, search goes by words only. */
  readonly hasEmbedder: boolean;
  /**
   * Stores a memory and indexes it. A string is shorthand for `{ text }`. The engine logs the
   * write in the activity log, under `activity` when given (the tool's name and words).
   */
  remember(input: MemoryInput | string, options?: { activity?: ActivityLabel }): Promise<Memory>;
  /** Archives a memory, or with `hard: true` deletes it for good; logged like `remember`. */
  forget(id: string, options?: { hard?: boolean; activity?: ActivityLabel }): Promise<ForgetOutcome>;
  /** Finds memories by words and meaning. A string is shorthand for `{ query }`. */
  search(options: SearchOptions | string): Promise<SearchHit[]>;
  /** The live memory with this key in `scope` (the default scope when omitted), or null. */
  getByKey(key: string, scope?: string): Promise<Memory | null>;
  /** Appends a line of the caller's own to the daily activity log (seed 003), stamped now; writes log themselves. */
  logActivity(entry: Omit<ActivityEntry, 'tenant' | 'at'>): Promise<ActivityEntry>;
  /** The tenant's knowledge graph: entities, relations, observations. */
  readonly graph: KnowledgeGraph;
}
