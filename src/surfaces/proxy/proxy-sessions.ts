/**
 * The conversations the proxy is following: one ConversationRecall per session (and scope),
 * kept while the process runs, the least recently used dropped past a bound. A dropped or
 * restarted conversation resumes from the store; it only re-runs recall for its current message.
 * Each also keeps the last step it was given to count, for the next request's timing.
 */
import { ConversationRecall } from '../../entries/tools.js';
import type { AfterStep, AgentStep, Engram } from '../../index.js';
import type { CountedStep } from './recall-timing.js';

/** Conversations kept in memory. */
const MAX_CONVERSATIONS = 1000;

export class ProxySessions {
  private readonly engram: Engram;
  private readonly conversations = new Map<string, ConversationRecall>();
  private readonly lastSteps = new WeakMap<ConversationRecall, CountedStep>();

  constructor(engram: Engram) {
    this.engram = engram;
  }

  /** The conversation of session `id` in `scope`. */
  conversation(id: string, scope: string): ConversationRecall {
    const key = `${scope}\u0000${id}`;
    const known = this.conversations.get(key);
    if (known) {
      // Map order is insertion order: re-inserting marks it most recently used.
      this.conversations.delete(key);
      this.conversations.set(key, known);
      return known;
    }
    // The model's request goes out before a turn's receipt is written: the writing overlaps the model's work.
    const created = new ConversationRecall(this.engram.session({ id, scope }), { writesAfterCall: true });
    this.conversations.set(key, created);
    if (this.conversations.size > MAX_CONVERSATIONS) {
      const oldest = this.conversations.keys().next().value;
      if (oldest !== undefined) this.conversations.delete(oldest);
    }
    return created;
  }

  /** Counts a model step of `conversation` (its nudge, when due, goes into the next request). */
  countStep(conversation: ConversationRecall, step: AgentStep): Promise<AfterStep> {
    const counted = { calledAt: performance.now(), result: conversation.afterCall(step) };
    this.lastSteps.set(conversation, counted);
    return counted.result;
  }

  /** The step of `conversation` counted last, once: the next request's to account for. */
  takeLastStep(conversation: ConversationRecall): CountedStep | undefined {
    const step = this.lastSteps.get(conversation);
    this.lastSteps.delete(conversation);
    return step;
  }
}
