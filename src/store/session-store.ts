/**
 * The sessions part of a Store: each session's persisted state, so a session can resume in
 * another process (a hook runs one process per turn), and the list of sessions with what their
 * turns recorded in the activation log.
 */
import type { SessionRecord } from '../model/session.js';

/** One session as the sessions list shows it: its record's times and turns, and its receipts counted. */
export interface SessionSummary {
  id: string;
  scope: string;
  /** User turns so far (the record's `turn`). */
  turns: number;
  startedAt: string;
  /** When the record last changed: the list's order. */
  updatedAt: string;
  endedAt: string | null;
  /** Receipts (recall decisions) recorded for the session. */
  receipts: number;
  /** Injections recorded for the session (memories put into its turns), pinned and recalled. */
  injected: number;
  /**
   * The injections of the hot lane: memories recalled for a turn's query. The rest were pinned
   * (carried by the working set, or hard rules and pinned memories without one).
   */
  recalled: number;
  /** When its first and last receipts were written; null when it has none. */
  firstTurnAt: string | null;
  lastTurnAt: string | null;
}

/** A page of the sessions list: `after` is the id of the last session of the previous page. */
export interface SessionListQuery {
  limit: number;
  after?: string | undefined;
}

/** Session records, one per tenant and session id. */
export interface SessionStore {
  getSession(tenant: string, id: string): Promise<SessionRecord | null>;
  /** Creates or replaces the session's record. */
  saveSession(record: SessionRecord): Promise<void>;
  /**
   * The tenant's sessions, most recently updated first (ties by id, descending), with their
   * receipts and injections counted. With `after`, the sessions that follow that one in this
   * order; an `after` naming no session of the tenant is refused as `invalid_input`.
   */
  listSessions(tenant: string, query: SessionListQuery): Promise<SessionSummary[]>;
}
