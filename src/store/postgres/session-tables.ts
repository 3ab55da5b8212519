/**
 * The PostgreSQL side of sessions, activation history and the activity log: session records
 * and receipts as JSON bodies (read back whole), injections and activity lines as plain rows,
 * as in the SQLite store (../sqlite/session-tables.ts).
 */
import type { Receipt } from '../../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../../model/session.js';
import type { ActivationRecord, Injection, ReceiptQuery } from '../activation-log.js';
import type { Queryable } from './connection.js';
import { Params } from './filter-clause.js';

export async function readSession(db: Queryable, tenant: string, id: string): Promise<SessionRecord | null> {
  const result = await db.query(`SELECT body FROM sessions WHERE tenant = $1 AND id = $2`, [tenant, id]);
  const row = result.rows[0] as { body: string } | undefined;
  return row === undefined ? null : (JSON.parse(row.body) as SessionRecord);
}

export async function writeSession(db: Queryable, record: SessionRecord): Promise<void> {
  await db.query(
    `INSERT INTO sessions (tenant, id, body, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (tenant, id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
    [record.tenant, record.id, JSON.stringify(record), Date.parse(record.updatedAt)],
  );
}

/** Writes the receipt, the injections and the retrieval stamps; the caller wraps it in a transaction. */
export async function writeActivation(db: Queryable, { receipt, injected, retrieved }: ActivationRecord): Promise<void> {
  const at = Date.parse(receipt.createdAt);
  await db.query(`INSERT INTO receipts (tenant, id, session_id, turn, created_at, body) VALUES ($1, $2, $3, $4, $5, $6)`, [
    receipt.tenant,
    receipt.id,
    receipt.sessionId,
    receipt.turn,
    at,
    JSON.stringify(receipt),
  ]);
  if (receipt.sessionId !== null && injected.length > 0) {
    await db.query(
      `INSERT INTO injections (tenant, session_id, turn, memory_id, lane, receipt_id)
       SELECT $1, $2, u.turn, u.memory_id, u.lane, $3
       FROM unnest($4::integer[], $5::text[], $6::text[]) WITH ORDINALITY AS u(turn, memory_id, lane, n) ORDER BY u.n`,
      [
        receipt.tenant,
        receipt.sessionId,
        receipt.id,
        injected.map((i) => i.turn),
        injected.map((i) => i.memoryId),
        injected.map((i) => i.lane),
      ],
    );
  }
  await stampRetrieval(db, receipt.tenant, retrieved, at);
}

/** Counts one retrieval of each of these memories of `tenant`, at `at` (epoch ms). */
export async function stampRetrieval(db: Queryable, tenant: string, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE memories m SET last_retrieved_at = $1, retrieval_count = m.retrieval_count + u.times
     FROM (SELECT id, count(*) AS times FROM unnest($3::text[]) AS id GROUP BY id) u
     WHERE m.tenant = $2 AND m.id = u.id`,
    [at, tenant, [...ids]],
  );
}

export async function readInjections(db: Queryable, tenant: string, sessionId: string, sinceTurn: number): Promise<Injection[]> {
  const result = await db.query(
    `SELECT memory_id AS "memoryId", turn, lane FROM injections
     WHERE tenant = $1 AND session_id = $2 AND turn >= $3 ORDER BY turn, rowid`,
    [tenant, sessionId, sinceTurn],
  );
  return result.rows as Injection[];
}

export async function readReceipts(db: Queryable, tenant: string, query: ReceiptQuery): Promise<Receipt[]> {
  const params = new Params();
  const parts = [`tenant = ${params.add(tenant)}`];
  if (query.sessionId !== undefined) parts.push(`session_id = ${params.add(query.sessionId)}`);
  if (query.turn !== undefined) parts.push(`turn = ${params.add(query.turn)}`);
  const result = await db.query(
    `SELECT body FROM receipts WHERE ${parts.join(' AND ')} ORDER BY rowid DESC LIMIT ${params.add(Math.max(0, query.limit))}`,
    params.values,
  );
  return (result.rows as { body: string }[]).map((row) => JSON.parse(row.body) as Receipt);
}

export async function writeActivity(db: Queryable, entry: ActivityEntry): Promise<void> {
  await db.query(
    `INSERT INTO activity_log (tenant, day, at, action, key, memory_id, summary) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      entry.tenant,
      new Date(entry.at).toISOString().slice(0, 10),
      Date.parse(entry.at),
      entry.action,
      entry.key,
      entry.memoryId,
      entry.summary,
    ],
  );
}

export async function readActivity(
  db: Queryable,
  tenant: string,
  options: { day?: string | undefined; limit: number },
): Promise<ActivityEntry[]> {
  const params = new Params([tenant]);
  const day = options.day === undefined ? '' : `AND day = ${params.add(options.day)}`;
  const result = await db.query(
    `SELECT * FROM (
       SELECT rowid, tenant, at, action, key, memory_id, summary FROM activity_log
       WHERE tenant = $1 ${day} ORDER BY rowid DESC LIMIT ${params.add(Math.max(0, options.limit))}
     ) latest ORDER BY rowid`,
    params.values,
  );
  return (
    result.rows as { tenant: string; at: number; action: string; key: string | null; memory_id: string | null; summary: string }[]
  ).map((row) => ({
    tenant: row.tenant,
    at: new Date(row.at).toISOString(),
    action: row.action,
    key: row.key,
    memoryId: row.memory_id,
    summary: row.summary,
  }));
}
