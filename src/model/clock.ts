/**
 * Time and identity are injected (STYLE.md 7) so that recency, cooldown and repeat behaviour
 * can be tested exactly, without sleeping.
 */

/** A source of the current time. */
export interface Clock {
  now(): Date;
}

/** The wall clock. */
export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests and replays. */
export function manualClock(start: Date | string = '2026-01-01T00:00:00.000Z'): Clock & {
  set(at: Date | string): void;
  advance(ms: number): void;
} {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
}
