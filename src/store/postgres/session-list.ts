/**
 * The PostgreSQL side of the sessions list and of a memory's injections, as
 * ../sqlite/session-list.ts: a page of session records most recently updated first (the
 * `updated_at` column kept beside the JSON body, migration 2), each with its receipts and
 * injections counted from their indexes, and one memory's injections from its own index.
 * Session ids are compared and ordered byte by byte (`COLLATE "C"`), as SQLite compares text,
 * whatever the database's collation.
 */
import { InvalidInputError } from '../../errors.js';
import type { SessionRecord } from '../../model/session.js';
import type { MemoryInjection } from '../activation-log.js';
import type { SessionListQuery, SessionSummary } from '../session-store.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';

interface SessionListRow {
  body: string;
  receipts: number;
  injected: number;
  recalled: number;
  first_at: number | null;
  last_at: number | null;
}

/** A page of the tenant's sessions, most recently updated first. */
export async function listSessionRows(db: Queryable, tenant: string, query: SessionListQuery): Promise<SessionSummary[]> {
  const params = new Params([tenant]);
  let after = '';
  if (query.after !== undefined) {
    const found = await db.query(`SELECT updated_at FROM sessions WHERE tenant = $1 AND id = $2`, [tenant, query.after]);
    const row = found.rows[0] as { updated_at: number } | undefined;
    if (row === undefined) {
      throw new InvalidInputError(`no session ${query.after.slice(0, 100)} to page from: start again from the first page`);
    }
    after = `AND (s.updated_at, s.id COLLATE "C") < (${params.add(row.updated_at)}, ${params.add(query.after)})`;
  }
  const result = await db.query(
    `SELECT s.body AS body,
       (SELECT count(*) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS receipts,
       (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id) AS injected,
       (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id AND i.lane = 'hot') AS recalled,
       (SELECT min(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS first_at,
       (SELECT max(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS last_at
     FROM sessions s WHERE s.tenant = $1 ${after}
     ORDER BY s.updated_at DESC, s.id COLLATE "C" DESC LIMIT ${params.add(Math.max(0, query.limit))}`,
    params.values,
  );
  return (result.rows as SessionListRow[]).map((row) => {
    const record = JSON.parse(row.body) as SessionRecord;
    return {
      id: record.id,
      scope: record.scope,
      turns: record.turn,
      startedAt: record.startedAt,
      updatedAt: record.updatedAt,
      endedAt: record.endedAt,
      receipts: row.receipts,
      injected: row.injected,
      recalled: row.recalled,
      firstTurnAt: row.first_at === null ? null : new Date(row.first_at).toISOString(),
      lastTurnAt: row.last_at === null ? null : new Date(row.last_at).toISOString(),
    };
  });
}

/** One memory's injections, the latest recorded first. */
export async function listInjectionRows(
  db: Queryable,
  tenant: string,
  memoryId: string,
  page: { limit: number; offset?: number },
): Promise<MemoryInjection[]> {
  const result = await db.query(
    `SELECT i.session_id AS "sessionId", i.turn AS turn, i.lane AS lane, i.receipt_id AS "receiptId", r.created_at AS at
     FROM injections i LEFT JOIN receipts r ON r.id = i.receipt_id
     WHERE i.tenant = $1 AND i.memory_id = $2 ORDER BY i.rowid DESC LIMIT $3 OFFSET $4`,
    [tenant, memoryId, Math.max(0, page.limit), Math.max(0, page.offset ?? 0)],
  );
  return (result.rows as (Omit<MemoryInjection, 'at'> & { at: number | null })[]).map((row) => ({
    ...row,
    at: new Date(row.at ?? 0).toISOString(),
  }));
}
