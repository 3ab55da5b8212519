/**
 * The facade: `openEngram` wires a store, an embedder, the configuration and a clock into one
 * engine with the operations every surface uses. It is the only place (with tests) that
 * constructs concrete backends.
 */
import { cooldownDecay, secondsSince } from '../activation/cooldown.js';
import { cooldownFor } from '../activation/settings.js';
import { parseConfig } from '../config/load.js';
import type { EngramConfig } from '../config/schema.js';
import { withCoalescing } from '../embedding/coalescing-embedder.js';
import { createEmbedderFromConfig } from '../embedding/create-embedder.js';
import type { Embedder } from '../embedding/embedder.js';
import { assertCompatible } from '../embedding/index-compatibility.js';
import { EngramError } from '../errors.js';
import { type Clock, systemClock } from '../model/clock.js';
import { type IdGenerator, ulidGenerator } from '../model/ids.js';
import { INTERNAL_KINDS } from '../model/internal-kinds.js';
import type { ListMemoriesOptions } from '../model/list-request.js';
import { DEFAULT_SCOPE, type Memory } from '../model/memory.js';
import { type MemoryInput, type MemoryPatch } from '../model/memory-input.js';
import { type InjectionListOptions, type SessionListOptions } from '../model/page-request.js';
import type { Receipt } from '../model/receipt.js';
import type { SearchOptions } from '../model/search-request.js';
import type { ActivityEntry } from '../model/session.js';
import type { ReceiptQueryOptions, SessionOptions } from '../model/session-request.js';
import { CalibrationSamples } from '../retrieval/calibration-sample.js';
import { hybridSearch, type SearchHit } from '../retrieval/hybrid-search.js';
import { KeptMemoryWords } from '../retrieval/word-signals.js';
import { Session } from '../session/session.js';
import { withKeptReads } from '../store/kept/kept-reads.js';
import type { MemoryInjection, SessionSummary, Store } from '../store/store.js';
import type { GraphEntity, KnowledgeGraph } from '../tools/knowledge-graph.js';
import type { ForgetOutcome, ToolEngine } from '../tools/tool-engine.js';
import { type ActivityLine, importedLine } from './activity-lines.js';
import { embedMemories, type ProgressListener } from './embed-batches.js';
import type { EngramParts, EngramStats, OpenEngramOptions, ReindexSummary, StatsRequest, WriteOptions } from './engram-types.js';
import { GraphSync } from './graph-sync.js';
import { importRecords } from './import-all.js';
import { type ImportOptions, type ImportSummary } from './import-records.js';
import { EngramKnowledgeGraph, mentionedEntities } from './knowledge-graph.js';
import { parseListRequest } from './list-request.js';
import { LoggedKnowledgeGraph } from './logged-knowledge-graph.js';
import { forgetMemory, type LifecycleParts, restoreMemory, storeMemories, updateMemory } from './memory-lifecycle.js';
import { newMemory } from './new-memory.js';
import { openConfiguredStore } from './open-store.js';
import { type ScopesOptions, scopesUnder } from './scopes-request.js';
import { parseSearchRequest, retrievalSettings } from './search-request.js';
import {
  parseActivityQuery,
  parseInjectionList,
  parseReceiptQuery,
  parseSessionList,
  parseSessionOptions,
} from './session-request.js';
import { engineStats, reindexStore } from './stats-and-reindex.js';
import { type MemoryFactory, persistWorkingSet } from './working-set-memory.js';

export type { EngramStats, OpenEngramOptions, ReindexSummary, StatsRequest, WriteOptions } from './engram-types.js';

/** Opens an Engram engine: `const engram = await openEngram({ path: '.engram/engram.db' })`. */
export async function openEngram(options: OpenEngramOptions = {}): Promise<Engram> {
  const config = parseConfig(options.config ?? {}, 'config');
  const file = options.path ?? config.store.path;
  const opened =
    options.store !== undefined
      ? { store: options.store, path: null }
      : await openConfiguredStore(config, {
          file,
          mustExist: options.mustExist ?? false,
          createDirectory: options.createDirectory,
        });
  const raw = options.embedder !== undefined ? options.embedder : createEmbedderFromConfig(config.embedding);
  const clock = options.clock ?? systemClock;
  return new Engram({
    config,
    // What recall reads is kept across decisions, over whichever store was opened (store/kept/).
    store: withKeptReads(opened.store),
    embedder: raw,
    clock,
    ids: options.ids ?? ulidGenerator(clock),
    tenant: options.tenant ?? config.store.tenant,
    path: opened.path,
    extractor: options.extractor,
  });
}

