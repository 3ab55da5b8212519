/**
 * A tenant's live memories counted by scope, for `engram.scopes()`: one grouped read, written
 * once for both databases, where `stats` counts everything five ways (twice, to leave kinds out).
 * `under` keeps a scope and the scopes below it (`docs` holds `docs` and `docs:python`, not
 * `docsets`), compared byte by byte so PostgreSQL's collation cannot reorder `:` and `;`.
 */
import type { ScopeCountOptions } from '../store-statistics.js';
import { all, type Program } from './session.js';
import { bytewise, isIn, raw, sql } from './sql.js';

/** The character after `:`, the end of the range of scopes below a scope. */
const AFTER_SEPARATOR = String.fromCharCode(':'.charCodeAt(0) + 1);

/** Live memories by scope, the largest first and equal counts by scope, byte by byte. */
export function* scopeCounts(tenant: string, options: ScopeCountOptions = {}): Program<Record<string, number>> {
  const excluded = options.excludeKinds ?? [];
  const leftOut = excluded.length === 0 ? sql`` : sql`AND ${isIn(raw('kind'), excluded, true)}`;
  const scope = bytewise(raw('scope'));
  const under =
    options.under === undefined
      ? sql``
      : sql`AND (scope = ${options.under}
          OR (${scope} >= ${`${options.under}:`} AND ${scope} < ${`${options.under}${AFTER_SEPARATOR}`}))`;
  const found = yield* all<{ name: string; n: number }>(
    sql`SELECT scope AS name, count(*) AS n FROM memories
      WHERE tenant = ${tenant} AND archived_at IS NULL AND superseded_by IS NULL ${leftOut} ${under}
      GROUP BY scope ORDER BY n DESC, ${scope}`,
  );
  return Object.fromEntries(found.map(({ name, n }) => [name, n]));
}
