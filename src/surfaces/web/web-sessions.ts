/**
 * The inspector's sign-in sessions, kept in the server's memory: a random id in an HttpOnly
 * cookie names one, and the session holds the tenant it is bound to and its CSRF token. The
 * bearer token itself is checked once, at sign-in, and never stored or sent back. A restart
 * signs everyone out, which is the safe direction.
 */
import { randomBytes } from 'node:crypto';

import type { Clock } from '../../index.js';

/** One browser's session. */
export interface WebSession {
  /** The cookie's value: 32 random bytes, base64url. */
  id: string;
  /** Every page and form of this session reads and writes this tenant only. */
  tenant: string;
  /** Sent back in every form (`_csrf`) and compared on every mutation. */
  csrfToken: string;
  /** Milliseconds since the epoch after which the session is gone. */
  expiresAt: number;
}

/** How long a session lasts without use. @default 8 hours */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;
/** Sessions kept at most; the least recently used goes first. @default 1000 */
export const MAX_SESSIONS = 1000;

/** The sessions of one server. */
export class WebSessions {
  private readonly sessions = new Map<string, WebSession>();
  private readonly clock: Clock;
  private readonly idleMs: number;
  private readonly max: number;

  constructor(options: { clock: Clock; idleMs?: number; max?: number }) {
    this.clock = options.clock;
    this.idleMs = options.idleMs ?? SESSION_IDLE_MS;
    this.max = options.max ?? MAX_SESSIONS;
  }

  /** Starts a session bound to `tenant`. */
  create(tenant: string): WebSession {
    while (this.sessions.size >= this.max) {
      const oldest = this.sessions.keys().next().value as string;
      this.sessions.delete(oldest);
    }
    const session = { id: randomToken(), tenant, csrfToken: randomToken(), expiresAt: this.clock.now().getTime() + this.idleMs };
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, its idle time reset; null when unknown or expired. */
  find(id: string | undefined): WebSession | null {
    if (!id) return null;
    const session = this.sessions.get(id);
    if (!session) return null;
    const now = this.clock.now().getTime();
    this.sessions.delete(id);
    if (session.expiresAt <= now) return null;
    // Re-inserted, so the map's order stays least recently used first.
    session.expiresAt = now + this.idleMs;
    this.sessions.set(id, session);
    return session;
  }

  /** Ends a session (sign-out). */
  end(id: string): void {
    this.sessions.delete(id);
  }

  /** Sessions held now. */
  get size(): number {
    return this.sessions.size;
  }
}

/** 32 random bytes, base64url: a session id or a CSRF token. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}
