/**
 * Versioned schema migrations, recorded in `PRAGMA user_version`. Opening an older file runs
 * the missing steps, each in its own transaction; a file from a newer Engram is refused rather
 * than misread. Append new steps; never edit a released one.
 */
import type Database from 'better-sqlite3';

import { EngramError } from '../../errors.js';
import { blobToVector } from '../sql-core/rows.js';
import { binaryCode } from '../vector/quantized-index.js';
import { segmentColumn, type SegmentedFields } from './segment-column.js';

/** Marks a file as Engram's ("Engr"), so a foreign SQLite file is not mistaken for ours. */
export const APPLICATION_ID = 0x456e6772;

export interface Migration {
  version: number;
  description: string;
  up(db: Database.Database): void;
}

/** The schema from which memories have the `segment_terms` column the full-text index reads (segment-column.ts). */
export const SEGMENT_TERMS_SCHEMA = 10;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'memories, full-text index, metadata',
    up(db) {
      db.exec(`
        CREATE TABLE memories (
          rowid INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          tenant TEXT NOT NULL,
          scope TEXT NOT NULL,
          kind TEXT NOT NULL,
          tier TEXT NOT NULL,
          pinned INTEGER NOT NULL DEFAULT 0,
          hard_rule INTEGER NOT NULL DEFAULT 0,
          text TEXT NOT NULL,
          abstract TEXT,
          key TEXT,
          session_id TEXT,
          source TEXT NOT NULL,
          trust REAL NOT NULL,
          data TEXT,
          tags TEXT NOT NULL DEFAULT '[]',
          occurred_at INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL,
          superseded_by TEXT,
          archived_at INTEGER
        );
        CREATE INDEX memories_by_tenant_scope ON memories (tenant, scope, kind);
        CREATE INDEX memories_by_tenant_created ON memories (tenant, created_at);
        CREATE UNIQUE INDEX memories_live_key ON memories (tenant, scope, key)
          WHERE key IS NOT NULL AND superseded_by IS NULL AND archived_at IS NULL;

        CREATE VIRTUAL TABLE memories_fts USING fts5(
          text, abstract, tags,
          content = 'memories', content_rowid = 'rowid',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, text, abstract, tags)
          VALUES (new.rowid, new.text, new.abstract, new.tags);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF text, abstract, tags ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags);
          INSERT INTO memories_fts (rowid, text, abstract, tags)
          VALUES (new.rowid, new.text, new.abstract, new.tags);
        END;

        CREATE TABLE engram_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      `);
    },
  },
  {
    version: 2,
    description: 'retrieval statistics and the embedding cache',
    up(db) {
      db.exec(`
        ALTER TABLE memories ADD COLUMN last_retrieved_at INTEGER;
        ALTER TABLE memories ADD COLUMN retrieval_count INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE embedding_cache (
          model TEXT NOT NULL,
          hash TEXT NOT NULL,
          vector BLOB NOT NULL,
          PRIMARY KEY (model, hash)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    version: 3,
    description: 'vectors in a plain table with binary codes, replacing the vec0 table',
    up(db) {
      db.exec(`
        CREATE TABLE memory_embeddings (
          rowid INTEGER PRIMARY KEY,
          tenant TEXT NOT NULL,
          vector BLOB NOT NULL,
          code BLOB NOT NULL
        );
        CREATE INDEX memory_embeddings_by_tenant ON memory_embeddings (tenant);
        CREATE TRIGGER memory_embeddings_follow_delete AFTER DELETE ON memories BEGIN
          DELETE FROM memory_embeddings WHERE rowid = old.rowid;
        END;
      `);
      const old = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors'`).get();
      if (!old) return;
      const insert = db.prepare(`INSERT INTO memory_embeddings (rowid, tenant, vector, code) VALUES (?, ?, ?, ?)`);
      const rows = db.prepare(`SELECT rowid, tenant, embedding FROM memory_vectors`).raw().all() as [number, string, Buffer][];
      for (const [rowid, tenant, blob] of rows) {
        const code = binaryCode(blobToVector(blob));
        insert.run(rowid, tenant, blob, Buffer.from(code.buffer));
      }
      db.exec(`DROP TABLE memory_vectors`);
    },
  },
  {
    version: 4,
    description: 'memory context, indexed for full-text search with the memory',
    up(db) {
      db.exec(`
        ALTER TABLE memories ADD COLUMN context TEXT;
        DROP TRIGGER memories_fts_insert;
        DROP TRIGGER memories_fts_delete;
        DROP TRIGGER memories_fts_update;
        DROP TABLE memories_fts;
        CREATE VIRTUAL TABLE memories_fts USING fts5(
          text, abstract, tags, context,
          content = 'memories', content_rowid = 'rowid',
          tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
          INSERT INTO memories_fts (rowid, text, abstract, tags, context)
          VALUES (new.rowid, new.text, new.abstract, new.tags, new.context);
        END;
        CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags, old.context);
        END;
        CREATE TRIGGER memories_fts_update AFTER UPDATE OF text, abstract, tags, context ON memories BEGIN
          INSERT INTO memories_fts (memories_fts, rowid, text, abstract, tags, context)
          VALUES ('delete', old.rowid, old.text, old.abstract, old.tags, old.context);
          INSERT INTO memories_fts (rowid, text, abstract, tags, context)
          VALUES (new.rowid, new.text, new.abstract, new.tags, new.context);
        END;
        INSERT INTO memories_fts (memories_fts) VALUES ('rebuild');
      `);
    },
  },
  {
    version: 5,
    description: 'sessions, injections, receipts and the activity log',
    up(db) {
      db.exec(`
        CREATE INDEX memories_pinned ON memories (tenant, scope) WHERE pinned = 1 OR hard_rule = 1;
        -- The working set and a session's thoughts read the newest few of one kind (and tier).
        CREATE INDEX memories_by_kind_created ON memories (tenant, kind, created_at);
        CREATE INDEX memories_by_kind_tier_created ON memories (tenant, kind, tier, created_at);
        CREATE TABLE sessions (
          tenant TEXT NOT NULL,
          id TEXT NOT NULL,
          body TEXT NOT NULL,
          PRIMARY KEY (tenant, id)
        ) WITHOUT ROWID;
        CREATE TABLE injections (
          tenant TEXT NOT NULL,
          session_id TEXT NOT NULL,
          turn INTEGER NOT NULL,
          memory_id TEXT NOT NULL,
          lane TEXT NOT NULL,
          receipt_id TEXT NOT NULL
        );
        CREATE INDEX injections_by_session ON injections (tenant, session_id, turn);
        CREATE TABLE receipts (
          rowid INTEGER PRIMARY KEY,
          tenant TEXT NOT NULL,
          id TEXT NOT NULL UNIQUE,
          session_id TEXT,
          turn INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          body TEXT NOT NULL
        );
        CREATE INDEX receipts_by_session ON receipts (tenant, session_id, turn);
        CREATE TABLE activity_log (
          rowid INTEGER PRIMARY KEY,
          tenant TEXT NOT NULL,
          day TEXT NOT NULL,
          at INTEGER NOT NULL,
          action TEXT NOT NULL,
          key TEXT,
          memory_id TEXT,
          summary TEXT NOT NULL
        );
        CREATE INDEX activity_log_by_day ON activity_log (tenant, day);
      `);
    },
  },
  {
    version: 6,
    description: 'the knowledge graph: entities, aliases, relations and mentions',
    up(db) {
      // Links are rowids, kept right by triggers rather than foreign keys: a trigger holds on
      // every connection, while foreign keys act only where `PRAGMA foreign_keys` is on (the
      // vector table follows memories the same way). Purging a memory removes its mentions and
      // clears the source of the relations it stated; deleting an entity removes its aliases,
      // mentions and relations, never a memory.
      db.exec(`
        CREATE TABLE entities (
          rowid INTEGER PRIMARY KEY,
          tenant TEXT NOT NULL,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          name_key TEXT NOT NULL,
          type TEXT NOT NULL,
          aliases TEXT NOT NULL DEFAULT '[]',
          observations TEXT NOT NULL DEFAULT '[]',
          search_text TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX entities_by_name ON entities (tenant, name_key);
        CREATE INDEX entities_by_tenant ON entities (tenant);
        CREATE TABLE entity_aliases (
          tenant TEXT NOT NULL,
          alias_key TEXT NOT NULL,
          entity_rowid INTEGER NOT NULL,
          PRIMARY KEY (tenant, alias_key, entity_rowid)
        ) WITHOUT ROWID;
        CREATE INDEX entity_aliases_by_entity ON entity_aliases (entity_rowid);
        CREATE TABLE relations (
          rowid INTEGER PRIMARY KEY,
          tenant TEXT NOT NULL,
          id TEXT NOT NULL UNIQUE,
          from_rowid INTEGER NOT NULL,
          to_rowid INTEGER NOT NULL,
          type TEXT NOT NULL,
          memory_rowid INTEGER,
          valid_from INTEGER,
          invalidated_at INTEGER,
          created_at INTEGER NOT NULL
        );
        -- Per end, in rowid order: an entity's newest relations are an index range read backwards.
        CREATE INDEX relations_by_from ON relations (from_rowid);
        CREATE INDEX relations_by_to ON relations (to_rowid);
        -- Finds the live relation a new identical one would duplicate.
        CREATE INDEX relations_live ON relations (from_rowid, to_rowid, type) WHERE invalidated_at IS NULL;
        CREATE INDEX relations_by_memory ON relations (memory_rowid);
        -- One row per memory and entity; the key's order serves "newest memories naming this entity".
        CREATE TABLE mentions (
          entity_rowid INTEGER NOT NULL,
          memory_rowid INTEGER NOT NULL,
          role TEXT NOT NULL,
          PRIMARY KEY (entity_rowid, memory_rowid)
        ) WITHOUT ROWID;
        CREATE INDEX mentions_by_memory ON mentions (memory_rowid);
        CREATE TRIGGER graph_follows_memory_delete AFTER DELETE ON memories BEGIN
          DELETE FROM mentions WHERE memory_rowid = old.rowid;
          UPDATE relations SET memory_rowid = NULL WHERE memory_rowid = old.rowid;
        END;
        CREATE TRIGGER graph_follows_entity_delete AFTER DELETE ON entities BEGIN
          DELETE FROM entity_aliases WHERE entity_rowid = old.rowid;
          DELETE FROM mentions WHERE entity_rowid = old.rowid;
          DELETE FROM relations WHERE from_rowid = old.rowid OR to_rowid = old.rowid;
        END;
      `);
    },
  },
  {
    version: 7,
    description: 'memories in session order, for recall to reach the turns beside a hit',
    up(db) {
      db.exec(`CREATE INDEX memories_by_session ON memories (tenant, session_id, occurred_at) WHERE session_id IS NOT NULL;`);
    },
  },
  {
    version: 8,
    description: 'the inspector: list filters, sessions newest first, the injections of a memory',
    up(db) {
      db.exec(`
        -- Listing only pinned, hard-rule, archived or superseded memories newest first reads
        -- just those rows, in order (each is a small part of a large store).
        CREATE INDEX memories_pinned_created ON memories (tenant, created_at) WHERE pinned = 1;
        CREATE INDEX memories_hard_rule_created ON memories (tenant, created_at) WHERE hard_rule = 1;
        CREATE INDEX memories_archived_created ON memories (tenant, created_at) WHERE archived_at IS NOT NULL;
        CREATE INDEX memories_superseded_created ON memories (tenant, created_at) WHERE superseded_by IS NOT NULL;
        -- The turns that injected one memory.
        CREATE INDEX injections_by_memory ON injections (tenant, memory_id);
        -- A session's receipts counted, first and last, from the index alone.
        CREATE INDEX receipts_by_session_time ON receipts (tenant, session_id, created_at);
        -- Sessions most recently updated first: the time out of the record's JSON body.
        ALTER TABLE sessions ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
        UPDATE sessions SET updated_at = coalesce(CAST(round(unixepoch(json_extract(body, '$.updatedAt'), 'subsec') * 1000) AS INTEGER), 0);
        CREATE INDEX sessions_by_updated ON sessions (tenant, updated_at);
      `);
    },
  },
  {
    version: 9,
    description: 'memories spread over the store, for the sample per-store calibration scores each query against',
    up(db) {
      db.exec(`
        -- A ULID's last 16 characters are random: in their order the first memories are an
        -- even sample of the whole store, which a new memory enters only where its id falls
        -- (listing order "spread"). Ids that share them are told apart by the whole id.
        CREATE INDEX memories_spread ON memories (tenant, substr(id, 11), id);
      `);
    },
  },
  {
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
  },
  {
    version: 11,
    description: 'the graph: who made each entity, and the memories whose extraction failed',
    up(db) {
      db.exec(`
        -- 'extracted' entities are removed once nothing holds them; a user's stay. Before this
        -- step nothing told them apart: an entity without observations that a memory names was
        -- made by extraction (which writes no observations); every other one is kept as the user's.
        ALTER TABLE entities ADD COLUMN origin TEXT NOT NULL DEFAULT 'user';
        UPDATE entities SET origin = 'extracted'
          WHERE observations = '[]' AND EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = entities.rowid);
        -- One row per memory whose extraction failed, until it succeeds (engram reindex retries).
        CREATE TABLE extraction_failures (
          memory_rowid INTEGER PRIMARY KEY,
          error TEXT NOT NULL,
          failed_at INTEGER NOT NULL
        );
        CREATE TRIGGER extraction_failures_follow_memory_delete AFTER DELETE ON memories BEGIN
          DELETE FROM extraction_failures WHERE memory_rowid = old.rowid;
        END;
      `);
    },
  },
];

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

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings `db` up to `LATEST_VERSION` (or `target`). Refuses files from a newer Engram and
 * SQLite files that belong to something else.
 */
