/**
 * Memories whose `segment_terms` column (segment-column.ts) is not what this Engram would write
 * for their fields: written by a process of an older Engram that had the file open when it was
 * upgraded, or changed by hand. Their CJK words and emoji are then missing from the full-text
 * index, or words they no longer hold are in it. The doctor finds them, and writes the column
 * again; the index's update trigger follows.
 */
import type Database from 'better-sqlite3';

import { segmentColumn, type SegmentedFields } from './segment-column.js';

/** A memory whose column is stale, and what it should hold. */
export interface StaleSegmentTerms {
  rowid: number;
  id: string;
  expected: string | null;
}

/** Every memory whose `segment_terms` differs from what its fields give; none on a file without the column. */
export function findStaleSegmentTerms(db: Database.Database): StaleSegmentTerms[] {
  const columns = (db.pragma('table_info(memories)') as { name: string }[]).map((column) => column.name);
  if (!columns.includes('segment_terms')) return [];
  const rows = db.prepare<[], SegmentedFields & { rowid: number; id: string; segment_terms: string | null }>(
    `SELECT rowid, id, text, abstract, tags, context, segment_terms FROM memories ORDER BY rowid`,
  );
  const stale: StaleSegmentTerms[] = [];
  for (const row of rows.iterate()) {
    const expected = segmentColumn(row);
    if (expected !== row.segment_terms) stale.push({ rowid: row.rowid, id: row.id, expected });
  }
  return stale;
}

/** Writes the column of these memories again; returns how many were written. */
export function rewriteSegmentTerms(db: Database.Database, stale: readonly StaleSegmentTerms[]): number {
  const write = db.prepare(`UPDATE memories SET segment_terms = ? WHERE rowid = ?`);
  for (const { rowid, expected } of stale) write.run(expected, rowid);
  return stale.length;
}
