/**
 * Versioned schema migrations of a PostgreSQL store, recorded in `engram_schema` (one row per
 * step applied). Every step runs in its own transaction under an advisory lock, so servers
 * starting together on one new database migrate it once; a database from a newer Engram is
 * refused rather than misread. Append new steps; never edit a released one.
 *
 * The schema mirrors the SQLite one (see ../sqlite/migrations.ts): a serial `rowid` per memory,
 * entity and relation links the other tables, timestamps are epoch milliseconds, tags, data and
 * bodies are JSON text. Links are foreign keys, which PostgreSQL always enforces, where SQLite
 * uses triggers. Full text is a `tsvector` with a GIN index over words Engram normalises itself
 * (lexical-text.ts), stemmed by Snowball's original Porter stemmer without a stop list, as FTS5's porter
 * tokenizer keeps every word.
 */
import type pg from 'pg';

import { redactUrl } from '../../config/redact-url.js';
import { EngramError } from '../../errors.js';
import { connectionError, type Queryable, withClient } from './connection.js';
import { BASE_SCHEMA } from './schema-base.js';
import { rewriteSearchWords } from './search-words.js';

export interface PostgresMigration {
  version: number;
  description: string;
  sql: string;
  /** What the step does that SQL alone cannot (words Engram computes), run after `sql` in its transaction. */
  after?: (db: Queryable) => Promise<void>;
}

/** The advisory lock key every migrating process takes ("Engr"). */
const MIGRATION_LOCK = 0x456e6772;

