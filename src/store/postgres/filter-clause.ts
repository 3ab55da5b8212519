/**
 * The shared MemoryFilter clause (../sql-core/filter-clause.ts) rendered for PostgreSQL, and the
 * `$n` parameter list the PostgreSQL-only statements (full text, vectors) are built with.
 */
import type { MemoryFilter } from '../memory-filter.js';
import { postgresDialect, renderInto } from '../sql-core/dialect.js';
import { memoryFilterSql } from '../sql-core/filter-clause.js';

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
  return renderInto(postgresDialect, memoryFilterSql(filter, alias), params.values);
}