export function migrate(db: Database.Database, file: string, target = LATEST_VERSION): number {
  const found = check(db, file);
  for (const migration of MIGRATIONS) {
    if (migration.version <= found) continue;
    if (migration.version > target) break;
    // Each step takes the write lock before it reads the version again, so when several
    // processes open a new file at once, each migration runs once, in whichever comes first.
    db.transaction(() => {
      if (check(db, file) >= migration.version) return;
      migration.up(db);
      db.pragma(`application_id = ${APPLICATION_ID}`);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
  return db.pragma('user_version', { simple: true }) as number;
}

/** The file's schema version, once it is known to be an Engram file this build can read. */
function check(db: Database.Database, file: string): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (version > LATEST_VERSION) {
    throw new EngramError(
      'schema_too_new',
      `${file} was written by a newer Engram (schema ${version}; this version understands up to ${LATEST_VERSION}). Upgrade Engram to open it.`,
    );
  }
  if (applicationId !== APPLICATION_ID) {
    const tables = db.prepare(`SELECT count(*) AS n FROM sqlite_master`).get() as { n: number };
    if (applicationId !== 0 || tables.n > 0) {
      throw new EngramError('database_invalid', `${file} is a SQLite database but not an Engram one: choose another --db path`);
    }
  }
  return version;
}