export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    description: 'memories with full text and vectors, sessions, receipts, activity, graph',
    sql: BASE_SCHEMA,
  },
  {
    version: 2,
    description: 'the inspector: list filters, sessions newest first, the injections of a memory',
    sql: `
      -- Listing only pinned, hard-rule, archived or superseded memories newest first reads
      -- just those rows, in order (each is a small part of a large store).
      CREATE INDEX memories_pinned_created ON memories (tenant, created_at, rowid) WHERE pinned = 1;
      CREATE INDEX memories_hard_rule_created ON memories (tenant, created_at, rowid) WHERE hard_rule = 1;
      CREATE INDEX memories_archived_created ON memories (tenant, created_at, rowid) WHERE archived_at IS NOT NULL;
      CREATE INDEX memories_superseded_created ON memories (tenant, created_at, rowid) WHERE superseded_by IS NOT NULL;
      -- The turns that injected one memory, the latest first.
      CREATE INDEX injections_by_memory ON injections (tenant, memory_id, rowid);
      -- A session's receipts counted, first and last, from the index alone.
      CREATE INDEX receipts_by_session_time ON receipts (tenant, session_id, created_at);
      -- Sessions most recently updated first: the time out of the record's JSON body (0 when
      -- the body holds no ISO time, as the SQLite step leaves it), ties by id byte by byte.
      ALTER TABLE sessions ADD COLUMN updated_at bigint NOT NULL DEFAULT 0;
      UPDATE sessions SET updated_at = CASE
        WHEN (body::json ->> 'updatedAt') ~ '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$'
        THEN round(extract(epoch FROM (body::json ->> 'updatedAt')::timestamptz) * 1000)::bigint
        ELSE 0 END;
      CREATE INDEX sessions_by_updated ON sessions (tenant, updated_at, id COLLATE "C");
    `,
  },
  {
    version: 3,
    description: 'the count of vector changes moves inside the transaction that makes the change',
    sql: `
      -- One row, updated by every transaction that changes the vectors, so other processes see
      -- the count move exactly when they see the change (a sequence moved after the commit
      -- stayed behind when the process failed in between).
      CREATE TABLE vector_change_count (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        change bigint NOT NULL
      );
      INSERT INTO vector_change_count (change)
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM vector_changes;
      DROP SEQUENCE vector_changes;
    `,
  },
  {
    version: 4,
    description: 'the word statistics of full-text search kept up to date by triggers',
    sql: `
      -- How many memories and words the full text holds (BM25's row count and average length),
      -- kept exact by the triggers below instead of counted on every search, and a count that
      -- moves whenever any memory's words change, so every process knows when the number of
      -- memories holding a word, which it keeps between searches, may be out of date.
      CREATE TABLE search_statistics (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        memories bigint NOT NULL,
        words bigint NOT NULL,
        change bigint NOT NULL
      );
      INSERT INTO search_statistics (memories, words, change)
        SELECT count(*), coalesce(sum(search_length), 0), 0 FROM memories;

      -- The functions keep the search_path they were made with, so a store in its own schema
      -- updates its own row whatever the session's path is.
      CREATE FUNCTION engram_search_statistics_added() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $body$
      BEGIN
        UPDATE search_statistics SET memories = memories + s.n, words = words + s.w, change = change + 1
          FROM (SELECT count(*) AS n, coalesce(sum(search_length), 0) AS w FROM added) s WHERE s.n > 0;
        RETURN NULL;
      END $body$;
      CREATE FUNCTION engram_search_statistics_removed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $body$
      BEGIN
        UPDATE search_statistics SET memories = memories - s.n, words = words - s.w, change = change + 1
          FROM (SELECT count(*) AS n, coalesce(sum(search_length), 0) AS w FROM removed) s WHERE s.n > 0;
        RETURN NULL;
      END $body$;
      -- Most updates (a retrieval counted, a memory archived) leave the words alone and move nothing.
      CREATE FUNCTION engram_search_statistics_changed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $body$
      BEGIN
        UPDATE search_statistics SET words = words + s.w, change = change + 1
          FROM (SELECT coalesce(sum(a.search_length - r.search_length), 0) AS w FROM added a JOIN removed r USING (rowid)
                WHERE a.search_vector IS DISTINCT FROM r.search_vector OR a.search_length <> r.search_length
                HAVING count(*) > 0) s;
        RETURN NULL;
      END $body$;
      CREATE TRIGGER memories_search_added AFTER INSERT ON memories
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION engram_search_statistics_added();
      CREATE TRIGGER memories_search_removed AFTER DELETE ON memories
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION engram_search_statistics_removed();
      CREATE TRIGGER memories_search_changed AFTER UPDATE ON memories
        REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION engram_search_statistics_changed();
    `,
  },
  {
    version: 5,
    description: 'memories spread over the store, for the sample per-store calibration scores each query against',
    sql: `
      -- A ULID's last 16 characters are random: in their order the first memories are an even
      -- sample of the whole store, which a new memory enters only where its id falls (listing
      -- order "spread"). Ids that share them are told apart by the whole id; byte order, as
      -- SQLite's, so both backends draw the same sample.
      CREATE INDEX memories_spread ON memories (tenant, (substr(id, 11) COLLATE "C"), (id COLLATE "C"));
    `,
  },
  {
    version: 6,
    description: 'a count that moves with every change of the memories, their vectors or their mentions',
    sql: `
      -- One row, moved inside every transaction that writes a memory's record (its retrieval
      -- stamps aside), its vector or its mentions, so every process knows when what it keeps of
      -- them (per-store calibration's sample) may be out of date, exactly when it can see the
      -- change. The triggers are named to fire before the word statistics' on the memories (in
      -- name order), so every transaction takes this row before search_statistics and
      -- vector_change_count, and none waits on another in the opposite order.
      CREATE TABLE memory_change_count (
        only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
        change bigint NOT NULL
      );
      INSERT INTO memory_change_count (change) VALUES (0);

      CREATE FUNCTION engram_memory_changed() RETURNS trigger LANGUAGE plpgsql
        SET search_path FROM CURRENT AS $body$
      BEGIN
        UPDATE memory_change_count SET change = change + 1;
        RETURN NULL;
      END $body$;
      CREATE TRIGGER memories_change_counted AFTER INSERT OR DELETE ON memories
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
      CREATE TRIGGER memories_change_counted_update AFTER UPDATE OF
          id, tenant, scope, kind, tier, pinned, hard_rule, text, abstract, context, key, session_id, source, trust,
          data, tags, occurred_at, created_at, updated_at, superseded_by, archived_at, search_vector, search_length
        ON memories FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
      CREATE TRIGGER memory_embeddings_change_counted AFTER INSERT OR UPDATE OR DELETE ON memory_embeddings
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
      CREATE TRIGGER mentions_change_counted AFTER INSERT OR UPDATE OR DELETE ON mentions
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
    `,
  },
  {
    version: 7,
    description: 'CJK bigrams and emoji in the full-text words',
    // The words of the memories that hold CJK characters or emoji are written again with their
    // bigrams and emoji (lexical-text.ts); the word statistics follow by their triggers.
    sql: '',
    after: async (db) => {
      await rewriteSearchWords(db, { onlySegmented: true });
    },
  },
  {
    version: 8,
    description: 'the graph: who made each entity, and the memories whose extraction failed',
    sql: `
      -- As SQLite's migration 11: 'extracted' entities are removed once nothing holds them; an
      -- entity without observations that a memory names was made by extraction, every other
      -- one is kept as the user's.
      ALTER TABLE entities ADD COLUMN origin text NOT NULL DEFAULT 'user';
      UPDATE entities e SET origin = 'extracted'
        WHERE observations = '[]' AND EXISTS (SELECT 1 FROM mentions x WHERE x.entity_rowid = e.rowid);
      -- One row per memory whose extraction failed, until it succeeds (engram reindex retries).
      CREATE TABLE extraction_failures (
        memory_rowid integer PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
        error text NOT NULL,
        failed_at bigint NOT NULL
      );
    `,
  },
  {
    version: 9,
    description: 'the count of memory changes moves with every change of the graph too',
    sql: `
      -- As SQLite's change mark: a write of an entity, an alias or a relation moves
      -- memory_change_count inside its transaction, so what a process keeps of the graph
      -- (docs/decisions/what-is-kept.md) is let go exactly when another's change is visible.
      -- Migration 6's order still holds, each transaction taking this row before
      -- search_statistics and vector_change_count: the graph's writes under the graph lock
      -- touch neither of those; a purge deletes its memories first (their cascades to mentions
      -- and relations, and the memories' own first trigger, take this row before the word
      -- statistics' trigger), then the entities left unheld (this row already held), and moves
      -- vector_change_count last; and nothing else takes either row and then writes the graph.
      CREATE TRIGGER entities_change_counted AFTER INSERT OR UPDATE OR DELETE ON entities
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
      CREATE TRIGGER entity_aliases_change_counted AFTER INSERT OR UPDATE OR DELETE ON entity_aliases
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
      CREATE TRIGGER relations_change_counted AFTER INSERT OR UPDATE OR DELETE ON relations
        FOR EACH STATEMENT EXECUTE FUNCTION engram_memory_changed();
    `,
  },
  {
    version: 10,
    description: 'each vector keeps the key of its text; the embedding cache keeps no copy of a memory vector',
    sql: `
      -- As SQLite's migration 12 (its vectors stay float32 here): the first 64 bits of the
      -- SHA-256 the cache is keyed by — of the text, or with context of NUL "context" NUL
      -- context NUL text — so the cache answers from the memory's own vector
      -- (docs/decisions/bytes-per-memory.md).
      ALTER TABLE memory_embeddings ADD COLUMN IF NOT EXISTS input_key bigint;
      UPDATE memory_embeddings e SET input_key = ('x' || encode(substring(sha256(
          CASE WHEN m.context IS NULL THEN convert_to(m.text, 'UTF8')
          ELSE '\\x00'::bytea || convert_to('context', 'UTF8') || '\\x00'::bytea || convert_to(m.context, 'UTF8')
            || '\\x00'::bytea || convert_to(m.text, 'UTF8') END) from 1 for 8), 'hex'))::bit(64)::bigint
        FROM memories m WHERE m.rowid = e.rowid;
      CREATE INDEX IF NOT EXISTS memory_embeddings_by_input ON memory_embeddings (input_key) WHERE input_key IS NOT NULL;
      -- A database that holds memories answers the cache from their vectors; what it cached
      -- before (each memory's vector again, or the two halves of one read with its context) goes.
      DELETE FROM embedding_cache WHERE EXISTS (SELECT 1 FROM memories);
    `,
  },
];

