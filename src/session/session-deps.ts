/**
 * What a session needs from the engine that opened it, and what every part of the turn loop
 * shares: the session's identity and its record in the store.
 */
import type { EngramConfig } from '../config/schema.js';
import type { Embedder } from '../embedding/embedder.js';
import { assertCompatible, NO_EMBEDDER_ID } from '../embedding/index-compatibility.js';
import type { Clock } from '../model/clock.js';
import type { IdGenerator } from '../model/ids.js';
import type { SessionRecord } from '../model/session.js';
import type { StoredWorkingSet } from '../model/working-set.js';
import type { RetrievalSettings } from '../retrieval/hybrid-search.js';
import type { Store } from '../store/store.js';
import type { ToolEngine } from '../tools/tool.js';

export interface SessionDeps {
  store: Store;
  /** Embeds queries; null without an embedder. */
  embedder: Embedder | null;
  config: EngramConfig;
  retrieval: RetrievalSettings;
  clock: Clock;
  ids: IdGenerator;
  tenant: string;
  /** The engine, for the tools `session.tools()` binds. */
  engram: ToolEngine;
  /** Stores the working set as `working_set:<scope>`; returns its memory id. */
  persistWorkingSet(workingSet: StoredWorkingSet): Promise<string | null>;
}

/** Who the session is. */
export interface SessionIdentity {
  id: string;
  scope: string;
  /** Most specific first. */
  scopes: readonly string[];
}

/** The session's record, created on first use. */
export async function loadSessionRecord(deps: SessionDeps, session: SessionIdentity): Promise<SessionRecord> {
  const existing = await deps.store.getSession(deps.tenant, session.id);
  if (existing) return existing;
  const at = deps.clock.now().toISOString();
  const record: SessionRecord = {
    tenant: deps.tenant,
    id: session.id,
    scope: session.scope,
    turn: 0,
    toolOnlyTurns: 0,
    recentAssistantMessages: [],
    lastRecall: null,
    startedAt: at,
    updatedAt: at,
    endedAt: null,
  };
  await deps.store.saveSession(record);
  return record;
}

/** Seed 000: recall runs only once the memory has embeddings (and they match the embedder). */
export async function hasEmbeddings(deps: SessionDeps): Promise<boolean> {
  if (deps.embedder === null) return false;
  await assertCompatible(deps.store, deps.embedder);
  const info = await deps.store.getIndexInfo();
  return info !== null && info.model !== NO_EMBEDDER_ID;
}

/** Thoughts of one session read into its context at most (the newest). */
export const MAX_CONTEXT_THOUGHTS = 50;

/**
 * The ids of the thoughts `context()` shows this session (its newest): already in its context,
 * so never recalled into it. Older ones can be recalled like any memory.
 */
export async function sessionThoughtIds(deps: SessionDeps, sessionId: string): Promise<Set<string>> {
  const thoughts = await deps.store.listMemories(
    { tenant: deps.tenant, kinds: ['thought'], sessionId },
    { limit: MAX_CONTEXT_THOUGHTS, order: 'newest' },
  );
  return new Set(thoughts.map((thought) => thought.id));
}