/** The engine. Create it with `openEngram`. */
export class Engram implements ToolEngine {
  readonly config: EngramConfig;
  readonly tenant: string;
  /** The database file, when the engine opened one. */
  readonly path: string | null;
  private readonly store: Store;
  /** Embeds memories (through the database's cache, in `embedMemories`: the same text is never embedded twice). */
  private readonly embedder: Embedder | null;
  /**
   * Embeds queries directly (they rarely repeat, and caching them would grow the database on
   * every search); queries arriving together — a server's concurrent requests — share a batch.
   */
  private readonly queryEmbedder: Embedder | null;
  private readonly clock: Clock;
  private readonly ids: IdGenerator;
  private closed = false;
  /** The tenant's knowledge graph, in the MCP reference memory server's shapes; its writes are logged. */
  readonly graph: KnowledgeGraph;
  /** The same graph without the activity log, for an import (which logs one line for everything). */
  private readonly unloggedGraph: KnowledgeGraph;
  /** Extraction on write, and the graph kept in step with forgetting and supersession. */
  private readonly graphSync: GraphSync;
  /** Each tenant's sample for per-store calibration (retrieval/store-calibration.ts). */
  private readonly samples: CalibrationSamples;
  /** Memories' own words, split once for every search (retrieval/word-signals.ts). */
  private readonly memoryWords = new KeptMemoryWords();
  /** What a write uses (memory-lifecycle.ts). */
  private readonly lifecycle: LifecycleParts;

  /** @internal use `openEngram` */
  constructor(parts: EngramParts) {
    this.config = parts.config;
    this.store = parts.store;
    this.embedder = parts.embedder;
    this.queryEmbedder = parts.embedder ? withCoalescing(parts.embedder) : null;
    this.clock = parts.clock;
    this.ids = parts.ids;
    this.tenant = parts.tenant;
    this.path = parts.path;
    this.samples = new CalibrationSamples(parts.store);
    this.graphSync = new GraphSync({
      store: parts.store,
      clock: parts.clock,
      ids: parts.ids,
      enabled: parts.config.graph.extract,
      extractor: parts.extractor,
    });
    this.unloggedGraph = new EngramKnowledgeGraph({
      store: parts.store,
      tenant: parts.tenant,
      clock: parts.clock,
      ids: parts.ids,
      assertOpen: () => this.assertOpen(),
    });
    this.graph = new LoggedKnowledgeGraph(this.unloggedGraph, (line) => this.logActivity(line));
    this.lifecycle = {
      store: parts.store,
      tenant: parts.tenant,
      clock: parts.clock,
      ids: parts.ids,
      embedder: this.embedder,
      graphSync: this.graphSync,
      embed: (memories, onProgress) => this.embedMemories(memories, onProgress),
      log: (line) => this.logActivity(line),
    };
  }

  /** Whether this engine embeds text; without an embedder, search and recall go by words only. */
  get hasEmbedder(): boolean {
    return this.queryEmbedder !== null;
  }

  /**
   * Stores a memory and indexes it. A string is shorthand for `{ text }`. Like every write, it
   * adds one line to the activity log (`options.activity` names it, as the tools do).
   */
  async remember(input: MemoryInput | string, options: WriteOptions = {}): Promise<Memory> {
    this.assertOpen();
    const [memory] = await storeMemories(
      this.lifecycle,
      [typeof input === 'string' ? { text: input } : input],
      undefined,
      options.activity,
    );
    return memory as Memory;
  }

  /**
   * Stores several memories atomically: all of them or none. A memory with the `key` of a live
   * memory in the same scope, or naming one in `supersedes`, replaces it; the old one is kept
   * and marked superseded. The activity log gets one line for the call.
   */
  async rememberMany(inputs: readonly (MemoryInput | string)[], onProgress?: ProgressListener): Promise<Memory[]> {
    this.assertOpen();
    return storeMemories(this.lifecycle, inputs, onProgress);
  }

  /** The memory with this id, or null. Archived and superseded memories are returned too. */
  async get(id: string): Promise<Memory | null> {
    this.assertOpen();
    return this.store.getMemory(this.tenant, id);
  }

