/**
 * Recall before each run, through the SDK's `callModelInputFilter` (the hook it runs right before
 * every model call). A new user message starts a turn: active recall runs once for it and its
 * block goes in as a system item at position 1 — first in the input, right after the agent's
 * instructions. Each later call of the run counts the step the model took, and a due reflection
 * nudge (intrusive recall) goes in after the tool results, as the proxy and the AI SDK middleware
 * do. The SDK keeps what a model was given in its session; a past turn's recall block and nudges
 * are left out of the next call. A failing Engram never fails the run: the turn goes on without
 * recall, and one line is logged. Why this hook and not the SDK's sessions, instructions or
 * hooks: docs/decisions/openai-agents-recall.md.
 */
import type { AgentInputItem, CallModelInputFilter, ModelInputData } from '@openai/agents';

import { applyInsertions, ConversationRecall } from '../../entries/tools.js';
import type { Session } from '../../index.js';
import { isEngramItem, lastUserItem, stepOf, systemItem, transcriptOf } from './input-items.js';

/** One turn (one user message) as the filter follows it. */
interface Turn {
  /** The user message's position and text. */
  key: string;
  /** The user message item: the SDK hands the same object to every call of a run. */
  user: AgentInputItem;
  driver: ConversationRecall;
  /** Input items the last call had: what follows is the model's step since then. */
  seen: number;
  /** Recall failed in this turn: its later calls go on without Engram. */
  failed: boolean;
}

/** The filter for `run(agent, input, { callModelInputFilter })` or `new Runner({ callModelInputFilter })`. */
export function createInputFilter(session: Session, log: (line: string) => void): CallModelInputFilter {
  let turn: Turn | null = null;
  const fail = (current: Turn, error: unknown): void => {
    current.failed = true;
    log(
      `engram openai-agents: recall failed, the run goes on without it: ${error instanceof Error ? error.message : String(error)}`,
    );
  };
  const filter = async ({ modelData }: { modelData: ModelInputData }): Promise<ModelInputData> => {
    const input = modelData.input.filter((item) => !isEngramItem(item));
    const user = lastUserItem(input);
    // No user message: a server-managed conversation sends only what is new; the recall block
    // went with the user message, and nothing here says which turn this is.
    if (!user) return { ...modelData, input };
    if (!turn || startsTurn(turn, user, input.length)) {
      turn = { key: user.key, user: user.item, driver: new ConversationRecall(session), seen: input.length, failed: false };
    } else if (!turn.failed) {
      await turn.driver.afterCall(stepOf(input.slice(turn.seen))).catch((error: unknown) => fail(turn as Turn, error));
    }
    const current = turn;
    current.user = user.item;
    current.seen = input.length;
    if (current.failed) return { ...modelData, input };
    try {
      const prepared = await current.driver.beforeCall(transcriptOf(input));
      return { ...modelData, input: applyInsertions(input, prepared.insertions, systemItem) };
    } catch (error) {
      fail(current, error);
      return { ...modelData, input };
    }
  };
  // The user message keeps its identity across a run's calls, so a run is told from the next one
  // even when both send the same text; the filter never changes an item it is given.
  return Object.assign(filter, { preserveInputIdentity: true });
}

/**
 * Whether this call's user message starts a new turn: another message (position or text), or
 * the same text in a new run — a new object, with nothing new since the last call. Within a run
 * the input only grows, so a filter wrapped without `preserveInputIdentity` (new objects on
 * every call) still keeps a run's calls in one turn.
 */
function startsTurn(turn: Turn, user: { item: AgentInputItem; key: string }, length: number): boolean {
  return turn.key !== user.key || (turn.user !== user.item && length <= turn.seen);
}
