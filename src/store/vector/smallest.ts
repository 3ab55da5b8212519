/**
 * Selection of the k smallest of many small integers (distances) by counting: one pass builds
 * a histogram, which gives the largest distance still among the best k, and a second pass
 * collects the positions at or under it. Linear, with no sort and no objects per entry.
 */

/** Distances as small unsigned integers. */
type Distances = Uint8Array | Uint16Array;

/**
 * The positions of the `k` smallest of the first `count` `distances`, none above `largest`, in
 * position order (ties kept by position).
 */
export function smallestPositions(distances: Distances, count: number, k: number, largest: number): Int32Array {
  if (k >= count) return allPositions(count);
  const histogram = new Uint32Array(largest + 1);
  for (let p = 0; p < count; p++) histogram[distances[p] as number] = (histogram[distances[p] as number] as number) + 1;
  return positionsOfSmallest(distances, count, k, histogram);
}

/**
 * The same, from the histogram of the distances (entry d counts the distances equal to d), for
 * a caller that counted them as it computed them.
 */
export function positionsOfSmallest(distances: Distances, count: number, k: number, histogram: Uint32Array): Int32Array {
  if (k >= count) return allPositions(count);
  let cutoff = 0;
  let below = 0;
  while (below + (histogram[cutoff] as number) < k) below += histogram[cutoff++] as number;
  let ties = k - below;
  const positions = new Int32Array(k);
  let taken = 0;
  for (let p = 0; p < count; p++) {
    const distance = distances[p] as number;
    if (distance < cutoff) positions[taken++] = p;
    else if (distance === cutoff && ties > 0) {
      positions[taken++] = p;
      ties--;
    }
  }
  return positions;
}

/** 0, 1, …, count − 1. */
export function allPositions(count: number): Int32Array {
  const positions = new Int32Array(count);
  for (let p = 0; p < count; p++) positions[p] = p;
  return positions;
}

/** The largest distance `scoresAsDistances` gives. */
export const WORST_DISTANCE = 65535;

/**
 * Scores (larger is better) as distances for `smallestPositions`: 0 for the best, 65535 for the
 * worst, linear between. The rounding is 1/65535 of the spread, far below what separates the
 * entries worth keeping.
 */
export function scoresAsDistances(scores: Float32Array): Uint16Array {
  let best = -Infinity;
  let worst = Infinity;
  for (let p = 0; p < scores.length; p++) {
    const score = scores[p] as number;
    if (score > best) best = score;
    if (score < worst) worst = score;
  }
  const distances = new Uint16Array(scores.length);
  const step = best > worst ? WORST_DISTANCE / (best - worst) : 0;
  for (let p = 0; p < scores.length; p++) distances[p] = Math.round((best - (scores[p] as number)) * step);
  return distances;
}
