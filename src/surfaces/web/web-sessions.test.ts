import { describe, expect, it } from 'vitest';

import { manualClock } from '../../index.js';
import { WebSessions } from './web-sessions.js';

describe('WebSessions', () => {
  it('binds a session to its tenant with its own random id and CSRF token', () => {
    const sessions = new WebSessions({ clock: manualClock() });
    const a = sessions.create('acme');
    const b = sessions.create('acme');
    expect(a.tenant).toBe('acme');
    expect(a.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set([a.id, b.id, a.csrfToken, b.csrfToken]).size).toBe(4);
    expect(sessions.find(a.id)).toBe(a);
  });

  it('forgets a session idle for longer than the idle time, and keeps one in use', () => {
    const clock = manualClock();
    const sessions = new WebSessions({ clock, idleMs: 1000 });
    const used = sessions.create('default');
    const idle = sessions.create('default');
    clock.advance(900);
    expect(sessions.find(used.id)).not.toBeNull();
    clock.advance(900);
    expect(sessions.find(used.id)).not.toBeNull();
    expect(sessions.find(idle.id)).toBeNull();
  });

  it('ends a session on sign-out and knows no made-up or missing id', () => {
    const sessions = new WebSessions({ clock: manualClock() });
    const session = sessions.create('default');
    sessions.end(session.id);
    expect(sessions.find(session.id)).toBeNull();
    expect(sessions.find('made-up')).toBeNull();
    expect(sessions.find(undefined)).toBeNull();
  });

  it('keeps at most `max` sessions, dropping the least recently used', () => {
    const sessions = new WebSessions({ clock: manualClock(), max: 2 });
    const first = sessions.create('default');
    const second = sessions.create('default');
    sessions.find(first.id);
    const third = sessions.create('default');
    expect(sessions.size).toBe(2);
    expect(sessions.find(second.id)).toBeNull();
    expect(sessions.find(first.id)).not.toBeNull();
    expect(sessions.find(third.id)).not.toBeNull();
  });
});
