/**
 * The first step of a PostgreSQL store's schema (migration 1 in migrations.ts): memories with
 * their full text and vectors, sessions, receipts, activity and the graph. Released; never edited
 * — later changes are steps of their own in migrations.ts.
 */
export const BASE_SCHEMA = `
      CREATE TEXT SEARCH DICTIONARY engram_stem (TEMPLATE = snowball, Language = porter);
      CREATE TEXT SEARCH CONFIGURATION engram_text (COPY = simple);
      ALTER TEXT SEARCH CONFIGURATION engram_text ALTER MAPPING FOR
        asciiword, word, numword, asciihword, hword, hword_part, hword_asciipart, hword_numpart WITH engram_stem;

      CREATE TABLE engram_meta (key text PRIMARY KEY, value text NOT NULL);

      CREATE TABLE memories (
        rowid serial PRIMARY KEY,
        id text NOT NULL UNIQUE,
        tenant text NOT NULL,
        scope text NOT NULL,
        kind text NOT NULL,
        tier text NOT NULL,
        pinned smallint NOT NULL DEFAULT 0,
        hard_rule smallint NOT NULL DEFAULT 0,
        text text NOT NULL,
        abstract text,
        context text,
        key text,
        session_id text,
        source text NOT NULL,
        trust double precision NOT NULL,
        data text,
        tags text NOT NULL DEFAULT '[]',
        occurred_at bigint NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        superseded_by text,
        archived_at bigint,
        last_retrieved_at bigint,
        retrieval_count integer NOT NULL DEFAULT 0,
        search_vector tsvector NOT NULL,
        search_length integer NOT NULL
      );
      CREATE INDEX memories_by_tenant_scope ON memories (tenant, scope, kind);
      CREATE INDEX memories_by_tenant_created ON memories (tenant, created_at);
      CREATE INDEX memories_by_kind_created ON memories (tenant, kind, created_at);
      CREATE INDEX memories_pinned ON memories (tenant, scope) WHERE pinned = 1 OR hard_rule = 1;
      CREATE INDEX memories_by_session ON memories (tenant, session_id, occurred_at, rowid) WHERE session_id IS NOT NULL;
      CREATE UNIQUE INDEX memories_live_key ON memories (tenant, scope, key)
        WHERE key IS NOT NULL AND superseded_by IS NULL AND archived_at IS NULL;
      CREATE INDEX memories_search ON memories USING gin (search_vector);

      CREATE TABLE memory_embeddings (
        rowid integer PRIMARY KEY REFERENCES memories (rowid) ON DELETE CASCADE,
        tenant text NOT NULL,
        vector bytea NOT NULL,
        code bytea NOT NULL
      );
      CREATE INDEX memory_embeddings_by_tenant ON memory_embeddings (tenant);
      -- Moves after every committed change of the vectors, so each process knows when the
      -- in-memory indexes it built are stale.
      CREATE SEQUENCE vector_changes;

      CREATE TABLE embedding_cache (
        model text NOT NULL,
        hash text NOT NULL,
        vector bytea NOT NULL,
        PRIMARY KEY (model, hash)
      );

      CREATE TABLE sessions (tenant text NOT NULL, id text NOT NULL, body text NOT NULL, PRIMARY KEY (tenant, id));
      CREATE TABLE injections (
        rowid bigserial PRIMARY KEY,
        tenant text NOT NULL,
        session_id text NOT NULL,
        turn integer NOT NULL,
        memory_id text NOT NULL,
        lane text NOT NULL,
        receipt_id text NOT NULL
      );
      CREATE INDEX injections_by_session ON injections (tenant, session_id, turn);
      CREATE TABLE receipts (
        rowid bigserial PRIMARY KEY,
        tenant text NOT NULL,
        id text NOT NULL UNIQUE,
        session_id text,
        turn integer NOT NULL,
        created_at bigint NOT NULL,
        body text NOT NULL
      );
      CREATE INDEX receipts_by_session ON receipts (tenant, session_id, turn);
      CREATE TABLE activity_log (
        rowid bigserial PRIMARY KEY,
        tenant text NOT NULL,
        day text NOT NULL,
        at bigint NOT NULL,
        action text NOT NULL,
        key text,
        memory_id text,
        summary text NOT NULL
      );
      CREATE INDEX activity_log_by_day ON activity_log (tenant, day);

      CREATE TABLE entities (
        rowid serial PRIMARY KEY,
        tenant text NOT NULL,
        id text NOT NULL UNIQUE,
        name text NOT NULL,
        name_key text NOT NULL,
        type text NOT NULL,
        aliases text NOT NULL DEFAULT '[]',
        observations text NOT NULL DEFAULT '[]',
        search_text text NOT NULL,
        created_at bigint NOT NULL,
        updated_at bigint NOT NULL,
        UNIQUE (tenant, name_key)
      );
      CREATE TABLE entity_aliases (
        tenant text NOT NULL,
        alias_key text NOT NULL,
        entity_rowid integer NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE,
        PRIMARY KEY (tenant, alias_key, entity_rowid)
      );
      CREATE INDEX entity_aliases_by_entity ON entity_aliases (entity_rowid);
      CREATE TABLE relations (
        rowid serial PRIMARY KEY,
        tenant text NOT NULL,
        id text NOT NULL UNIQUE,
        from_rowid integer NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE,
        to_rowid integer NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE,
        type text NOT NULL,
        memory_rowid integer REFERENCES memories (rowid) ON DELETE SET NULL,
        valid_from bigint,
        invalidated_at bigint,
        created_at bigint NOT NULL
      );
      CREATE INDEX relations_by_from ON relations (from_rowid, rowid);
      CREATE INDEX relations_by_to ON relations (to_rowid, rowid);
      CREATE INDEX relations_live ON relations (from_rowid, to_rowid, type) WHERE invalidated_at IS NULL;
      CREATE INDEX relations_by_memory ON relations (memory_rowid);
      CREATE TABLE mentions (
        entity_rowid integer NOT NULL REFERENCES entities (rowid) ON DELETE CASCADE,
        memory_rowid integer NOT NULL REFERENCES memories (rowid) ON DELETE CASCADE,
        role text NOT NULL,
        PRIMARY KEY (entity_rowid, memory_rowid)
      );
      CREATE INDEX mentions_by_memory ON mentions (memory_rowid);
`;
