/**
 * The facade: `openEngram` wires a store, an embedder, the configuration and a clock into one
 * engine with the operations every surface uses. It is the only place (with tests) that
 * constructs concrete backends.
 */
import { cooldownDecay, secondsSince } from '../activation/cooldown.js';
import { cooldownFor } from '../activation/settings.js';
import { parseConfig } from '../config/load.js';
import type { ConfigInput, EngramConfig } from '../config/schema.js';
import { withEmbeddingCache } from '../embedding/cached-embedder.js';
import { withCoalescing } from '../embedding/coalescing-embedder.js';
import { createEmbedderFromConfig } from '../embedding/create-embedder.js';
import type { Embedder } from '../embedding/embedder.js';
import { type EmbedderLanguages, embedderLanguages } from '../embedding/embedder-languages.js';
import { assertCompatible, describeEmbedder, NO_EMBEDDER_ID, recordEmbedder } from '../embedding/index-compatibility.js';
import { EngramError, InvalidInputError, NotFoundError } from '../errors.js';
import { type Clock, systemClock } from '../model/clock.js';
import { type IdGenerator, ulidGenerator } from '../model/ids.js';
import { INTERNAL_KINDS } from '../model/internal-kinds.js';
import type { ListMemoriesOptions } from '../model/list-request.js';
import { DEFAULT_SCOPE, type Kind, type Memory, type Tier } from '../model/memory.js';
import {
  describeIssues,
  type MemoryInput,
  MemoryInputSchema,
  type MemoryPatch,
  MemoryPatchSchema,
  type ParsedMemoryInput,
} from '../model/memory-input.js';
import {
  type InjectionListOptions,
  InjectionListRequestSchema,
  type SessionListOptions,
  SessionListRequestSchema,
} from '../model/page-request.js';
import type { Receipt } from '../model/receipt.js';
import type { SearchOptions } from '../model/search-request.js';
import type { ActivityEntry, ActivityLabel } from '../model/session.js';
import type { ReceiptQueryOptions, SessionOptions } from '../model/session-request.js';
import { CalibrationSamples } from '../retrieval/calibration-sample.js';
import { hybridSearch, type SearchHit } from '../retrieval/hybrid-search.js';
import { describeStoreCalibration, type StoreCalibrationInfo } from '../retrieval/store-calibration.js';
import { KeptMemoryWords } from '../retrieval/word-signals.js';
import { Session } from '../session/session.js';
import type { GraphCounts, MemoryFilter, MemoryInjection, SessionSummary, Store, StoreStats } from '../store/store.js';
import type { GraphEntity, KnowledgeGraph } from '../tools/knowledge-graph.js';
import type { ForgetOutcome, ToolEngine } from '../tools/tool-engine.js';
import { type ActivityLine, forgottenLine, importedLine, rememberedLine, restoredLine, updatedLine } from './activity-lines.js';
import { describeMessages } from './describe-messages.js';
import { embedMemories, type ProgressListener } from './embed-batches.js';
import type { Extractor } from './graph-extraction.js';
import { GraphSync } from './graph-sync.js';
import { planGraphImport, writeGraphImport } from './import-graph.js';
import { importError, type ImportOptions, type ImportSummary, parseImport } from './import-records.js';
import { writeRecords } from './import-write.js';
import { EngramKnowledgeGraph, toGraphEntity } from './knowledge-graph.js';
import { parseListRequest } from './list-request.js';
import { LoggedKnowledgeGraph } from './logged-knowledge-graph.js';
import { carryForward, newMemory, patchMemory, supersedeRepeatedKeys } from './new-memory.js';
import { openConfiguredStore } from './open-store.js';
import { parseSearchRequest, retrievalSettings } from './search-request.js';
import { parseReceiptQuery, parseSessionOptions } from './session-request.js';
import { type MemoryFactory, persistWorkingSet } from './working-set-memory.js';

