/**
 * The schema step that gives CJK bigrams and emoji a full-text column of their own (version 10),
 * filled for the memories already stored.
 */
import type Database from 'better-sqlite3';

import type { Migration } from './migration-step.js';
import { segmentColumn, type SegmentedFields } from './segment-column.js';

/** The schema from which memories have the `segment_terms` column the full-text index reads (segment-column.ts). */
export const SEGMENT_TERMS_SCHEMA = 10;

export const SEGMENT_TERMS_STEP: Migration = {
  version: SEGMENT_TERMS_SCHEMA,
  description: 'CJK bigrams and emoji in the full-text index, from a column of their own',
  up(db) {
    // FTS5 cannot add a column to a table: the index is made again with the fifth column, and
    // rebuilt from the memories, whose English words it indexes as before.
    db.exec(`
        ALTER TABLE memories ADD COLUMN segment_terms TEXT;
        DROP TRIGGER memories_fts_insert;
        DROP TRIGGER memories_fts_delete;
        DROP TRIGGER memories_fts_update;
        DROP TABLE memories_fts;
      `);
    backfillSegmentTerms(db);
    db.exec(`
        CREATE VIRTUAL TABLE memories_fts USING fts5(
          text, abstract, tags, context, segment_terms,
          content = 'memories', content_rowid = 'rowid',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, text, abstract, tags, context, segment_terms)
          VALUES (new.rowid, new.text, new.abstract, new.tags, new.context, new.segment_terms);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context, segment_terms)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags, old.context, old.segment_terms);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF text, abstract, tags, context, segment_terms ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context, segment_terms)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags, old.context, old.segment_terms);
          INSERT INTO memories_fts (rowid, text, abstract, tags, context, segment_terms)
          VALUES (new.rowid, new.text, new.abstract, new.tags, new.context, new.segment_terms);
        END;
        INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
      `);
  },
};

/** Fills `segment_terms` for the memories that have CJK characters or emoji (the others keep NULL). */
function backfillSegmentTerms(db: Database.Database): void {
  const rows = db.prepare<[], SegmentedFields & { rowid: number }>(`SELECT rowid, text, abstract, tags, context FROM memories`);
  // Collected first: a statement cannot write while another reads the same connection.
  const filled: [string, number][] = [];
  for (const row of rows.iterate()) {
    const terms = segmentColumn(row);
    if (terms !== null) filled.push([terms, row.rowid]);
  }
  const write = db.prepare(`UPDATE memories SET segment_terms = ? WHERE rowid = ?`);
  for (const [terms, rowid] of filled) write.run(terms, rowid);
}
