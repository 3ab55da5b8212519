/**
 * A session: one conversation of an agent, its turn counters and injection history kept in the
 * store so it can resume in another process (a hook runs one process per turn). The turn loop:
 * `start()` once, `beforeTurn(message)` once per user message (active recall), `afterStep(step)`
 * after every model step (intrusive recall on reflection nudges), `context()` for the sections
 * the model reads, `tools()` for the memory tools, `end()` at the close.
 */
import { InvalidInputError } from '../errors.js';
import type { SessionRecord } from '../model/session.js';
import { createMemoryTools } from '../tools/create-memory-tools.js';
import type { MemoryTool } from '../tools/tool.js';
import { type BeforeTurn, type PreparedRecall, prepareRecall, startRecallEmbedding } from './active-recall.js';
import { type AfterStep, parseStep, reflectAfterStep } from './intrusive-recall.js';
import { loadSessionContext, type SessionContext } from './session-context.js';
import { loadSessionRecord, type SessionDeps, type SessionIdentity } from './session-deps.js';

export type { BeforeTurn } from './active-recall.js';
export type { AfterStep, AgentStep } from './intrusive-recall.js';
export type { SessionContext } from './session-context.js';
export type { SessionDeps } from './session-deps.js';

/** What `start` returns: the session-start context, and whether the session existed before. */
export interface SessionStart extends SessionContext {
  resumed: boolean;
}

export class Session implements SessionIdentity {
  readonly id: string;
  private identity: SessionIdentity;
  /** The caller named the scope; otherwise a resumed session keeps the scope it was started with. */
  private readonly scopeGiven: boolean;
  private readonly deps: SessionDeps;

  /** @internal use `engram.session()` */
  constructor(deps: SessionDeps, identity: SessionIdentity & { scopeGiven: boolean }) {
    this.deps = deps;
    this.id = identity.id;
    this.identity = { id: identity.id, scope: identity.scope, scopes: identity.scopes };
    this.scopeGiven = identity.scopeGiven;
  }

  /** The scope the session writes to. A session resumed without a scope takes the one it started with (after its first call). */
  get scope(): string {
    return this.identity.scope;
  }

  /** The scopes recall sees, most specific first. */
  get scopes(): readonly string[] {
    return this.identity.scopes;
  }

  /**
   * Starts the session, or resumes it (in any process). Returns the session-start context: the
   * handoff note the last session left first, then the working set.
   */
  async start(): Promise<SessionStart> {
    const resumed = (await this.deps.store.getSession(this.deps.tenant, this.id)) !== null;
    const record = await this.load();
    return { ...(await loadSessionContext(this.deps, this, record)), resumed };
  }

  /** Active recall for one user message. Call it once per user message, before the first model call. */
  async beforeTurn(userMessage: string): Promise<BeforeTurn> {
    const prepared = await this.startTurn(userMessage);
    await prepared.write();
    return prepared.result;
  }

  /**
   * `beforeTurn` with its bookkeeping left to the caller: the result is ready before the
   * receipt, the injections and the session's last recall are written, so a driver can send the
   * model's request first and call `write()` after (ConversationRecall does, for the proxy).
   * @internal
   */
  async startTurn(userMessage: string): Promise<PreparedRecall> {
    if (typeof userMessage !== 'string' || userMessage.trim().length === 0) {
      throw new InvalidInputError('beforeTurn needs the user message as a non-empty string');
    }
    // First, so the model embeds the message while the session record is read and written.
    const embedding = await startRecallEmbedding(this.deps, userMessage);
    const record = await this.load();
    const next: SessionRecord = {
      ...record,
      turn: record.turn + 1,
      toolOnlyTurns: 0,
      lastRecall: null,
      updatedAt: this.deps.clock.now().toISOString(),
    };
    await this.deps.store.saveSession(next);
    return prepareRecall(this.deps, this, next, userMessage, embedding);
  }

  /**
   * After each model step: counts tool-only steps and, every `[memory.intrusive]
   * every_tool_turns` of them, returns the reflection nudge with intrusive recall's memories.
   */
  async afterStep(step: { assistantText?: string | null; toolCalls?: readonly unknown[] | null }): Promise<AfterStep> {
    const parsed = parseStep(step);
    return reflectAfterStep(this.deps, this, await this.load(), parsed);
  }

  /**
   * The ordered sections the model should see — handoff, working set, this turn's recall,
   * scratchpad, this session's thoughts — within `[context] max_tokens`, with what was trimmed.
   */
  async context(): Promise<SessionContext> {
    return loadSessionContext(this.deps, this, await this.load());
  }

  /** The memory tools, bound to this session: `[{ name, description, inputSchema, execute(args) }]`. */
  tools(): MemoryTool[] {
    return createMemoryTools({ engram: this.deps.engram, sessionId: this.id, scope: this.scope, scopes: this.scopes });
  }

  /** The session's record; a session resumed without a scope adopts the stored one. */
  private async load(): Promise<SessionRecord> {
    const record = await loadSessionRecord(this.deps, this);
    if (!this.scopeGiven && record.scope !== this.identity.scope) {
      this.identity = { id: this.id, scope: record.scope, scopes: [...new Set([record.scope, ...this.identity.scopes])] };
    }
    return record;
  }

  /** Marks the session ended; it can still be resumed. */
  async end(): Promise<void> {
    const record = await this.load();
    const at = this.deps.clock.now().toISOString();
    await this.deps.store.saveSession({ ...record, endedAt: at, updatedAt: at });
  }
}
