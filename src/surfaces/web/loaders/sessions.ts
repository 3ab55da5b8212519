/**
 * Sessions and their turns: the sessions list (`engram.sessions`, most recently updated first,
 * a page at a time from the last session of the previous one) and each session's turns, read
 * from its receipts (`engram.receipts`, as `GET /v1/receipts`).
 */
import type { SessionSummary } from '../../../entries/model.js';
import type { Engram, Receipt, SessionContext } from '../../../index.js';
import type { PageLink } from '../links.js';

/** Sessions per page. */
export const SESSIONS_PAGE = 50;
/** Receipts read for one session. */
const TURN_SCAN = 1000;

/** The sessions page. */
export interface SessionsView {
  sessions: SessionSummary[];
  /** The next page, or null on the last one. */
  next: PageLink | null;
  /** Whether this page is not the first. */
  deep: boolean;
}

/** A page of sessions, most recently updated first, continuing after the session `after`. */
export async function loadSessions(engram: Engram, after?: string): Promise<SessionsView> {
  const sessions = await engram.sessions({ limit: SESSIONS_PAGE + 1, after });
  const page = sessions.slice(0, SESSIONS_PAGE);
  const last = page.at(-1);
  return {
    sessions: page,
    next: sessions.length > SESSIONS_PAGE && last ? { after: last.id } : null,
    deep: after !== undefined,
  };
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