/** The schema version this build writes. */
export const POSTGRES_LATEST_VERSION = POSTGRES_MIGRATIONS[POSTGRES_MIGRATIONS.length - 1]?.version ?? 0;

/** Brings the database up to the latest schema; returns its version. */
export async function migratePostgres(pool: pg.Pool, url: string): Promise<number> {
  return withClient(pool, url, async (client) => {
    let version = await readVersion(client, url);
    if (version >= POSTGRES_LATEST_VERSION) return version;
    for (const migration of POSTGRES_MIGRATIONS) {
      if (migration.version <= version) continue;
      await client.query('BEGIN');
      try {
        await client.query(`SELECT pg_advisory_xact_lock($1)`, [MIGRATION_LOCK]);
        await client.query(`CREATE TABLE IF NOT EXISTS engram_schema (
          version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
        // Read again under the lock: another process may have run this step meanwhile.
        if ((await readVersion(client, url)) < migration.version) {
          if (migration.sql !== '') await client.query(migration.sql);
          await migration.after?.(client);
          await client.query(`INSERT INTO engram_schema (version, description) VALUES ($1, $2)`, [
            migration.version,
            migration.description,
          ]);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw connectionError(error, url);
      }
      version = migration.version;
    }
    return version;
  });
}

/** The database's schema version (0 when it holds no Engram schema); refuses a newer one. */
export async function readVersion(db: Queryable, url: string): Promise<number> {
  const exists = await db.query(`SELECT to_regclass('engram_schema') IS NOT NULL AS present`);
  if (!(exists.rows[0] as { present: boolean }).present) return 0;
  const result = await db.query(`SELECT coalesce(max(version), 0) AS version FROM engram_schema`);
  const version = (result.rows[0] as { version: number }).version;
  if (version > POSTGRES_LATEST_VERSION) {
    throw new EngramError(
      'schema_too_new',
      `PostgreSQL at ${redactUrl(url)} was written by a newer Engram (schema ${version}; this version understands up to ${POSTGRES_LATEST_VERSION}). Upgrade Engram to use it.`,
    );
  }
  return version;
}
