/**
 * The SQLite side of the sessions list and of a memory's injections: a page of session records
 * most recently updated first (the `updated_at` column kept beside the JSON body, migration 8),
 * each with its receipts and injections counted from their indexes, and one memory's injections
 * from its own index.
 */
import type Database from 'better-sqlite3';

import { InvalidInputError } from '../../errors.js';
import type { SessionRecord } from '../../model/session.js';
import type { MemoryInjection } from '../activation-log.js';
import type { SessionListQuery, SessionSummary } from '../session-store.js';
import { cachedStatement } from './statement-cache.js';

interface SessionListRow {
  body: string;
  receipts: number;
  injected: number;
  recalled: number;
  first_at: number | null;
  last_at: number | null;
}

/** A page of the tenant's sessions, most recently updated first. */
export function listSessionRows(db: Database.Database, tenant: string, query: SessionListQuery): SessionSummary[] {
  let after: [number, string] | null = null;
  if (query.after !== undefined) {
    const at = cachedStatement(db, `SELECT updated_at FROM sessions WHERE tenant = ? AND id = ?`)
      .pluck()
      .get(tenant, query.after) as number | undefined;
    if (at === undefined) {
      throw new InvalidInputError(`no session ${query.after.slice(0, 100)} to page from: start again from the first page`);
    }
    after = [at, query.after];
  }
  const rows = cachedStatement(
    db,
    `SELECT s.body AS body,
       (SELECT count(*) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS receipts,
       (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id) AS injected,
       (SELECT count(*) FROM injections i WHERE i.tenant = s.tenant AND i.session_id = s.id AND i.lane = 'hot') AS recalled,
       (SELECT min(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS first_at,
       (SELECT max(r.created_at) FROM receipts r WHERE r.tenant = s.tenant AND r.session_id = s.id) AS last_at
     FROM sessions s WHERE s.tenant = ? ${after ? 'AND (s.updated_at, s.id) < (?, ?)' : ''}
     ORDER BY s.updated_at DESC, s.id DESC LIMIT ?`,
  ).all(tenant, ...(after ?? []), query.limit) as SessionListRow[];
  return rows.map((row) => {
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
export function listInjectionRows(
  db: Database.Database,
  tenant: string,
  memoryId: string,
  page: { limit: number; offset?: number },
): MemoryInjection[] {
  const rows = cachedStatement(
    db,
    `SELECT i.session_id AS sessionId, i.turn AS turn, i.lane AS lane, i.receipt_id AS receiptId, r.created_at AS at
     FROM injections i LEFT JOIN receipts r ON r.id = i.receipt_id
     WHERE i.tenant = ? AND i.memory_id = ? ORDER BY i.rowid DESC LIMIT ? OFFSET ?`,
  ).all(tenant, memoryId, page.limit, page.offset ?? 0) as (Omit<MemoryInjection, 'at'> & { at: number | null })[];
  return rows.map((row) => ({ ...row, at: new Date(row.at ?? 0).toISOString() }));
}
