/**
 * A session: one conversation of an agent, with its turn counter and injection history kept in
 * the store so it can resume in another process. `beforeTurn` is active recall (seed 000):
 * once per user message, before the first model call, it runs activation (seed 002) and returns
 * the system message for position 1 with its receipt.
 */
import { activate } from '../activation/activate.js';
import { activeRecallSettings } from '../activation/settings.js';
import type { EngramConfig } from '../config/schema.js';
import { formatRecallBlock, formatWorkingSet, type RecallMessage } from '../context/format.js';
import type { Embedder } from '../embedding/embedder.js';
import { assertCompatible, NO_EMBEDDER_ID } from '../engine/vector-index.js';
import type { StoredWorkingSet } from '../engine/working-set-memory.js';
import { InvalidInputError } from '../errors.js';
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import type { Memory } from '../model/memory.js';
import type { Receipt } from '../model/receipt.js';
import type { SessionRecord } from '../model/session.js';
import type { RetrievalSettings } from '../retrieval/hybrid-search.js';
import type { Store } from '../store/store.js';

/** What a session needs from the engine that opened it. */
export interface SessionDeps {
  store: Store;
  /** Embeds queries; null without an embedder. */
  embedder: Embedder | null;
  config: EngramConfig;
  retrieval: RetrievalSettings;
  clock: Clock;
  ids: IdGenerator;
  tenant: string;
  /** Stores the working set as `working_set:<scope>`; returns its memory id. */
  persistWorkingSet(workingSet: StoredWorkingSet): Promise<string | null>;
}

/** What `beforeTurn` returns. */
export interface BeforeTurn {
  /** The system message to insert at position 1, or null when nothing is injected. */
  message: RecallMessage | null;
  /** Why: null only when active recall did not run (disabled, or no embeddings yet). */
  receipt: Receipt | null;
  /** The memories injected, in order (working-set items, pinned rules, then the hot lane). */
  memories: Memory[];
  turn: number;
}

/** Longest user message read for recall; the model reads at most 128 tokens of it anyway. */
const MAX_QUERY_CHARS = 4000;

export class Session {
  readonly id: string;
  readonly scope: string;
  /** The scopes recall sees, most specific first. */
  readonly scopes: readonly string[];
  private readonly deps: SessionDeps;

  /** @internal use `engram.session()` */
  constructor(deps: SessionDeps, options: { id: string; scope: string; scopes: readonly string[] }) {
    this.deps = deps;
    this.id = options.id;
    this.scope = options.scope;
    this.scopes = options.scopes;
  }

  /** Starts the session, or resumes it when it was started before (in any process). */
  async start(): Promise<SessionRecord> {
    return this.load();
  }

  /** Active recall for one user message. Call it once per user message, before the first model call. */
  async beforeTurn(userMessage: string): Promise<BeforeTurn> {
    if (typeof userMessage !== 'string' || userMessage.trim().length === 0) {
      throw new InvalidInputError('beforeTurn needs the user message as a non-empty string');
    }
    const { store, config, tenant } = this.deps;
    const record = await this.load();
    const now = this.deps.clock.now();
    const next: SessionRecord = { ...record, turn: record.turn + 1, toolOnlyTurns: 0, updatedAt: now.toISOString() };
    await store.saveSession(next);
    if (!config.memory.recall.enabled || !(await this.hasEmbeddings())) {
      return { message: null, receipt: null, memories: [], turn: next.turn };
    }
    const activation = await activate({
      store,
      embedder: this.deps.embedder,
      tenant,
      sessionId: this.id,
      turn: next.turn,
      path: 'active',
      query: userMessage.slice(0, MAX_QUERY_CHARS),
      scopes: this.scopes,
      now,
      settings: activeRecallSettings(config),
      retrieval: this.deps.retrieval,
      receiptId: this.deps.ids(),
      persistWorkingSet: config.working_set.persist
        ? (set) =>
            this.deps.persistWorkingSet({
              scope: set.scope,
              text: formatWorkingSet(set),
              itemIds: set.items.map((item) => item.memory.id),
            })
        : undefined,
    });
    await store.recordActivation(activation);
    const hot = activation.hot.map((candidate) => candidate.memory);
    return {
      message: formatRecallBlock({
        workingSet: activation.workingSet ? formatWorkingSet(activation.workingSet) : null,
        pinned: activation.pinned,
        memories: hot,
      }),
      receipt: activation.receipt,
      memories: [...(activation.workingSet?.items.map((item) => item.memory) ?? []), ...activation.pinned, ...hot],
      turn: next.turn,
    };
  }

  /** Marks the session ended; it can still be resumed. */
  async end(): Promise<void> {
    const record = await this.load();
    const at = this.deps.clock.now().toISOString();
    await this.deps.store.saveSession({ ...record, endedAt: at, updatedAt: at });
  }

  private async load(): Promise<SessionRecord> {
    const { store, tenant, clock } = this.deps;
    const existing = await store.getSession(tenant, this.id);
    if (existing) return existing;
    const at = clock.now().toISOString();
    const record: SessionRecord = {
      tenant,
      id: this.id,
      scope: this.scope,
      turn: 0,
      toolOnlyTurns: 0,
      recentAssistantMessages: [],
      startedAt: at,
      updatedAt: at,
      endedAt: null,
    };
    await store.saveSession(record);
    return record;
  }

  /** Seed 000: active recall runs only once the memory has embeddings. */
  private async hasEmbeddings(): Promise<boolean> {
    if (this.deps.embedder === null) return false;
    await assertCompatible(this.deps.store, this.deps.embedder);
    const info = await this.deps.store.getIndexInfo();
    return info !== null && info.model !== NO_EMBEDDER_ID;
  }
}