/** How to open an engine. Everything is optional. */
export interface OpenEngramOptions {
  /** Database file; unused when config `store.url` names a PostgreSQL database. @default config `store.path` (".engram/engram.db") */
  path?: string;
  /** Settings of `engram.toml`'s shape; missing keys take the seeds' defaults. */
  config?: ConfigInput;
  /** The embedder; `null` stores no vectors (lexical search only). @default from config `[embedding]` */
  embedder?: Embedder | null;
  /** The storage backend. @default PostgreSQL at config `store.url` when set, else SQLite at `path` */
  store?: Store;
  clock?: Clock;
  ids?: IdGenerator;
  /** Tenant used when a call names none. @default config `store.tenant` */
  tenant?: string;
  /**
   * @internal The graph extractor run on every write (tests inject one that fails).
   * @default the offline extractor of `src/graph/`
   */
  extractor?: Extractor;
  /** Refuse to create a database that does not exist yet (read-only commands). @default false */
  mustExist?: boolean;
  /** Create the database file's folder when it is missing. @default true for config `store.path`, false for another `path` */
  createDirectory?: boolean;
}

/** Engine statistics: the store's counts plus the embedder in use. */
export interface EngramStats extends StoreStats {
  path: string | null;
  embedder: string;
  /**
   * The languages the embedder reads, when Engram knows them: the built-in model reads English
   * only, and this says how to search other languages by meaning; null for another embedder or none.
   */
  embedderLanguages: EmbedderLanguages | null;
  /** The knowledge graph: entities, live and ended relations, mentions. */
  graph: GraphCounts;
  /** How relevance is calibrated on this store: its sample, whether it is young, the curve. */
  calibration: StoreCalibrationInfo;
  /**
   * Engram's internal records (working sets, handoff notes, scratchpads; `INTERNAL_KINDS`):
   * how many are live, and whether the counts above include them. They do only when asked
   * (`stats({ internal: true })`).
   */
  internal: { live: number; counted: boolean };
}

/** What `stats` takes. */
export interface StatsRequest {
  /**
   * Count Engram's internal records (working sets, handoff notes, scratchpads) with the
   * memories, by state, kind, tier and scope.
   * @default false
   */
  internal?: boolean;
}

/** What `reindex` did. */
export interface ReindexSummary {
  /** Memories re-embedded and re-extracted, of every tenant. */
  memories: number;
  embedder: string;
  dimensions: number;
  /** Memories whose graph extraction failed again (they stay counted in `stats().graph.extractionFailures`). */
  extractionFailures: number;
}

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
    store: opened.store,
    embedder: raw,
    clock,
    ids: options.ids ?? ulidGenerator(clock),
    tenant: options.tenant ?? config.store.tenant,
    path: opened.path,
    extractor: options.extractor,
  });
}

/** How a write names itself in the activity log. */
export interface WriteOptions {
  /** The line's action and words, when the caller knows them better (a tool's name). @default the engine's own */
  activity?: ActivityLabel;
}

/** The engine. Create it with `openEngram`. */
export class Engram implements ToolEngine {
  readonly config: EngramConfig;
  readonly tenant: string;
  /** The database file, when the engine opened one. */
  readonly path: string | null;
  private readonly store: Store;
  /** Embeds memories, through the database's cache: the same text is never embedded twice. */
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

  /** @internal use `openEngram` */
  constructor(parts: {
    config: EngramConfig;
    store: Store;
    embedder: Embedder | null;
    clock: Clock;
    ids: IdGenerator;
    tenant: string;
    path: string | null;
    extractor?: Extractor | undefined;
  }) {
    this.config = parts.config;
    this.store = parts.store;
    this.embedder = parts.embedder ? withEmbeddingCache(parts.embedder, parts.store) : null;
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
    const [memory] = await this.storeMemories([typeof input === 'string' ? { text: input } : input], undefined, options.activity);
    return memory as Memory;
  }

