/**
 * A MemoryFilter as a PostgreSQL WHERE clause over the `memories` table, with numbered
 * parameters only (no value is ever spliced into the SQL text). The same line around a tenant's
 * memories as ../sqlite/filter-clause.ts draws.
 */
import type { MemoryFilter } from '../memory-filter.js';

/** Collects parameter values and hands out their `$n` placeholders. */
export class Params {
  readonly values: unknown[] = [];

  constructor(initial: readonly unknown[] = []) {
    this.values.push(...initial);
  }

  /** The placeholder of `value`, added as the next parameter. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** The WHERE clause for `filter` with `alias` as the memories table's alias; values go into `params`. */
export function filterClause(filter: MemoryFilter, alias: string, params: Params): string {
  const parts: string[] = [`${alias}.tenant = ${params.add(filter.tenant)}`];
  const anyOf = (column: string, values: readonly string[] | undefined) => {
    if (values === undefined) return;
    parts.push(values.length === 0 ? 'false' : `${alias}.${column} = ANY(${params.add([...values])}::text[])`);
  };
  anyOf('scope', filter.scopes);
  anyOf('kind', filter.kinds);
  anyOf('tier', filter.tiers);
  if (filter.excludeKinds !== undefined && filter.excludeKinds.length > 0) {
    parts.push(`NOT (${alias}.kind = ANY(${params.add([...filter.excludeKinds])}::text[]))`);
  }
  if (filter.pinnedOrHardRule) parts.push(`(${alias}.pinned = 1 OR ${alias}.hard_rule = 1)`);
  // Spelled as the partial indexes' conditions (migration 2), so the planner can use them.
  if (filter.onlyPinned) parts.push(`${alias}.pinned = 1`);
  if (filter.onlyHardRule) parts.push(`${alias}.hard_rule = 1`);
  if (filter.onlyArchived) parts.push(`${alias}.archived_at IS NOT NULL`);
  if (filter.onlySuperseded) parts.push(`${alias}.superseded_by IS NOT NULL`);
  if (filter.sessionId !== undefined) parts.push(`${alias}.session_id = ${params.add(filter.sessionId)}`);
  if (filter.occurredAfter !== undefined) parts.push(`${alias}.occurred_at >= ${params.add(Date.parse(filter.occurredAfter))}`);
  if (filter.occurredBefore !== undefined) parts.push(`${alias}.occurred_at < ${params.add(Date.parse(filter.occurredBefore))}`);
  if (!filter.includeArchived && !filter.onlyArchived) parts.push(`${alias}.archived_at IS NULL`);
  if (!filter.includeSuperseded && !filter.onlySuperseded) parts.push(`${alias}.superseded_by IS NULL`);
  return parts.join(' AND ');
}