  /** Changes fields of a memory; new text is re-embedded. */
  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    this.assertOpen();
    return updateMemory(this.lifecycle, id, patch);
  }

  /**
   * Forgets a memory. By default it is archived: hidden from search and lists, still in the
   * database and in exports. With `hard: true` it is deleted for good, with its index entries.
   */
  async forget(id: string, options: { hard?: boolean } & WriteOptions = {}): Promise<ForgetOutcome> {
    this.assertOpen();
    return forgetMemory(this.lifecycle, id, options);
  }

  /**
   * Brings a forgotten (archived) memory back in place: the same id, record and vector, nothing
   * re-embedded. Its graph mentions and relations, which forgetting ended, are extracted again
   * (a live memory's graph is what its text names). Refused when a live memory now holds its key.
   */
  async restore(id: string): Promise<Memory> {
    this.assertOpen();
    return restoreMemory(this.lifecycle, id);
  }

  /**
   * Memories, newest first by default: live ones, or by `status` all of them or only archived or
   * superseded ones; `pinned` and `hardRule` keep only those. A page continues from a memory
   * (`after`, `before`) or skips `offset` rows.
   */
  async list(options: ListMemoriesOptions = {}): Promise<Memory[]> {
    this.assertOpen();
    const { filter, page } = parseListRequest(options, this.tenant);
    return this.store.listMemories(filter, page);
  }

  /** Finds memories by words and meaning. A string is shorthand for `{ query }`. */
  async search(options: SearchOptions | string): Promise<SearchHit[]> {
    this.assertOpen();
    const request = parseSearchRequest(options, this.config);
    await assertCompatible(this.store, this.embedder);
    const now = this.clock.now();
    const cooldown = request.cooldown ? cooldownFor(this.config, 'explicit') : null;
    const hits = await hybridSearch({
      ...request,
      settings: { ...request.settings, samples: this.samples, memoryWords: this.memoryWords },
      store: this.store,
      embedder: this.queryEmbedder,
      // Engram's internal records are read through sessions, not found by search, unless asked for.
      filter: {
        tenant: this.tenant,
        scopes: request.scopes,
        kinds: request.kinds,
        tiers: request.tiers,
        includeArchived: false,
        includeSuperseded: false,
        ...request.timeRange,
        excludeKinds: request.excludeKinds,
      },
      now,
      cooldown: cooldown ? (memory) => cooldownDecay(cooldown, secondsSince(memory.lastRetrievedAt, now)) : undefined,
    });
    if (request.recordRetrieval && hits.length > 0) {
      await this.store.recordRetrieval(
        this.tenant,
        hits.map((hit) => hit.memory.id),
        this.clock.now().toISOString(),
      );
    }
    return hits;
  }

  /**
   * The scopes that hold live memories, with how many each, the largest first (Engram's internal
   * records left out): `stats().byScope` in one read, for a program that finds its scopes by name
   * (the LangGraph store's namespace prefixes, `engram/langgraph`). With `under`, only that scope
   * and the scopes below it: `{ under: 'docs' }` holds `docs` and `docs:python`, not `docsets`.
   */
  async scopes(options: ScopesOptions = {}): Promise<Record<string, number>> {
    this.assertOpen();
    const under = scopesUnder(options);
    return this.store.scopeCounts(this.tenant, { under, excludeKinds: INTERNAL_KINDS });
  }

  /** The live memory with this key in `scope` (the default scope when omitted), or null. */
  async getByKey(key: string, scope: string = DEFAULT_SCOPE): Promise<Memory | null> {
    this.assertOpen();
    return this.store.findByKey(this.tenant, scope, key);
  }

  /**
   * Appends one line to the daily activity log (seed 003), stamped now. The engine logs its own
   * writes; this is for a program's own lines.
   */
  async logActivity(entry: ActivityLine): Promise<ActivityEntry> {
    this.assertOpen();
    const line = { ...entry, tenant: this.tenant, at: this.clock.now().toISOString() };
    await this.store.appendActivity(line);
    return line;
  }

  /** Activity-log lines, oldest first: one UTC day (`YYYY-MM-DD`) or the latest ones. */
  async activity(options: { day?: string; limit?: number } = {}): Promise<ActivityEntry[]> {
    this.assertOpen();
    return this.store.listActivity(this.tenant, parseActivityQuery(options));
  }

  /**
   * A session: one conversation, resumable from any process by its id. Recall sees `scopes`
   * (most specific first), by default the session's scope and then the default scope.
   */
  session(options: SessionOptions = {}): Session {
    this.assertOpen();
    return new Session(
      {
        store: this.store,
        embedder: this.queryEmbedder,
        config: this.config,
        retrieval: { ...retrievalSettings(this.config), samples: this.samples, memoryWords: this.memoryWords },
        clock: this.clock,
        ids: this.ids,
        tenant: this.tenant,
        engram: this,
        persistWorkingSet: (workingSet) => persistWorkingSet(this.store, workingSet, this.memoryFactory()),
      },
      parseSessionOptions(options, this.ids),
    );
  }

  /** Activation receipts, newest first: every recall decision and why (`engram receipts`). */
  async receipts(query: ReceiptQueryOptions = {}): Promise<Receipt[]> {
    this.assertOpen();
    return this.store.listReceipts(this.tenant, parseReceiptQuery(query));
  }

  /** Sessions, most recently updated first, with their turns, receipts and injections counted. */
  async sessions(options: SessionListOptions = {}): Promise<SessionSummary[]> {
    this.assertOpen();
    return this.store.listSessions(this.tenant, parseSessionList(options));
  }

  /** The turns that injected the memory with this id, the latest first (none for an unknown id). */
  async injections(id: string, options: InjectionListOptions = {}): Promise<MemoryInjection[]> {
    this.assertOpen();
    return this.store.listMemoryInjections(this.tenant, id, parseInjectionList(options));
  }

  /** The graph entities the memory with this id names, as extraction recorded them (strongest role first). */
  async mentions(id: string): Promise<GraphEntity[]> {
    this.assertOpen();
    return mentionedEntities(this.store, this.tenant, id);
  }

  /**
   * Counts by state, kind, tier and scope, index and size. Engram's internal records are left
   * out of the counts unless `internal` asks for them; `internal.live` says how many there are.
   */
  async stats(options: StatsRequest = {}): Promise<EngramStats> {
    this.assertOpen();
    return engineStats(
      { store: this.store, tenant: this.tenant, path: this.path, embedder: this.embedder, samples: this.samples },
      options,
    );
  }

  /**
   * Re-embeds every memory (of every tenant) with the configured embedder and swaps the vector
   * index in one transaction, then extracts every memory's graph again (which retries the ones
   * whose extraction failed, and applies the current extractor to memories stored before it).
   * Needed after changing the embedder; safe to interrupt.
   */
  async reindex(onProgress?: ProgressListener): Promise<ReindexSummary> {
    this.assertOpen();
    return reindexStore(this.lifecycle, onProgress);
  }

  /**
   * Imports records: lines of `export`, new memories as `remember` takes them, and the MCP
   * reference memory server's entity and relation lines (into `graph`), in any mix. Every record
   * is validated first, then memories are embedded and written in one transaction, then the graph
   * lines; a bad record refuses the whole import, naming its line. One activity-log line.
   */
  async import(records: readonly unknown[], options: ImportOptions = {}): Promise<ImportSummary> {
    this.assertOpen();
    const summary = await importRecords({ ...this.lifecycle, graph: this.unloggedGraph }, records, options);
    if (records.length > 0) await this.logActivity(importedLine(summary, options.from));
    return summary;
  }

  /** Every memory of this tenant, archived and superseded ones included, oldest first. */
  export(): AsyncIterable<Memory> {
    this.assertOpen();
    return this.store.iterateMemories({ tenant: this.tenant, includeArchived: true, includeSuperseded: true });
  }

  /** Closes the database and the embedder. Safe to call twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.store.close();
    await this.embedder?.close?.();
  }

  /** Builds memories stamped now, for engine-written records such as the working set. */
  private memoryFactory(): MemoryFactory {
    return (input) => newMemory(input, this.ids(), this.clock.now(), { tenant: this.tenant, scope: DEFAULT_SCOPE });
  }

  private async embedMemories(memories: readonly Memory[], onProgress?: ProgressListener): Promise<Float32Array[] | null> {
    if (!this.embedder) return null;
    // The store's cache answers from the memories' own vectors: what is stored is not embedded again.
    return embedMemories(this.embedder, memories, this.config.embedding.batch_size * 8, onProgress, this.store);
  }

  private assertOpen(): void {
    if (this.closed) throw new EngramError('closed', 'this Engram engine is closed: open a new one with openEngram()');
  }
}
