/**
 * Drives a Session from a whole transcript, for callers that see every model call but not the
 * turn loop (the AI SDK middleware, the OpenAI-compatible proxy): it notices a new user message
 * and runs active recall once for it (seed 000), counts the model's steps (seed 001), and says
 * where the recall block and the reflection nudges go in each call's messages. It holds no recall
 * logic: `beforeTurn` and `afterStep` decide everything, exactly as in a hand-written loop.
 */
import type { RecallMessage } from '../context/format.js';
import type { AfterStep, AgentStep, BeforeTurn } from './session.js';

/** One message of the transcript as the driver reads it: its role, and its text for user messages. */
export interface TranscriptMessage {
  role: string;
  /** The text of a user message (null when it has none, e.g. an image only). */
  text?: string | null;
}

/** A message to insert before the transcript message at `index` (`index` = length: at the end). */
export interface TranscriptInsertion {
  index: number;
  message: RecallMessage;
}

/** What `beforeCall` returns: where to insert what, and active recall's result when it ran for this call. */
export interface CallPreparation {
  insertions: TranscriptInsertion[];
  /** Active recall's result, on the call that starts a turn (null on the turn's later calls). */
  recall: BeforeTurn | null;
  /**
   * Settles once active recall's receipt, injections and the session's last recall are written:
   * already, unless the driver writes after the call (`writesAfterCall`); then it rejects with
   * the write's error, for the caller to report.
   */
  written: Promise<void>;
  /**
   * Tells the driver this model call is over and the model received it — its answer passed on —
   * so a turn's writing left until after the call (`writesAfterCall`) starts now. Calling it
   * again, or with nothing left to write, does nothing.
   */
  callEnded(): void;
  /**
   * Tells the driver this model call failed before the model received it (the model's server
   * answered with an error, or could not be reached), so the turn's recall was shown to no model.
   * With `writesAfterCall`, its receipt and injections are then not written: they wait for a
   * retry of the same user message that succeeds, and are dropped when a new user message comes
   * first, so receipts and repeat suppression count only what a model was given. Without it the
   * turn was written already, and this does nothing.
   */
  callFailed(): void;
}

/** What the driver needs of a session: the two calls of the turn loop. */
export interface TurnLoopSession {
  readonly id: string;
  beforeTurn(userMessage: string): Promise<BeforeTurn>;
  afterStep(step: AgentStep): Promise<AfterStep>;
  /** `beforeTurn` with the writing left to the caller (Session has it); used by `writesAfterCall`. */
  startTurn?(userMessage: string): Promise<{ result: BeforeTurn; write(): Promise<void> }>;
}

export interface ConversationRecallOptions {
  /**
   * Write a turn's receipt and injections after the model call instead of before `beforeCall`
   * returns: once the caller says the call is over (`CallPreparation.callEnded`), or when the
   * conversation's next call comes (`afterCall` counting this one's step, or another request),
   * whichever is first. Neither the model's request nor its answer then waits for the writing;
   * the next call waits for it to finish, and its failure reaches the caller through `written`.
   * A call the caller reports failed (`callFailed`) writes nothing until a retry succeeds.
   * @default false
   */
  writesAfterCall?: boolean;
}

/** A turn's writing left until after its model call (`writesAfterCall`). */
interface HeldWriting {
  /** The user message whose turn it writes (TurnState's key). */
  key: string;
  /** Starts the writing (once; later calls do nothing). */
  release(): void;
  /** Settles the writing without writing anything: no model received the turn's recall. */
  drop(): void;
  released: boolean;
  /** Whether the last call carrying the turn's recall failed: the writing waits for a retry. */
  failed: boolean;
  /** Settles once written, failed to write, or dropped; never rejects. */
  settled: Promise<void>;
}

interface TurnState {
  /** Which user message the turn answers: its position and text. */
  key: string;
  recall: RecallMessage | null;
  /** Nudges given during the turn, each where it was first shown. */
  nudges: TranscriptInsertion[];
}

export class ConversationRecall {
  readonly session: TurnLoopSession;
  private readonly writesAfterCall: boolean;
  private turn: TurnState | null = null;
  private pendingNudge: RecallMessage | null = null;
  /** Calls run one at a time, so two requests of one conversation cannot both start its turn. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The last turn's writing, when it is left until after the call: the next call settles it first. */
  private held: HeldWriting | null = null;

  constructor(session: TurnLoopSession, options: ConversationRecallOptions = {}) {
    this.session = session;
    this.writesAfterCall = options.writesAfterCall ?? false;
  }