  /**
   * Stores several memories atomically: all of them or none. A memory with the `key` of a live
   * memory in the same scope, or naming one in `supersedes`, replaces it; the old one is kept
   * and marked superseded. The activity log gets one line for the call.
   */
  async rememberMany(inputs: readonly (MemoryInput | string)[], onProgress?: ProgressListener): Promise<Memory[]> {
    return this.storeMemories(inputs, onProgress);
  }

  private async storeMemories(
    inputs: readonly (MemoryInput | string)[],
    onProgress: ProgressListener | undefined,
    label?: ActivityLabel,
  ): Promise<Memory[]> {
    this.assertOpen();
    const parsed = inputs.map((input, index) => {
      const result = MemoryInputSchema.safeParse(typeof input === 'string' ? { text: input } : input);
      if (!result.success) {
        throw new InvalidInputError(`${inputs.length > 1 ? `memory ${index + 1}: ` : ''}${describeIssues(result.error)}`);
      }
      // The tenant is the isolation boundary: an engine writes only its own.
      if (result.data.tenant !== undefined && result.data.tenant !== this.tenant) {
        throw new InvalidInputError(
          `${inputs.length > 1 ? `memory ${index + 1}: ` : ''}tenant ${result.data.tenant} is not this engine's tenant (${this.tenant}): open one for it with openEngram({ tenant })`,
        );
      }
      return result.data;
    });
    await assertCompatible(this.store, this.embedder);
    const { memories, replaced } = await this.planNewMemories(parsed);
    // Side by side: a worker pool embeds while this thread extracts the graph.
    const [vectors, graph] = await Promise.all([this.embedMemories(memories, onProgress), this.graphSync.prepare(memories)]);
    onProgress?.({ phase: 'writing', done: 0, total: memories.length });
    await this.store.commit({
      insert: memories.map((memory, i) => ({ memory, vector: vectors?.[i] ?? null })),
      update: replaced.map((memory) => ({ memory })),
      // Another writer (another server, or another request) may have taken a key since findByKey.
      replaceKeyHolders: true,
    });
    await recordEmbedder(this.store, this.embedder, vectors ?? []);
    // A superseded memory's relations end: the newer memory states what holds now.
    await this.graphSync.record(
      this.tenant,
      graph,
      replaced.map((memory) => memory.id),
    );
    await this.logActivity(rememberedLine(memories, replaced, label));
    onProgress?.({ phase: 'writing', done: memories.length, total: memories.length });
    return memories;
  }

  /**
   * New memories built from validated input, stamped now, and the stored memories they replace
   * (by key, or named in `supersedes`), marked superseded; nothing is written. An import gives
   * `where`, an input's line, and is refused with it.
   */
  private async planNewMemories(
    parsed: readonly ParsedMemoryInput[],
    where: (index: number) => string | undefined = () => undefined,
  ): Promise<{ memories: Memory[]; replaced: Memory[] }> {
    const now = this.clock.now();
    // A new version (named in `supersedes`, or holding a live memory's key) carries the old one forward.
    const previous = await Promise.all(parsed.map((input, index) => this.previousVersion(input, where(index))));
    const memories = parsed.map((input, index) => {
      const before = previous[index] ?? { memory: null, via: 'key' as const };
      return newMemory(carryForward(input, before.memory, before.via), this.ids(), now, {
        tenant: this.tenant,
        scope: DEFAULT_SCOPE,
      });
    });
    supersedeRepeatedKeys(memories, now);
    const replaced = new Map<string, Memory>();
    for (const [index, memory] of memories.entries()) {
      const input = parsed[index];
      const targets = [
        input?.supersedes ? (previous[index]?.memory ?? null) : null,
        memory.key && memory.supersededBy === null ? await this.store.findByKey(memory.tenant, memory.scope, memory.key) : null,
      ];
      for (const old of targets) {
        if (old && !replaced.has(old.id)) {
          replaced.set(old.id, { ...old, supersededBy: memory.id, updatedAt: now.toISOString() });
        }
      }
    }
    return { memories, replaced: [...replaced.values()] };
  }

