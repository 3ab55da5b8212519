/**
 * A MemoryFilter as a SQL WHERE clause over the `memories` table, with bound parameters only
 * (no value is ever spliced into the SQL text).
 */
import type { MemoryFilter } from '../memory-filter.js';

/**
 * Every column of `memories` a clause can read. A change to any other column (a retrieval stamp)
 * never moves a memory in or out of a filter (admitted-sets.ts relies on it).
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

export interface Clause {
  sql: string;
  params: unknown[];
}

/** The WHERE clause for `filter`, with `alias` as the memories table's alias. */
export function filterClause(filter: MemoryFilter, alias: string): Clause {
  const parts: string[] = [`${alias}.tenant = ?`];
  const params: unknown[] = [filter.tenant];
  const anyOf = (column: string, values: readonly string[] | undefined) => {
    if (values === undefined) return;
    if (values.length === 0) {
      parts.push('0');
      return;
    }
    parts.push(`${alias}.${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  anyOf('scope', filter.scopes);
  anyOf('kind', filter.kinds);
  anyOf('tier', filter.tiers);
  if (filter.excludeKinds !== undefined && filter.excludeKinds.length > 0) {
    parts.push(`${alias}.kind NOT IN (${filter.excludeKinds.map(() => '?').join(', ')})`);
    params.push(...filter.excludeKinds);
  }
  if (filter.pinnedOrHardRule) parts.push(`(${alias}.pinned = 1 OR ${alias}.hard_rule = 1)`);
  // Spelled as the partial indexes' conditions (migration 8), so the planner can use them.
  if (filter.onlyPinned) parts.push(`${alias}.pinned = 1`);
  if (filter.onlyHardRule) parts.push(`${alias}.hard_rule = 1`);
  if (filter.onlyArchived) parts.push(`${alias}.archived_at IS NOT NULL`);
  if (filter.onlySuperseded) parts.push(`${alias}.superseded_by IS NOT NULL`);
  if (filter.sessionId !== undefined) {
    parts.push(`${alias}.session_id = ?`);
    params.push(filter.sessionId);
  }
  if (filter.occurredAfter !== undefined) {
    parts.push(`${alias}.occurred_at >= ?`);
    params.push(Date.parse(filter.occurredAfter));
  }
  if (filter.occurredBefore !== undefined) {
    parts.push(`${alias}.occurred_at < ?`);
    params.push(Date.parse(filter.occurredBefore));
  }
  if (!filter.includeArchived && !filter.onlyArchived) parts.push(`${alias}.archived_at IS NULL`);
  if (!filter.includeSuperseded && !filter.onlySuperseded) parts.push(`${alias}.superseded_by IS NULL`);
  return { sql: parts.join(' AND '), params };
}