  /**
   * Before a model call: runs active recall when the last user message is new, and returns where
   * to insert this turn's recall block (position 1, after the system prompt) and its nudges.
   */
  beforeCall(messages: readonly TranscriptMessage[]): Promise<CallPreparation> {
    const user = lastUserMessage(messages);
    return this.exclusive({ key: user?.key ?? null }, async () => {
      let recall: BeforeTurn | null = null;
      let written = Promise.resolve();
      if (user && this.turn?.key !== user.key) {
        // A user message without text (an image only) starts a turn with nothing to recall for.
        if (user.text.length > 0) ({ recall, written } = await this.startTurn(user.text, user.key));
        this.turn = { key: user.key, recall: recall?.message ?? null, nudges: [] };
        this.pendingNudge = null;
      }
      // This call carries the turn's recall, first or again: its outcome decides the held writing.
      const held = this.held;
      const callEnded = (): void => held?.release();
      const callFailed = (): void => {
        if (held && !held.released) held.failed = true;
      };
      if (!this.turn) return { insertions: [], recall, written, callEnded, callFailed };
      if (this.pendingNudge) {
        // seed 001: the nudge goes in before the next model call, after the tool results
        this.turn.nudges.push({ index: messages.length, message: this.pendingNudge });
        this.pendingNudge = null;
      }
      const insertions: TranscriptInsertion[] = [];
      // seed 000: a system message at position 1, i.e. right after the caller's system prompt
      // (or developer message, as newer OpenAI models name it)
      const leading = messages[0]?.role === 'system' || messages[0]?.role === 'developer';
      if (this.turn.recall) insertions.push({ index: leading ? 1 : 0, message: this.turn.recall });
      // A client that dropped messages since the nudge was shown gets no nudge past its end.
      insertions.push(...this.turn.nudges.filter((nudge) => nudge.index <= messages.length));
      return { insertions, recall, written, callEnded, callFailed };
    });
  }

  /** Active recall for a new user message; its writing is done, or held until the call is over. */
  private async startTurn(text: string, key: string): Promise<{ recall: BeforeTurn; written: Promise<void> }> {
    if (!this.writesAfterCall || this.session.startTurn === undefined) {
      return { recall: await this.session.beforeTurn(text), written: Promise.resolve() };
    }
    const prepared = await this.session.startTurn(text);
    let decide = (_write: boolean) => undefined as void;
    const decided = new Promise<boolean>((resolve) => (decide = resolve));
    const written = decided.then((write) => (write ? prepared.write() : undefined));
    const held: HeldWriting = {
      key,
      released: false,
      failed: false,
      release: () => {
        held.released = true;
        decide(true);
      },
      drop: () => decide(false),
      // Reported through `written`, never unhandled; the conversation's next call waits for it.
      settled: written.catch(() => undefined),
    };
    this.held = held;
    return { recall: prepared.result, written };
  }

  /** After a model call: counts the step; a due nudge is inserted into the next call. */
  afterCall(step: AgentStep): Promise<AfterStep> {
    return this.exclusive('step', async () => {
      const result = await this.session.afterStep(step);
      if (result.nudge) this.pendingNudge = result.nudge;
      return result;
    });
  }

  /**
   * Runs `run` after the conversation's earlier calls, and after the held writing of the last
   * turn is settled — `next` says what comes: a counted step, or a call for the user message `key`.
   */
  private exclusive<T>(next: 'step' | { key: string | null }, run: () => Promise<T>): Promise<T> {
    const after = this.queue.then(() => this.settleHeld(next)).then(run, run);
    this.queue = after.catch(() => undefined);
    return after;
  }

  /**
   * Settles the last turn's writing before the next call: a counted step means the model received
   * the call, so it is written (a writing the caller has not released yet would otherwise be
   * waited for forever). After a failed call, a retry of the same message carries the recall
   * again and keeps the writing held for its own outcome; a new message means no model was ever
   * given it, so nothing is written.
   */
  private settleHeld(next: 'step' | { key: string | null }): Promise<void> {
    const held = this.held;
    if (!held) return Promise.resolve();
    if (held.failed && next !== 'step') {
      if (next.key === held.key) {
        held.failed = false;
        return Promise.resolve();
      }
      held.drop();
    } else {
      held.release();
    }
    this.held = null;
    return held.settled;
  }
}

/** `messages` with the insertions applied (each before the message at its index, stable order). */
export function applyInsertions<M>(
  messages: readonly M[],
  insertions: readonly TranscriptInsertion[],
  toMessage: (message: RecallMessage) => M,
): M[] {
  const result: M[] = [];
  for (let index = 0; index <= messages.length; index++) {
    for (const insertion of insertions) if (insertion.index === index) result.push(toMessage(insertion.message));
    const message = messages[index];
    if (index < messages.length) result.push(message as M);
  }
  return result;
}

function lastUserMessage(messages: readonly TranscriptMessage[]): { key: string; text: string } | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    const text = message.text?.trim() ?? '';
    return { key: `${index}\u0000${text}`, text };
  }
  return null;
}
