/**
 * The SQLite side of sessions, activation history and the activity log: session records and
 * receipts as JSON bodies (read back whole), injections and activity lines as plain rows.
 */
import type Database from 'better-sqlite3';

import type { Receipt } from '../../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../../model/session.js';
import type { ActivationRecord, Injection, ReceiptQuery } from '../activation-log.js';
import { cachedStatement } from './statement-cache.js';

export function readSession(db: Database.Database, tenant: string, id: string): SessionRecord | null {
  const body = cachedStatement(db, `SELECT body FROM sessions WHERE tenant = ? AND id = ?`).pluck().get(tenant, id) as
    string | undefined;
  return body === undefined ? null : (JSON.parse(body) as SessionRecord);
}

export function writeSession(db: Database.Database, record: SessionRecord): void {
  cachedStatement(
    db,
    `INSERT INTO sessions (tenant, id, body, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (tenant, id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
  ).run(record.tenant, record.id, JSON.stringify(record), Date.parse(record.updatedAt));
}

/** Writes the receipt, the injections and the retrieval stamps; the caller wraps it in a transaction. */
export function writeActivation(db: Database.Database, { receipt, injected, retrieved }: ActivationRecord): void {
  const at = Date.parse(receipt.createdAt);
  cachedStatement(db, `INSERT INTO receipts (tenant, id, session_id, turn, created_at, body) VALUES (?, ?, ?, ?, ?, ?)`).run(
    receipt.tenant,
    receipt.id,
    receipt.sessionId,
    receipt.turn,
    at,
    JSON.stringify(receipt),
  );
  if (receipt.sessionId !== null) {
    const inject = cachedStatement(
      db,
      `INSERT INTO injections (tenant, session_id, turn, memory_id, lane, receipt_id) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const { memoryId, turn, lane } of injected) {
      inject.run(receipt.tenant, receipt.sessionId, turn, memoryId, lane, receipt.id);
    }
  }
  const stamp = cachedStatement(
    db,
    `UPDATE memories SET last_retrieved_at = ?, retrieval_count = retrieval_count + 1 WHERE tenant = ? AND id = ?`,
  );
  for (const id of retrieved) stamp.run(at, receipt.tenant, id);
}

export function readInjections(db: Database.Database, tenant: string, sessionId: string, sinceTurn: number): Injection[] {
  return cachedStatement(
    db,
    `SELECT memory_id AS memoryId, turn, lane FROM injections
       WHERE tenant = ? AND session_id = ? AND turn >= ? ORDER BY turn, rowid`,
  ).all(tenant, sessionId, sinceTurn) as Injection[];
}

export function readReceipts(db: Database.Database, tenant: string, query: ReceiptQuery): Receipt[] {
  const parts = ['tenant = ?'];
  const params: unknown[] = [tenant];
  if (query.sessionId !== undefined) {
    parts.push('session_id = ?');
    params.push(query.sessionId);
  }
  if (query.turn !== undefined) {
    parts.push('turn = ?');
    params.push(query.turn);
  }
  const bodies = db
    .prepare(`SELECT body FROM receipts WHERE ${parts.join(' AND ')} ORDER BY rowid DESC LIMIT ?`)
    .pluck()
    .all(...params, query.limit) as string[];
  return bodies.map((body) => JSON.parse(body) as Receipt);
}

export function writeActivity(db: Database.Database, entry: ActivityEntry): void {
  db.prepare(`INSERT INTO activity_log (tenant, day, at, action, key, memory_id, summary) VALUES (?, ?, ?, ?, ?, ?, ?)`).run(
    entry.tenant,
    new Date(entry.at).toISOString().slice(0, 10),
    Date.parse(entry.at),
    entry.action,
    entry.key,
    entry.memoryId,
    entry.summary,
  );
}

interface ActivityRow {
  tenant: string;
  at: number;
  action: string;
  key: string | null;
  memory_id: string | null;
  summary: string;
}

export function readActivity(
  db: Database.Database,
  tenant: string,
  options: { day?: string | undefined; limit: number },
): ActivityEntry[] {
  const byDay = options.day !== undefined;
  const rows = db
    .prepare(
      `SELECT * FROM (
         SELECT rowid, tenant, at, action, key, memory_id, summary FROM activity_log
         WHERE tenant = ? ${byDay ? 'AND day = ?' : ''} ORDER BY rowid DESC LIMIT ?
       ) ORDER BY rowid`,
    )
    .all(...(byDay ? [tenant, options.day, options.limit] : [tenant, options.limit])) as ActivityRow[];
  return rows.map((row) => ({
    tenant: row.tenant,
    at: new Date(row.at).toISOString(),
    action: row.action,
    key: row.key,
    memoryId: row.memory_id,
    summary: row.summary,
  }));
}
