/**
 * A mark that moves whenever what a search reads of the memories and their graph may have
 * changed: the memories' records (not their retrieval stamps), their vectors, their mentions,
 * and the entities, aliases and relations. Other connections' writes move SQLite's data_version
 * (any commit to the file); this connection's own writes are counted by TEMP triggers on those
 * tables, so every write path — a commit, a purge, the graph's, a repair — moves it without
 * having to remember to. What is kept under one mark (the read layer's sets, ../kept/, and the
 * calibration sample) stays true while it holds.
 *
 * The retrieval stamps (`last_retrieved_at`, `retrieval_count`) written on this connection are
 * left out: every recorded search and recall decision writes them, and the read layer drops the
 * memories it stamps itself. Another connection's stamps move data_version like any commit.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import { cachedStatement } from './statement-cache.js';

/** The tables besides the memories whose every write moves the mark. */
const WATCHED = ['memory_embeddings', 'mentions', 'entities', 'entity_aliases', 'relations'];
/** The columns a retrieval or a decision stamps; writing only these moves nothing. */
const STAMPS = new Set(['last_retrieved_at', 'retrieval_count']);

export class MemoryWrites {
  private readonly db: Database.Database;
  /** This connection's writes to the memories, their vectors and mentions, counted row by row. */
  private written = 0;

  constructor(db: Database.Database) {
    this.db = db;
    db.function('engram_memories_written', () => {
      this.written += 1;
      return null;
    });
    const columns = (db.prepare(`PRAGMA main.table_info(memories)`).all() as { name: string }[])
      .map((column) => column.name)
      .filter((name) => !STAMPS.has(name));
    const count = 'BEGIN SELECT engram_memories_written(); END';
    const triggers = [
      `CREATE TEMP TRIGGER IF NOT EXISTS engram_written_memory_insert AFTER INSERT ON main.memories ${count};`,
      `CREATE TEMP TRIGGER IF NOT EXISTS engram_written_memory_update AFTER UPDATE OF ${columns.join(', ')} ON main.memories ${count};`,
      `CREATE TEMP TRIGGER IF NOT EXISTS engram_written_memory_delete AFTER DELETE ON main.memories ${count};`,
    ];
    // A file held at an older schema (`migrateTo`) may not have every table yet: none to watch.
    const present = new Set(db.prepare(`SELECT name FROM main.sqlite_master WHERE type = 'table'`).pluck().all() as string[]);
    for (const table of WATCHED.filter((name) => present.has(name))) {
      for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
        triggers.push(
          `CREATE TEMP TRIGGER IF NOT EXISTS engram_written_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} ${count};`,
        );
      }
    }
    // TEMP triggers belong to this connection alone and write nothing to the file.
    db.exec(triggers.join('\n'));
  }

  /** Equal to an earlier mark exactly when nothing it covers was written since, by anyone. */
  mark(): string {
    const version = cachedStatement(this.db, 'PRAGMA data_version').pluck().get() as number;
    return `${version}.${this.written}`;
  }
}
