/**
 * The schema steps of memories themselves (versions 1–4): the memories table with its full-text
 * index and metadata, retrieval statistics and the embedding cache, vectors in a plain table with
 * binary codes, and the context indexed with the memory.
 */
import { blobToVector } from '../sql-core/rows.js';
import { binaryCode } from '../vector/quantized-index.js';
import type { Migration } from './migration-step.js';
import { loadVecWhereNeeded } from './vec-extension.js';

export const MEMORY_STEPS: readonly Migration[] = [
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
      loadVecWhereNeeded(db); // the only step that reads (and drops) a vec0 table
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
];
