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
   * Tells the driver this model call is over — its answer passed on, or the call failed — so a
   * turn's writing left until after the call (`writesAfterCall`) starts now. Calling it again, or
   * with nothing left to write, does nothing.
   */
  callEnded(): void;
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
   * @default false
   */
  writesAfterCall?: boolean;
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
  /** The last turn's writing, when it is left until after the call: the next call starts after it. */
  private writing: Promise<void> = Promise.resolve();
  /** Starts the last turn's writing if it has not begun (a no-op once it has). */
  private startWriting: () => void = () => undefined;

  constructor(session: TurnLoopSession, options: ConversationRecallOptions = {}) {
    this.session = session;
    this.writesAfterCall = options.writesAfterCall ?? false;
  }

  /**
   * Before a model call: runs active recall when the last user message is new, and returns where
   * to insert this turn's recall block (position 1, after the system prompt) and its nudges.
   */
  beforeCall(messages: readonly TranscriptMessage[]): Promise<CallPreparation> {
    return this.exclusive(async () => {
      const user = lastUserMessage(messages);
      let recall: BeforeTurn | null = null;
      let written = Promise.resolve();
      let callEnded = () => undefined as void;
      if (user && this.turn?.key !== user.key) {
        // A user message without text (an image only) starts a turn with nothing to recall for.
        if (user.text.length > 0) ({ recall, written, callEnded } = await this.startTurn(user.text));
        this.turn = { key: user.key, recall: recall?.message ?? null, nudges: [] };
        this.pendingNudge = null;
      }
      if (!this.turn) return { insertions: [], recall, written, callEnded };
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
      return { insertions, recall, written, callEnded };
    });
  }

  /** Active recall for a new user message; its writing is done, or left until the call is over. */
  private async startTurn(text: string): Promise<{ recall: BeforeTurn; written: Promise<void>; callEnded: () => void }> {
    if (!this.writesAfterCall || this.session.startTurn === undefined) {
      return { recall: await this.session.beforeTurn(text), written: Promise.resolve(), callEnded: () => undefined };
    }
    const prepared = await this.session.startTurn(text);
    let start = () => undefined as void;
    const begun = new Promise<void>((resolve) => (start = resolve));
    const written = begun.then(() => prepared.write());
    // Reported through `written`, never unhandled; the conversation's next call waits for it.
    this.writing = written.catch(() => undefined);
    this.startWriting = start;
    return { recall: prepared.result, written, callEnded: start };
  }

  /** After a model call: counts the step; a due nudge is inserted into the next call. */
  afterCall(step: AgentStep): Promise<AfterStep> {
    return this.exclusive(async () => {
      const result = await this.session.afterStep(step);
      if (result.nudge) this.pendingNudge = result.nudge;
      return result;
    });
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    // The next call starts a writing the caller has not released yet: it would wait for it forever.
    const next = this.queue
      .then(() => {
        this.startWriting();
        return this.writing;
      })
      .then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
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
