/**
 * The sessions list and a memory's injections, written once for both databases: a page of
 * session records most recently updated first (the `updated_at` column kept beside the JSON
 * body), each with its receipts and injections counted from their indexes, and one memory's
 * injections from its own index. Session ids are compared and ordered byte by byte on both. A
 * negative limit or offset counts as 0 (test/store-contract/sessions.ts pins it).
 */
import { InvalidInputError } from '../../errors.js';
import type { SessionRecord } from '../../model/session.js';
import type { MemoryInjection } from '../activation-log.js';
import type { SessionListQuery, SessionSummary } from '../session-store.js';
import { all, get, type Program } from './session.js';
import { bytewise, raw, sql } from './sql.js';

interface SessionListRow {
  body: string;
  receipts: number;
  injected: number;
  recalled: number;
  first_at: number | null;
  last_at: number | null;
}

/** A page of the tenant's sessions, most recently updated first. */
export function* listSessionRows(tenant: string, query: SessionListQuery): Program<SessionSummary[]> {
  const id = bytewise(raw('s.id'));
  let after = sql``;
  if (query.after !== undefined) {
    const cursor = yield* get<{ updated_at: number }>(
      sql`SELECT updated_at FROM sessions WHERE tenant = ${tenant} AND id = ${query.after}`,
    );
    if (cursor === undefined) {
      throw new InvalidInputError(`no session ${query.after.slice(0, 100)} to page from: start again from the first page`);
    }
    after = sql`AND (s.updated_at, ${id}) < (${cursor.updated_at}, ${query.after})`;
  }
  const found = yield* all<SessionListRow>(
    sql`SELECT s.body AS body,
        (SELECT count(*) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS receipts,
        (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id) AS injected,
        (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id AND i.lane = 'hot') AS recalled,
        (SELECT min(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS first_at,
        (SELECT max(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS last_at
      FROM sessions s WHERE s.tenant = ${tenant} ${after}
      ORDER BY s.updated_at DESC, ${id} DESC LIMIT ${Math.max(0, query.limit)}`,
  );
  return found.map((row) => {
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
export function* listInjectionRows(
  tenant: string,
  memoryId: string,
  page: { limit: number; offset?: number },
): Program<MemoryInjection[]> {
  const found = yield* all<Omit<MemoryInjection, 'at'> & { at: number | null }>(
    sql`SELECT i.session_id AS "sessionId", i.turn AS turn, i.lane AS lane, i.receipt_id AS "receiptId", r.created_at AS at
      FROM injections i LEFT JOIN receipts r ON r.id = i.receipt_id
      WHERE i.tenant = ${tenant} AND i.memory_id = ${memoryId} ORDER BY i.rowid DESC
      LIMIT ${Math.max(0, page.limit)} OFFSET ${Math.max(0, page.offset ?? 0)}`,
  );
  return found.map((row) => ({ ...row, at: new Date(row.at ?? 0).toISOString() }));
}
