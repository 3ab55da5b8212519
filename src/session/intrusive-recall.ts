/**
 * After each model step (seed 001): count consecutive tool-only steps, and on every
 * `every_tool_turns`-th produce the reflection nudge, with the memories intrusive recall finds
 * for the last `window_messages` assistant messages (cooldown and MMR applied).
 */
import { activate } from '../activation/activate.js';
import { intrusiveRecallSettings } from '../activation/settings.js';
import { formatNudge, type RecallMessage } from '../context/format.js';
import { InvalidInputError } from '../errors.js';
import type { Memory } from '../model/memory.js';
import type { Receipt } from '../model/receipt.js';
import type { SessionRecord } from '../model/session.js';
import { hasEmbeddings, type SessionDeps, type SessionIdentity, sessionThoughtIds } from './session-deps.js';

/** One model step: what the assistant said and the tools it called. */
export interface AgentStep {
  assistantText?: string | null;
  /** The step's tool calls, in any shape; only their number matters here. */
  toolCalls?: readonly unknown[] | null;
}

/** What `afterStep` returns. */
export interface AfterStep {
  /** The reflection nudge to add before the next model call, or null when none is due. */
  nudge: RecallMessage | null;
  /** Why the nudge holds what it holds: null when no recall ran. */
  receipt: Receipt | null;
  /** The memories attached to the nudge. */
  memories: Memory[];
  /** Consecutive tool-only steps since the last nudge or answer. */
  toolOnlyTurns: number;
}

/** Assistant messages kept for the query window. */
const KEPT_MESSAGES = 20;
/** Characters of the window read as the query (its end: the latest). */
const MAX_QUERY_CHARS = 4000;

/** Checks the step's shape at the edge: messages a caller can act on. */
export function parseStep(step: unknown): { text: string | null; toolCalls: number } {
  if (typeof step !== 'object' || step === null) {
    throw new InvalidInputError('afterStep needs { assistantText, toolCalls }: the step the model just took');
  }
  const { assistantText, toolCalls } = step as AgentStep;
  if (assistantText != null && typeof assistantText !== 'string') throw new InvalidInputError('assistantText must be a string');
  if (toolCalls != null && !Array.isArray(toolCalls))
    throw new InvalidInputError('toolCalls must be a list of the step’s tool calls');
  const text = assistantText?.trim() ? assistantText.trim() : null;
  return { text, toolCalls: toolCalls?.length ?? 0 };
}

export async function reflectAfterStep(
  deps: SessionDeps,
  session: SessionIdentity,
  record: SessionRecord,
  step: { text: string | null; toolCalls: number },
): Promise<AfterStep> {
  const { config } = deps;
  const recent = step.text
    ? [...record.recentAssistantMessages, step.text].slice(-KEPT_MESSAGES)
    : record.recentAssistantMessages;
  // A step that answers without calling tools ends the run of tool-only steps.
  const count = step.toolCalls > 0 ? record.toolOnlyTurns + 1 : 0;
  const due = count >= config.memory.intrusive.every_tool_turns;
  const next: SessionRecord = {
    ...record,
    recentAssistantMessages: recent,
    toolOnlyTurns: due ? 0 : count,
    updatedAt: deps.clock.now().toISOString(),
  };
  await deps.store.saveSession(next);
  if (!due) return { nudge: null, receipt: null, memories: [], toolOnlyTurns: count };
  const query = recent.slice(-config.memory.intrusive.window_messages).join('\n').slice(-MAX_QUERY_CHARS);
  if (!config.memory.intrusive.enabled || query.length === 0 || !(await hasEmbeddings(deps))) {
    return { nudge: formatNudge([]), receipt: null, memories: [], toolOnlyTurns: count };
  }
  const activation = await activate({
    store: deps.store,
    embedder: deps.embedder,
    tenant: deps.tenant,
    sessionId: session.id,
    turn: record.turn,
    path: 'intrusive',
    query,
    scopes: session.scopes,
    now: deps.clock.now(),
    settings: intrusiveRecallSettings(config),
    retrieval: deps.retrieval,
    receiptId: deps.ids(),
    excludeIds: await sessionThoughtIds(deps, session.id),
  });
  await deps.store.recordActivation(activation);
  const memories = activation.hot.map((candidate) => candidate.memory);
  return { nudge: formatNudge(memories), receipt: activation.receipt, memories, toolOnlyTurns: count };
}
