/**
 * The activity log part of a Store: seed 003's daily log, one line per write, append-only.
 */
import type { ActivityEntry } from '../model/session.js';

/** Which activity lines to read. */
export interface ActivityQuery {
  /** One UTC day, YYYY-MM-DD; every day when left out. */
  day?: string | undefined;
  /** The latest lines at most. */
  limit: number;
}

/** The daily activity log (seed 003). */
export interface ActivityLog {
  /** Appends one line to the daily activity log (seed 003). */
  appendActivity(entry: ActivityEntry): Promise<void>;
  /** Activity lines, oldest first; `day` (YYYY-MM-DD, UTC) picks one day. */
  listActivity(tenant: string, options: ActivityQuery): Promise<ActivityEntry[]>;
}
