/**
 * The schema steps of what sits beside the memories: sessions, injections, receipts and the
 * activity log (version 5), and the knowledge graph (version 6; who made each entity and the
 * failed extractions, version 11).
 */
import type { Migration } from './migration-step.js';

export const SESSION_AND_GRAPH_STEPS: readonly Migration[] = [
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
