/**
 * Which parts of a full-text query are worth matching, for every backend. Scoring every row a
 * word matches is what full-text search costs, so a word in a quarter of 100k memories costs
 * ~30 ms while adding almost nothing to BM25 (its IDF is tiny). In a store of `SMALL_STORE`
 * rows or more, parts found in `COMMON_SHARE` of the rows or more are dropped when a rarer part
 * remains; if every part is common, only the longest (likely the rarest) is kept. Smaller stores
 * keep every part, so their ranking is exactly BM25 over every query word. Only candidate
 * finding changes: relevance still counts every query word.
 */

/** A part matching this share of the rows or more is common. */
const COMMON_SHARE = 0.05;
/**
 * Stores with fewer rows keep every part: matching is cheap there whatever the words. (A floor
 * of 1,000 matches instead let a 10k store keep every word in up to a tenth of its rows, so its
 * searches cost more than a 100k store's: 7 ms against 4.)
 */
const SMALL_STORE = 5_000;
/** When every part is common, this many of the longest are kept. */
const KEEP_WHEN_ALL_COMMON = 1;

/** The number of matches from which a part is common in a store of `rows`, or null when the store keeps every part. */
export function commonCap(rows: number): number | null {
  return rows < SMALL_STORE ? null : Math.ceil(rows * COMMON_SHARE);
}

/**
 * The positions of the parts worth matching, in their original order, given each part's
 * matches (counted up to at least `cap`), and whether only common parts were left to choose from.
 */
export function chooseParts(
  parts: readonly string[],
  matches: readonly number[],
  cap: number,
): { positions: number[]; onlyCommon: boolean } {
  const all = parts.map((_, i) => i);
  // A part that matches nothing is neither rare nor common: it cannot find anything.
  const rare = all.filter((i) => (matches[i] as number) > 0 && (matches[i] as number) < cap);
  if (rare.length > 0) return { positions: rare, onlyCommon: false };
  const common = all.filter((i) => (matches[i] as number) >= cap);
  if (common.length === 0) return { positions: all, onlyCommon: false };
  // Counting every match to find the rarest would cost as much as matching; longer words tend to be rarer.
  const keep = new Set(
    [...common].sort((a, b) => (parts[b] as string).length - (parts[a] as string).length).slice(0, KEEP_WHEN_ALL_COMMON),
  );
  return { positions: all.filter((i) => keep.has(i)), onlyCommon: true };
}
