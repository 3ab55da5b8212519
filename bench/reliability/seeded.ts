/** Seeded randomness for the reliability benchmark: the same trials on every run. */
import { seededRandom } from '../synthetic-memories.js';

export { seededRandom };

/** A random number in [0, 1) (mulberry32, the benchmarks' one seeded generator). */
export type Random = () => number;

/** A whole number in [low, high]. */
export function between(random: Random, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** One of `items`, which must not be empty. */
export function pickOne<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}
