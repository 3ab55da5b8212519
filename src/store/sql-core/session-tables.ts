/**
 * Sessions, activation history and the activity log, written once for both databases: session
 * records and receipts as JSON bodies (read back whole), injections and activity lines as plain
 * rows. A negative limit reads nothing, on both (test/store-contract/sessions.ts pins it).
 */
import type { Receipt } from '../../model/receipt.js';
import type { ActivityEntry, SessionRecord } from '../../model/session.js';
import type { ActivationRecord, Injection, ReceiptQuery } from '../activation-log.js';
import { all, get, type Program, run } from './session.js';
import { join, JOIN_IN_ORDER, rows, type Sql, sql, table } from './sql.js';

export function* readSession(tenant: string, id: string): Program<SessionRecord | null> {
  const row = yield* get<{ body: string }>(sql`SELECT body FROM sessions WHERE tenant = ${tenant} AND id = ${id}`);
  return row === undefined ? null : (JSON.parse(row.body) as SessionRecord);
}

export function* writeSession(record: SessionRecord): Program<void> {
  yield* run(
    sql`INSERT INTO sessions (tenant, id, body, updated_at)
      VALUES (${record.tenant}, ${record.id}, ${JSON.stringify(record)}, ${Date.parse(record.updatedAt)})
      ON CONFLICT (tenant, id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
  );
}

/** Writes the receipt, the injections and the retrieval stamps; the caller wraps it in a transaction. */
export function* writeActivation({ receipt, injected, retrieved }: ActivationRecord): Program<void> {
  const at = Date.parse(receipt.createdAt);
  yield* run(
    sql`INSERT INTO receipts (tenant, id, session_id, turn, created_at, body)
      VALUES (${receipt.tenant}, ${receipt.id}, ${receipt.sessionId}, ${receipt.turn}, ${at}, ${JSON.stringify(receipt)})`,
  );
  if (receipt.sessionId !== null && injected.length > 0) {
    const columns = [
      { name: 'turn', type: 'integer' },
      { name: 'memory_id', type: 'text' },
      { name: 'lane', type: 'text' },
    ] as const;
    const values = injected.map(({ turn, memoryId, lane }) => [turn, memoryId, lane]);
    // In the order given, so the injections' rowids keep it.
    yield* run(
      sql`INSERT INTO injections (tenant, session_id, turn, memory_id, lane, receipt_id)
        SELECT ${receipt.tenant}, ${receipt.sessionId}, u.turn, u.memory_id, u.lane, ${receipt.id}
        FROM ${rows('u', columns, values)} ORDER BY u.n`,
    );
  }
  yield* stampRetrieval(receipt.tenant, retrieved, at);
}

/** Counts one retrieval of each of these memories of `tenant` (twice for an id named twice), at `at` (epoch ms). */
export function* stampRetrieval(tenant: string, ids: readonly string[], at: number): Program<void> {
  if (ids.length === 0) return;
  // The rows by id first (SQLite's CROSS JOIN keeps that order): the planner would otherwise scan the tenant.
  yield* run(
    sql`UPDATE memories SET last_retrieved_at = ${at},
        retrieval_count = retrieval_count + (SELECT count(*) FROM ${table('j', ids)} WHERE j.value = memories.id)
      WHERE rowid IN (
        SELECT m.rowid FROM ${table('k', ids)} ${JOIN_IN_ORDER} memories m ON m.id = k.value WHERE m.tenant = ${tenant})`,
  );
}

export function* readInjections(tenant: string, sessionId: string, sinceTurn: number): Program<Injection[]> {
  return yield* all<Injection>(
    sql`SELECT memory_id AS "memoryId", turn, lane FROM injections
      WHERE tenant = ${tenant} AND session_id = ${sessionId} AND turn >= ${sinceTurn} ORDER BY turn, rowid`,
  );
}

export function* readReceipts(tenant: string, query: ReceiptQuery): Program<Receipt[]> {
  const parts: Sql[] = [sql`tenant = ${tenant}`];
  if (query.sessionId !== undefined) parts.push(sql`session_id = ${query.sessionId}`);
  if (query.turn !== undefined) parts.push(sql`turn = ${query.turn}`);
  const found = yield* all<{ body: string }>(
    sql`SELECT body FROM receipts WHERE ${join(parts, ' AND ')} ORDER BY rowid DESC LIMIT ${Math.max(0, query.limit)}`,
  );
  return found.map((row) => JSON.parse(row.body) as Receipt);
}

export function* writeActivity(entry: ActivityEntry): Program<void> {
  yield* run(
    sql`INSERT INTO activity_log (tenant, day, at, action, key, memory_id, summary)
      VALUES (${entry.tenant}, ${new Date(entry.at).toISOString().slice(0, 10)}, ${Date.parse(entry.at)}, ${entry.action},
        ${entry.key}, ${entry.memoryId}, ${entry.summary})`,
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

/** The latest lines of the tenant's log (of one day, when given), oldest first. */
export function* readActivity(tenant: string, options: { day?: string | undefined; limit: number }): Program<ActivityEntry[]> {
  const day = options.day === undefined ? sql`` : sql`AND day = ${options.day}`;
  const found = yield* all<ActivityRow>(
    sql`SELECT * FROM (
        SELECT rowid, tenant, at, action, key, memory_id, summary FROM activity_log
        WHERE tenant = ${tenant} ${day} ORDER BY rowid DESC LIMIT ${Math.max(0, options.limit)}
      ) latest ORDER BY rowid`,
  );
  return found.map((row) => ({
    tenant: row.tenant,
    at: new Date(row.at).toISOString(),
    action: row.action,
    key: row.key,
    memoryId: row.memory_id,
    summary: row.summary,
  }));
}
