/**
 * The two priors of seed 002's score: importance (the tier, a prior and never a gate) and
 * novelty (a memory retrieved many times has less left to tell).
 */
import type { Tier } from '../model/memory.js';

/** Tier as a prior: must_remember ranks a little above nice_to_have, which ranks above unknown. */
export const IMPORTANCE_PRIOR: Readonly<Record<Tier, number>> = { must: 1, nice: 0.9, unknown: 0.8 };

/** The most novelty can take away: a memory retrieved very often keeps 90% of its score. */
const NOVELTY_FLOOR = 0.9;
/** Retrievals at which about two thirds of the novelty is gone. */
const NOVELTY_SCALE = 10;

/** 1 for a memory never retrieved, falling smoothly towards 0.9 as retrievals accumulate. */
export function noveltyFactor(retrievalCount: number): number {
  return 1 - (1 - NOVELTY_FLOOR) * (1 - Math.exp(-Math.max(0, retrievalCount) / NOVELTY_SCALE));
}
