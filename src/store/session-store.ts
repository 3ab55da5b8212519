/**
 * The sessions part of a Store: each session's persisted state, so a session can resume in
 * another process (a hook runs one process per turn).
 */
import type { SessionRecord } from '../model/session.js';

/** Session records, one per tenant and session id. */
export interface SessionStore {
  getSession(tenant: string, id: string): Promise<SessionRecord | null>;
  /** Creates or replaces the session's record. */
  saveSession(record: SessionRecord): Promise<void>;
}
