/**
 * The SQLite side of leaving common words out of the full-text match (the rule is in
 * store/common-parts.ts): each part's matches counted in the FTS5 index up to the cap, and
 * kept per connection until the store has grown by a tenth.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import { chooseParts, commonCap } from '../common-parts.js';
import { cachedStatement } from './statement-cache.js';

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
  const cap = commonCap(rows);
  if (cap === null) return { parts: [...parts], onlyCommon: false };
  const { positions, onlyCommon } = chooseParts(
    parts,
    parts.map((part) => cappedCount(db, part, cap, rows)),
    cap,
  );
  return { parts: positions.map((i) => parts[i] as string), onlyCommon };
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
