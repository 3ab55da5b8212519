/**
 * A session's persisted state: the turn counters and the recent assistant messages, kept in
 * the store so a session can resume in another process (a hook runs one process per turn).
 */

/** The state of one conversation with an agent. */
export interface SessionRecord {
  tenant: string;
  id: string;
  /** The most specific scope the session writes to and reads from. */
  scope: string;
  /** User turns so far; the first `beforeTurn` makes it 1. */
  turn: number;
  /** Consecutive model steps that only called tools (seed 001's nudge counter). */
  toolOnlyTurns: number;
  /** The last assistant messages, newest last (seed 001's query window). */
  recentAssistantMessages: string[];
  /** The memories the last active recall injected in its hot and pinned lanes, for `context()`. */
  lastRecall: { turn: number; memoryIds: string[] } | null;
  startedAt: string;
  updatedAt: string;
  endedAt: string | null;
}

/** One line of the daily activity log (seed 003): what was written, when. The engine writes one per write. */
export interface ActivityEntry {
  tenant: string;
  at: string;
  /** What happened, e.g. `write_memory`. */
  action: string;
  key: string | null;
  memoryId: string | null;
  summary: string;
}

/**
 * How a write names itself in the activity log when the caller knows it better than the engine
 * does — a tool's name and words (`write_memory`, "appended to deploy-steps: …"). Without one,
 * the engine describes the write itself (`remember`, `update`, `forget`, …).
 */
export interface ActivityLabel {
  /** e.g. `write_memory`. */
  action: string;
  summary: string;
  /** @default the memory's key */
  key?: string | null;
}
