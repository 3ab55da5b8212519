/**
 * The shared MemoryFilter clause (../sql-core/filter-clause.ts) rendered for SQLite, for the
 * SQLite code that builds its own statements around it (vector table, kept sets).
 */
import type { MemoryFilter } from '../memory-filter.js';
import { render, sqliteDialect } from '../sql-core/dialect.js';
import { memoryFilterSql } from '../sql-core/filter-clause.js';

export { FILTER_COLUMNS } from '../sql-core/filter-clause.js';

/** A WHERE clause's text and its `?` parameters in order. */
export interface Clause {
  sql: string;
  params: unknown[];
}

/** The WHERE clause for `filter`, with `alias` as the memories table's alias. */
export function filterClause(filter: MemoryFilter, alias: string): Clause {
  const { text, params } = render(sqliteDialect, memoryFilterSql(filter, alias));
  return { sql: text, params };
}
