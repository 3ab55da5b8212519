/**
 * Leaves very common words out of the full-text match. FTS5 scores every row a word matches,
 * so a word in a quarter of 100k memories costs ~30 ms while adding almost nothing to BM25
 * (its IDF is tiny). Parts found in more than `COMMON_SHARE` of the rows are dropped when a
 * rarer part remains; if every part is common, only the longest (likely the rarest) is kept. Only candidate
 * finding changes: relevance still counts every query word.
 */
import type Database from 'better-sqlite3';

import { cachedStatement } from './statement-cache.js';

/** A part matching more than this share of the rows is common. */
const COMMON_SHARE = 0.05;
/**
 * Stores with fewer rows keep every word: there matching is cheap whatever the words, and
 * relevance is left exactly as BM25 over every query word gives it. (A floor of 1,000 matches
 * instead let a 10k store keep every word in up to a tenth of its rows, so its searches cost
 * more than a 100k store's: 7 ms against 4.)
 */
const SMALL_STORE = 5_000;
/** When every part is common, this many of the rarest are kept. */
const KEEP_WHEN_ALL_COMMON = 1;
/**
 * A part's count is kept and re-measured once the store has grown by this factor: counting
 * costs ~0.3 ms a common part at 100k rows, and whether a word is common changes slowly.
 */
const REMEASURE_GROWTH = 1.1;
/** Parts whose counts are kept per connection. */
const MAX_KEPT = 4096;

/** A part's matches, counted up to `cap`, when the store's largest rowid was `rows`. */
interface Counted {
  matches: number;
  cap: number;
  rows: number;
}

const counts = new WeakMap<Database.Database, Map<string, Counted>>();

/** The parts worth matching, in their original order, and whether only common parts were left to choose from. */
export function pickParts(db: Database.Database, parts: readonly string[]): { parts: string[]; onlyCommon: boolean } {
  if (parts.length === 0) return { parts: [], onlyCommon: false };
  const rows = (cachedStatement(db, `SELECT max(rowid) FROM memories`).pluck().get() as number | null) ?? 0;
  if (rows < SMALL_STORE) return { parts: [...parts], onlyCommon: false };
  const cap = Math.ceil(rows * COMMON_SHARE);
  const capped = parts.map((part) => cappedCount(db, part, cap, rows));
  // A part that matches nothing is neither rare nor common: it cannot find anything.
  const rare = parts.filter((_, i) => (capped[i] as number) > 0 && (capped[i] as number) < cap);
  if (rare.length > 0) return { parts: rare, onlyCommon: false };
  const common = parts.filter((_, i) => (capped[i] as number) >= cap);
  if (common.length === 0) return { parts: [...parts], onlyCommon: false };
  // Counting every match to find the rarest would cost as much as matching; longer words tend to be rarer.
  const keep = new Set([...common].sort((a, b) => b.length - a.length).slice(0, KEEP_WHEN_ALL_COMMON));
  return { parts: parts.filter((part) => keep.has(part)), onlyCommon: true };
}

/** How many rows `part` matches, counted up to `cap` (or recalled from a count made at about this size). */
function cappedCount(db: Database.Database, part: string, cap: number, rows: number): number {
  let kept = counts.get(db);
  if (kept === undefined) {
    kept = new Map();
    counts.set(db, kept);
  }
  const known = kept.get(part);
  if (known !== undefined && rows >= known.rows && rows <= known.rows * REMEASURE_GROWTH) {
    return known.matches >= known.cap ? cap : Math.min(known.matches, cap);
  }
  const matches = cachedStatement(db, `SELECT count(*) FROM (SELECT 1 FROM memories_fts WHERE memories_fts MATCH ? LIMIT ?)`)
    .pluck()
    .get(part, cap) as number;
  kept.delete(part);
  kept.set(part, { matches, cap, rows });
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value as string);
  return matches;
}
