/**
 * Seed 001's retrieval cooldown: a memory retrieved a moment ago is harder to retrieve again,
 * like a neuron's refractory period. `effective = raw × decay(time since last retrieval)`,
 * applied before the threshold check.
 */

import type { CooldownDecay } from '../model/choices.js';

export { COOLDOWN_DECAYS, type CooldownDecay } from '../model/choices.js';

export interface CooldownSettings {
  decay: CooldownDecay;
  /** The window (binary, linear) or tau (exponential), in seconds. */
  seconds: number;
}

/**
 * The multiplier for a memory last retrieved `elapsedSeconds` ago (null: never retrieved).
 * - binary: 0 within the window, 1 after
 * - exponential: 1 − e^(−t/τ)
 * - linear: min(1, t / window)
 */
export function cooldownDecay(settings: CooldownSettings, elapsedSeconds: number | null): number {
  if (elapsedSeconds === null || settings.decay === 'none') return 1;
  const t = Math.max(0, elapsedSeconds);
  switch (settings.decay) {
    case 'binary':
      return t < settings.seconds ? 0 : 1;
    case 'exponential':
      return 1 - Math.exp(-t / settings.seconds);
    case 'linear':
      return Math.min(1, t / settings.seconds);
  }
}

/** Seconds from `lastRetrievedAt` to `now`, or null when the memory was never retrieved. */
export function secondsSince(lastRetrievedAt: string | null, now: Date): number | null {
  return lastRetrievedAt === null ? null : (now.getTime() - Date.parse(lastRetrievedAt)) / 1000;
}
