/**
 * Active recall (seed 000): once per user message, before the first model call, run the
 * activation decision (seed 002) for the message and build the system message for position 1.
 */
import { activate } from '../activation/activate.js';
import { activeRecallSettings } from '../activation/settings.js';
import { formatRecallBlock, formatWorkingSet, type RecallMessage } from '../context/format.js';
import { type PendingEmbedding, startEmbedding } from '../embedding/pending-embedding.js';
import type { Memory } from '../model/memory.js';
import type { Receipt } from '../model/receipt.js';
import type { SessionRecord } from '../model/session.js';
import { hasEmbeddings, type SessionDeps, type SessionIdentity, sessionThoughtIds } from './session-deps.js';

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

/**
 * Starts embedding the message for active recall, so the model works while the turn's session
 * record is read and written; null when active recall does not run (turned off, or no
 * embeddings yet — then no model is loaded for it).
 */
export async function startRecallEmbedding(deps: SessionDeps, userMessage: string): Promise<PendingEmbedding | null> {
  if (!deps.config.memory.recall.enabled || deps.embedder === null || !(await hasEmbeddings(deps))) return null;
  return startEmbedding(deps.embedder, queryOf(userMessage));
}

/** Active recall's result for one message, and the writing of what it did. */
export interface PreparedRecall {
  result: BeforeTurn;
  /** Writes the receipt, the injections and the session's last recall; call it once. */
  write(): Promise<void>;
}

/**
 * Active recall for the message whose embedding `startRecallEmbedding` started (none: recall
 * does not run), decided but not yet written down: nothing in the result waits on the writing,
 * so a caller may send the model's request first and write after (see Session.startTurn).
 */
export async function prepareRecall(
  deps: SessionDeps,
  session: SessionIdentity,
  record: SessionRecord,
  userMessage: string,
  embedding: PendingEmbedding | null,
): Promise<PreparedRecall> {
  const { store, config } = deps;
  if (embedding === null) {
    return { result: { message: null, receipt: null, memories: [], turn: record.turn }, write: async () => undefined };
  }
  const activation = await activate({
    store,
    embedder: deps.embedder,
    embedding,
    tenant: deps.tenant,
    sessionId: session.id,
    turn: record.turn,
    path: 'active',
    query: queryOf(userMessage),
    scopes: session.scopes,
    now: deps.clock.now(),
    settings: activeRecallSettings(config),
    retrieval: deps.retrieval,
    receiptId: deps.ids(),
    excludeIds: await sessionThoughtIds(deps, session.id),
    persistWorkingSet: config.working_set.persist
      ? (set) =>
          deps.persistWorkingSet({
            scope: set.scope,
            text: formatWorkingSet(set),
            itemIds: set.items.map((item) => item.memory.id),
          })
      : undefined,
  });
  const hot = activation.hot.map((candidate) => candidate.memory);
  const write = async () => {
    await store.recordActivation(activation);
    await store.saveSession({
      ...record,
      lastRecall: { turn: record.turn, memoryIds: [...activation.pinned, ...hot].map((memory) => memory.id) },
    });
  };
  const result: BeforeTurn = {
    message: formatRecallBlock({
      workingSet: activation.workingSet ? formatWorkingSet(activation.workingSet) : null,
      pinned: activation.pinned,
      memories: hot,
    }),
    receipt: activation.receipt,
    memories: [...(activation.workingSet?.items.map((item) => item.memory) ?? []), ...activation.pinned, ...hot],
    turn: record.turn,
  };
  return { result, write };
}

function queryOf(userMessage: string): string {
  return userMessage.slice(0, MAX_QUERY_CHARS);
}
