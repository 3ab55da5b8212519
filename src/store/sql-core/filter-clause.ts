/**
 * A MemoryFilter as a WHERE clause over the `memories` table, written once for both databases,
 * with bound parameters only (no value is ever spliced into the SQL text). Each driver renders it
 * in its dialect (../sqlite/filter-clause.ts, ../postgres/filter-clause.ts).
 */
import type { MemoryFilter } from '../memory-filter.js';
import { isIn, join, raw, type Sql, sql } from './sql.js';

/**
 * Every column of `memories` a clause can read. A change to any other column (a retrieval stamp)
 * never moves a memory in or out of a filter (../sqlite/admitted-sets.ts relies on it).
 */
export const FILTER_COLUMNS = [
  'tenant',
  'scope',
  'kind',
  'tier',
  'pinned',
  'hard_rule',
  'archived_at',
  'superseded_by',
  'session_id',
  'occurred_at',
] as const;

/** The WHERE clause for `filter`, with `alias` as the memories table's alias. */
export function memoryFilterSql(filter: MemoryFilter, alias: string): Sql {
  const column = (name: (typeof FILTER_COLUMNS)[number]) => raw(`${alias}.${name}`);
  const parts: Sql[] = [sql`${column('tenant')} = ${filter.tenant}`];
  const anyOf = (name: 'scope' | 'kind' | 'tier', values: readonly string[] | undefined) => {
    if (values !== undefined) parts.push(values.length === 0 ? raw('false') : isIn(column(name), values));
  };
  anyOf('scope', filter.scopes);
  anyOf('kind', filter.kinds);
  anyOf('tier', filter.tiers);
  if (filter.excludeKinds !== undefined && filter.excludeKinds.length > 0) {
    parts.push(isIn(column('kind'), filter.excludeKinds, true));
  }
  if (filter.pinnedOrHardRule) parts.push(raw(`(${alias}.pinned = 1 OR ${alias}.hard_rule = 1)`));
  // Spelled as the partial indexes' conditions (SQLite migration 8, PostgreSQL migration 2), so
  // the planner can use them.
  if (filter.onlyPinned) parts.push(raw(`${alias}.pinned = 1`));
  if (filter.onlyHardRule) parts.push(raw(`${alias}.hard_rule = 1`));
  if (filter.onlyArchived) parts.push(raw(`${alias}.archived_at IS NOT NULL`));
  if (filter.onlySuperseded) parts.push(raw(`${alias}.superseded_by IS NOT NULL`));
  if (filter.sessionId !== undefined) parts.push(sql`${column('session_id')} = ${filter.sessionId}`);
  if (filter.occurredAfter !== undefined) parts.push(sql`${column('occurred_at')} >= ${Date.parse(filter.occurredAfter)}`);
  if (filter.occurredBefore !== undefined) parts.push(sql`${column('occurred_at')} < ${Date.parse(filter.occurredBefore)}`);
  if (!filter.includeArchived && !filter.onlyArchived) parts.push(raw(`${alias}.archived_at IS NULL`));
  if (!filter.includeSuperseded && !filter.onlySuperseded) parts.push(raw(`${alias}.superseded_by IS NULL`));
  return join(parts, ' AND ');
}