  /** The memory with this id, or null. Archived and superseded memories are returned too. */
  async get(id: string): Promise<Memory | null> {
    this.assertOpen();
    return this.store.getMemory(this.tenant, id);
  }

  /** Changes fields of a memory; new text is re-embedded. */
  async update(id: string, patch: MemoryPatch): Promise<Memory> {
    this.assertOpen();
    const result = MemoryPatchSchema.safeParse(patch);
    if (!result.success) throw new InvalidInputError(describeIssues(result.error));
    const current = await this.require(id);
    const next = patchMemory(current, result.data, this.clock.now());
    const textChanged = next.text !== current.text || next.context !== current.context;
    if (textChanged) await assertCompatible(this.store, this.embedder);
    const vectors = textChanged ? await this.embedMemories([next]) : null;
    const reextract = textChanged || next.occurredAt !== current.occurredAt || next.kind !== current.kind;
    const graph = reextract ? await this.graphSync.prepare([next]) : { extractions: [], failures: [] };
    await this.store.commit({
      update: [textChanged ? { memory: next, vector: vectors?.[0] ?? null } : { memory: next }],
    });
    if (reextract) await this.graphSync.record(this.tenant, graph, graph.extractions.length === 0 ? [next.id] : []);
    await this.logActivity(updatedLine(current, next));
    return next;
  }

  /**
   * Forgets a memory. By default it is archived: hidden from search and lists, still in the
   * database and in exports. With `hard: true` it is deleted for good, with its index entries.
   */
  async forget(id: string, options: { hard?: boolean } & WriteOptions = {}): Promise<ForgetOutcome> {
    this.assertOpen();
    const memory = await this.require(id);
    if (options.hard) {
      await this.graphSync.forget(this.tenant, [id]);
      await this.store.purgeMemories(this.tenant, [id]);
      await this.logActivity(forgottenLine(memory, true, options.activity));
      return { id, outcome: 'deleted' };
    }
    // Forgetting a forgotten memory writes nothing, so it logs nothing.
    if (memory.archivedAt === null) {
      const at = this.clock.now().toISOString();
      await this.store.commit({ update: [{ memory: { ...memory, archivedAt: at, updatedAt: at } }] });
      await this.graphSync.forget(this.tenant, [id]);
      await this.logActivity(forgottenLine(memory, false, options.activity));
    }
    return { id, outcome: 'archived' };
  }

