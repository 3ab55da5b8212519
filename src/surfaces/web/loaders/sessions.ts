/**
 * Sessions and their turns, read from the receipts (`engram.receipts`, as `GET /v1/receipts`):
 * the engine keeps a record per session but lists none, and every turn that recalled left a
 * receipt, so the recent receipts say which sessions exist and what each turn decided.
 */
import type { Engram, Receipt, SessionContext } from '../../../index.js';

/** Receipts read for the sessions list, newest first. */
export const SESSION_SCAN = 2000;
/** Receipts read for one session. */
const TURN_SCAN = 1000;

/** One session as the recent receipts show it. */
export interface SessionSummary {
  id: string;
  turns: number;
  receipts: number;
  injected: number;
  firstAt: string;
  lastAt: string;
}

/** The sessions page. */
export interface SessionsView {
  sessions: SessionSummary[];
  /** Receipts read, and whether that was all of them. */
  receiptsRead: number;
  complete: boolean;
  /** Receipts of recalls outside any session. */
  withoutSession: number;
}

/** The sessions of the latest receipts, most recently active first. */
export async function loadSessions(engram: Engram): Promise<SessionsView> {
  const receipts = await engram.receipts({ limit: SESSION_SCAN });
  const byId = new Map<string, { turns: Set<number>; receipts: number; injected: number; firstAt: string; lastAt: string }>();
  let withoutSession = 0;
  for (const receipt of receipts) {
    if (receipt.sessionId === null) {
      withoutSession++;
      continue;
    }
    const entry = byId.get(receipt.sessionId) ?? {
      turns: new Set<number>(),
      receipts: 0,
      injected: 0,
      firstAt: receipt.createdAt,
      lastAt: receipt.createdAt,
    };
    entry.turns.add(receipt.turn);
    entry.receipts++;
    entry.injected += receipt.chosen.length;
    if (receipt.createdAt < entry.firstAt) entry.firstAt = receipt.createdAt;
    if (receipt.createdAt > entry.lastAt) entry.lastAt = receipt.createdAt;
    byId.set(receipt.sessionId, entry);
  }
  const sessions = [...byId.entries()]
    .map(([id, entry]) => ({ ...entry, id, turns: entry.turns.size }))
    .sort((a, b) => b.lastAt.localeCompare(a.lastAt));
  return { sessions, receiptsRead: receipts.length, complete: receipts.length < SESSION_SCAN, withoutSession };
}

/** One turn of a session: its receipts (active recall, then any nudges). */
export interface TurnSummary {
  turn: number;
  receipts: Receipt[];
}

/** One session's page. */
export interface SessionView {
  id: string;
  turns: TurnSummary[];
  /** What the model would be given now (`session.context()`), for a session that exists. */
  context: SessionContext | null;
}

/** One session's turns, newest first, and its context now. */
export async function loadSession(engram: Engram, id: string): Promise<SessionView> {
  const receipts = await engram.receipts({ sessionId: id, limit: TURN_SCAN });
  const byTurn = new Map<number, Receipt[]>();
  for (const receipt of receipts) byTurn.set(receipt.turn, [...(byTurn.get(receipt.turn) ?? []), receipt]);
  const turns = [...byTurn.entries()]
    .sort(([a], [b]) => b - a)
    .map(([turn, list]) => ({ turn, receipts: list.sort((a, b) => a.createdAt.localeCompare(b.createdAt)) }));
  // Reading a session that has no record would create one: only sessions with receipts are opened.
  const context = receipts.length > 0 ? await engram.session({ id }).context() : null;
  return { id, turns, context };
}

/** The receipts `engram receipts --session --turn --limit` shows. */
export async function loadReceipts(
  engram: Engram,
  query: { session?: string | undefined; turn?: number | undefined },
): Promise<Receipt[]> {
  return engram.receipts({ sessionId: query.session, turn: query.turn, limit: query.session ? 50 : 10 });
}
