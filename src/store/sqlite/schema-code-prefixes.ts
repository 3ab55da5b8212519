/**
 * The schema step that lets a first search read a fraction of the vectors (version 14): the
 * tenant's index over the vectors also holds, beside each rowid, the first 16 bytes of the
 * vector's stored code (its first 128 sign bits), which is all the vector index's first stage
 * compares. A process opens a tenant's index from that index alone and reads each vector's entry
 * only when a search shortlists it (vector-index-open.ts). SQLite keeps the index with the rows,
 * so there is nothing to go stale. It replaces the index over the tenant alone (about 24 bytes a
 * memory more). Why: docs/decisions/time-to-first-answer.md.
 */
import type { Migration } from './migration-step.js';

/** The schema from which the tenant's index over the vectors holds each code's prefix. */
export const CODE_PREFIX_SCHEMA = 14;

/** Its name, for the statements that must read it (SQLite's planner prefers the table's rowid order). */
export const CODE_PREFIX_INDEX = 'memory_embeddings_by_tenant_prefix';

export const CODE_PREFIX_STEP: Migration = {
  version: CODE_PREFIX_SCHEMA,
  description: "each vector's code prefix in the tenant's index over the vectors",
  up(db) {
    db.exec(`
      CREATE INDEX ${CODE_PREFIX_INDEX} ON memory_embeddings (tenant, rowid, substr(code, 1, 16));
      DROP INDEX memory_embeddings_by_tenant;
    `);
  },
};
