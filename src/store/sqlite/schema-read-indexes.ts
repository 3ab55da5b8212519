/**
 * The schema steps that only add ways to read (versions 7–9): memories in session order, the
 * inspector's list filters and orders, and memories spread over the store.
 */
import type { Migration } from './migration-step.js';

export const READ_INDEX_STEPS: readonly Migration[] = [
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
];
