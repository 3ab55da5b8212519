/**
 * The stats page: `engram.stats()` (as `GET /v1/stats`) and recall activity per day from the
 * recent receipts. The database file's path and size describe every tenant on it, so, as the
 * API does, they are shown only by a server with a single tenant.
 */
import type { EngramStats } from '../../../entries/model.js';
import type { Engram } from '../../../index.js';

/** Days the recall chart covers, ending today (UTC). */
export const CHART_DAYS = 30;
/** Receipts read for the chart, newest first. */
const RECEIPT_SCAN = 5000;

/** Recall activity on one UTC day. */
export interface RecallDay {
  day: string;
  /** Recall decisions (receipts) made. */
  decisions: number;
  /** Memories they injected. */
  injected: number;
}

/** The stats page. */
export interface StatsView {
  stats: EngramStats;
  /** Whether the file's path and size may be shown. */
  showFile: boolean;
  days: RecallDay[];
  /** Whether the chart's receipts were all of the period's (false when the scan limit cut it). */
  complete: boolean;
}

/**
 * The counts (Engram's internal records among them when `internal`), and recall per day over
 * the last `CHART_DAYS` days.
 */
export async function loadStats(
  engram: Engram,
  options: { now: Date; showFile: boolean; internal: boolean },
): Promise<StatsView> {
  const [stats, receipts] = await Promise.all([
    engram.stats({ internal: options.internal }),
    engram.receipts({ limit: RECEIPT_SCAN }),
  ]);
  const days = lastDays(options.now, CHART_DAYS).map((day) => ({ day, decisions: 0, injected: 0 }));
  const index = new Map(days.map((entry, i) => [entry.day, i]));
  for (const receipt of receipts) {
    const at = index.get(receipt.createdAt.slice(0, 10));
    if (at === undefined) continue;
    const entry = days[at] as RecallDay;
    entry.decisions++;
    entry.injected += receipt.chosen.length;
  }
  const oldest = receipts.at(-1)?.createdAt.slice(0, 10);
  const complete = receipts.length < RECEIPT_SCAN || (oldest !== undefined && oldest < (days[0]?.day ?? ''));
  return { stats, showFile: options.showFile, days, complete };
}

/** The `count` UTC days ending on `now`'s, oldest first, as `YYYY-MM-DD`. */
export function lastDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}