  /**
   * Brings a forgotten (archived) memory back in place: the same id, record and vector, nothing
   * re-embedded. Its graph mentions and relations, which forgetting ended, are extracted again
   * (a live memory's graph is what its text names). Refused when a live memory now holds its key.
   */
  async restore(id: string): Promise<Memory> {
    this.assertOpen();
    const memory = await this.require(id);
    if (memory.archivedAt === null) return memory;
    if (memory.key !== null && memory.supersededBy === null) {
      const holder = await this.store.findByKey(this.tenant, memory.scope, memory.key);
      if (holder && holder.id !== memory.id) {
        throw new InvalidInputError(
          `cannot restore: memory ${holder.id} now holds the key ${memory.key} in ${memory.scope}; forget that one first`,
        );
      }
    }
    const restored = { ...memory, archivedAt: null, updatedAt: this.clock.now().toISOString() };
    // No vector in the update: the stored one stays.
    await this.store.commit({ update: [{ memory: restored }] });
    if (restored.supersededBy === null) await this.graphSync.record(this.tenant, await this.graphSync.prepare([restored]));
    await this.logActivity(restoredLine(restored));
    return restored;
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
      filter: { ...this.filter(request, false), ...request.timeRange, excludeKinds: request.excludeKinds },
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
    if (options.day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.day)) {
      throw new InvalidInputError(`day must be a date like 2026-01-31 (got ${options.day})`);
    }
    return this.store.listActivity(this.tenant, { day: options.day, limit: options.limit ?? 1000 });
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
    const result = SessionListRequestSchema.safeParse(options);
    if (!result.success) throw new InvalidInputError(describeMessages(result.error));
    return this.store.listSessions(this.tenant, { limit: result.data.limit ?? 50, after: result.data.after });
  }

  /** The turns that injected the memory with this id, the latest first (none for an unknown id). */
  async injections(id: string, options: InjectionListOptions = {}): Promise<MemoryInjection[]> {
    this.assertOpen();
    const result = InjectionListRequestSchema.safeParse(options);
    if (!result.success) throw new InvalidInputError(describeMessages(result.error));
    return this.store.listMemoryInjections(this.tenant, id, { limit: result.data.limit ?? 50, offset: result.data.offset ?? 0 });
  }

  /** The graph entities the memory with this id names, as extraction recorded them (strongest role first). */
  async mentions(id: string): Promise<GraphEntity[]> {
    this.assertOpen();
    const mentions = await this.store.listMentionsInMemories(this.tenant, [id]);
    const entities = new Map(
      (await this.store.getEntities(this.tenant, [...new Set(mentions.map((mention) => mention.entityId))])).map((entity) => [
        entity.id,
        entity,
      ]),
    );
    return [...new Set(mentions.map((mention) => mention.entityId))].flatMap((entityId) => {
      const entity = entities.get(entityId);
      return entity ? [toGraphEntity(entity)] : [];
    });
  }

  /**
   * Counts by state, kind, tier and scope, index and size. Engram's internal records are left
   * out of the counts unless `internal` asks for them; `internal.live` says how many there are.
   */
  async stats(options: StatsRequest = {}): Promise<EngramStats> {
    this.assertOpen();
    const counted = options.internal === true;
    const [stats, internal, graph, sample] = await Promise.all([
      this.store.stats(this.tenant, { excludeKinds: counted ? undefined : INTERNAL_KINDS }),
      this.store.countMemories({ tenant: this.tenant, kinds: INTERNAL_KINDS }),
      this.store.countGraph(this.tenant),
      this.samples.sampleFor(this.tenant),
    ]);
    return {
      ...stats,
      path: this.path,
      embedder: this.embedder ? this.embedder.id : NO_EMBEDDER_ID,
      embedderLanguages: this.embedder ? embedderLanguages(this.embedder.id) : null,
      graph,
      calibration: describeStoreCalibration(sample, this.queryEmbedder !== null),
      internal: { live: internal, counted },
    };
  }

  /**
   * Re-embeds every memory (of every tenant) with the configured embedder and swaps the vector
   * index in one transaction, then extracts every memory's graph again (which retries the ones
   * whose extraction failed, and applies the current extractor to memories stored before it).
   * Needed after changing the embedder; safe to interrupt.
   */
  async reindex(onProgress?: ProgressListener): Promise<ReindexSummary> {
    this.assertOpen();
    const all: Memory[] = [];
    for await (const memory of this.store.iterateAllMemories()) all.push(memory);
    const vectors = await this.embedMemories(all, onProgress);
    const info = describeEmbedder(this.embedder) ?? {
      model: (this.embedder as Embedder).id,
      dimensions: vectors?.[0]?.length ?? 0,
    };
    onProgress?.({ phase: 'writing', done: 0, total: all.length });
    await this.store.replaceVectorIndex(
      info,
      vectors ? all.map((memory, i) => ({ id: memory.id, vector: vectors[i] as Float32Array })) : [],
    );
    // Memories stored before extraction existed (or with it off), or whose extraction failed, get their graph now.
    const graph = await this.graphSync.reextract(all);
    onProgress?.({ phase: 'writing', done: all.length, total: all.length });
    return { memories: all.length, embedder: info.model, dimensions: info.dimensions, extractionFailures: graph.failed };
  }

  /**
   * Imports records: lines of `export`, new memories as `remember` takes them, and the MCP
   * reference memory server's entity and relation lines (into `graph`), in any mix. Every record
   * is validated first, then memories are embedded and written in one transaction, then the graph
   * lines; a bad record refuses the whole import, naming its line. One activity-log line.
   */
  async import(records: readonly unknown[], options: ImportOptions = {}): Promise<ImportSummary> {
    this.assertOpen();
    const parsed = parseImport(records, this.tenant, options);
    const memoryCount = parsed.exported.length + parsed.created.length;
    if (memoryCount > 0) await assertCompatible(this.store, this.embedder);
    const graphPlan = await planGraphImport(this.unloggedGraph, parsed.entities, parsed.relations);
    const { memories: created, replaced } = await this.planNewMemories(
      parsed.created.map((record) => record.input),
      (index) => parsed.created[index]?.where,
    );
    const extracted = await this.graphSync.prepare([...parsed.exported, ...created]);
    const counts = await writeRecords({
      exported: parsed.exported,
      created,
      superseded: replaced,
      options,
      store: this.store,
      tenant: this.tenant,
      embed: (memories, onProgress) => this.embedMemories(memories, onProgress),
      afterWrite: async (vectors) => {
        await recordEmbedder(this.store, this.embedder, vectors);
        await this.graphSync.record(
          this.tenant,
          extracted,
          replaced.map((memory) => memory.id),
        );
      },
    });
    const added = await writeGraphImport(this.unloggedGraph, graphPlan);
    const summary: ImportSummary = {
      ...counts,
      graph: { entities: parsed.entities.length, relations: parsed.relations.length, ...added },
    };
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
    return embedMemories(this.embedder, memories, this.config.embedding.batch_size * 8, onProgress);
  }

  private filter(
    options: {
      scopes?: readonly string[] | undefined;
      kinds?: readonly Kind[] | undefined;
      tiers?: readonly Tier[] | undefined;
    },
    all: boolean,
  ): MemoryFilter {
    return {
      tenant: this.tenant,
      scopes: options.scopes,
      kinds: options.kinds,
      tiers: options.tiers,
      includeArchived: all,
      includeSuperseded: all,
    };
  }

  private async require(id: string): Promise<Memory> {
    const memory = await this.store.getMemory(this.tenant, id);
    if (!memory) throw new NotFoundError(`no memory with id ${id}: list ids with \`engram list\``);
    return memory;
  }

  /**
   * The memory `input` is a new version of: the live one it names in `supersedes` (which must
   * exist; an import's `where` names its line), or the live holder of its key in its scope; null
   * memory when neither.
   */
  private async previousVersion(
    input: ParsedMemoryInput,
    where: string | undefined,
  ): Promise<{ memory: Memory | null; via: 'supersedes' | 'key' }> {
    if (input.supersedes) return { memory: await this.requireLive(this.tenant, input.supersedes, where), via: 'supersedes' };
    if (!input.key) return { memory: null, via: 'key' };
    return { memory: await this.store.findByKey(this.tenant, input.scope ?? DEFAULT_SCOPE, input.key), via: 'key' };
  }

  /** The live memory `supersedes` names; an import (`where`, a line) is refused with its line. */
  private async requireLive(tenant: string, id: string, where?: string): Promise<Memory> {
    const memory = await this.store.getMemory(tenant, id);
    const problem = !memory
      ? 'no memory with that id'
      : memory.archivedAt !== null || memory.supersededBy !== null
        ? `it is already ${memory.archivedAt ? 'archived' : 'superseded'}`
        : null;
    if (problem === null) return memory as Memory;
    const message = `cannot supersede ${id}: ${problem}`;
    if (where !== undefined) throw importError(where, `supersedes: ${message}`, 'name a live memory, or leave supersedes out');
    throw memory ? new InvalidInputError(message) : new NotFoundError(message);
  }

  private assertOpen(): void {
    if (this.closed) throw new EngramError('closed', 'this Engram engine is closed: open a new one with openEngram()');
  }
}
