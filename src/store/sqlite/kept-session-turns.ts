/**
 * Each session's turns, in order, as one filter admits them, kept across reads so the turns
 * beside a memory (session-neighbours.ts) are found by position. Graph-aware recall asks for the
 * turns beside its best thirty candidates on every search, and the next search asks again about
 * many of the same sessions: the statement seeks twice per candidate (a sixth of a search at 10k
 * memories), where a session kept answers without SQLite.
 *
 * SQLite still decides what a filter admits: a session's list is read with the filter's own SQL,
 * in the order of the statement it stands in for (occurred_at, then rowid), so the turn `d`
 * places before a memory on the list is the one that statement's seek finds. A session is read
 * the second time it is asked about: reading one costs more than seeking beside one memory, and
 * pays only when it is asked about again. Until then, and for a memory the filter refuses (on no
 * list) or a session longer than MAX_TURNS, the statement answers. Everything is let go when the
 * memories' mark moves (memory-writes.ts: any write of a memory's record, by this connection or
 * another), so a store written between searches answers as the statement alone did.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type Database from 'better-sqlite3';

import type { MemoryFilter } from '../memory-filter.js';
import type { SessionNeighbour } from '../memory-store.js';
import { filterClause } from './filter-clause.js';
import type { KeptMemories } from './kept-memories.js';
import type { MemoryWrites } from './memory-writes.js';
import { sessionNeighbours } from './session-neighbours.js';
import { cachedStatement } from './statement-cache.js';

/** A session longer than this is not kept: its neighbours are sought by the statement. */
const MAX_TURNS = 500;
/** Turns, sessions asked about and sessions of memories kept at most; past it, everything is let go. */
const MAX_KEPT = 200_000;

/** One session's admitted turns in order, and each one's place. */
interface Turns {
  ids: readonly string[];
  places: ReadonlyMap<string, number>;
}

export class KeptSessionTurns {
  private readonly db: Database.Database;
  private readonly writes: MemoryWrites;
  private readonly memories: KeptMemories;
  private mark: string | null = null;
  /** By filter (which names the tenant), then session: the turns, or null for a session longer than MAX_TURNS. */
  private readonly sessions = new Map<string, Map<string, Turns | null>>();
  /** By filter, the sessions asked about once and not read yet. */
  private readonly asked = new Map<string, Set<string>>();
  /** By tenant, then memory id: its session (null when it has none, or no such memory). */
  private readonly sessionOf = new Map<string, Map<string, string | null>>();
  private kept = 0;

  constructor(db: Database.Database, writes: MemoryWrites, memories: KeptMemories) {
    this.db = db;
    this.writes = writes;
    this.memories = memories;
  }

  /** As sessionNeighbours (session-neighbours.ts) answers, for the same arguments. */
  neighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): SessionNeighbour[] {
    if (memoryIds.length === 0 || radius <= 0) return [];
    this.refresh();
    const seeds = [...new Set(memoryIds)];
    const sessionOf = this.learnSessions(filter.tenant, seeds);
    const filterKey = JSON.stringify(filter);
    const sessions = ofKey(this.sessions, filterKey, () => new Map<string, Turns | null>());
    const asked = ofKey(this.asked, filterKey, () => new Set<string>());
    const found = new Map<string, SessionNeighbour[]>();
    const unplaced: string[] = [];
    const askedNow = new Set<string>();
    for (const seed of seeds) {
      const session = sessionOf.get(seed);
      if (session === null || session === undefined) continue; // no session, or no such memory
      let turns = sessions.get(session);
      if (turns === undefined && asked.has(session)) turns = this.readTurns(filter, sessions, session, sessionOf);
      const place = turns?.places.get(seed);
      if (turns === undefined) askedNow.add(session);
      if (turns === undefined || turns === null || place === undefined) {
        unplaced.push(seed);
        continue;
      }
      const nearest: SessionNeighbour[] = [];
      for (let distance = 1; distance <= radius; distance++) {
        const before = turns.ids[place - distance];
        const after = turns.ids[place + distance];
        if (before !== undefined) nearest.push({ memoryId: before, of: seed, distance });
        if (after !== undefined) nearest.push({ memoryId: after, of: seed, distance });
      }
      found.set(seed, nearest);
    }
    for (const session of askedNow) asked.add(session);
    this.kept += askedNow.size;
    for (const neighbour of sessionNeighbours(this.db, filter, unplaced, radius)) {
      found.set(neighbour.of, [...(found.get(neighbour.of) ?? []), neighbour]);
    }
    return seeds.flatMap((seed) => found.get(seed) ?? []);
  }

  /** Lets everything go when a memory may have changed since the last read. */
  private refresh(): void {
    const mark = this.writes.mark();
    if (mark === this.mark && this.kept <= MAX_KEPT) return;
    this.sessions.clear();
    this.asked.clear();
    this.sessionOf.clear();
    this.kept = 0;
    this.mark = mark;
  }

  /**
   * The tenant's memories' sessions, with those of `ids` found when not known yet: in the
   * memories the store keeps (a search has just read its candidates), else read.
   */
  private learnSessions(tenant: string, ids: readonly string[]): Map<string, string | null> {
    const sessionOf = ofKey(this.sessionOf, tenant, () => new Map<string, string | null>());
    const unknown = ids.filter((id) => !sessionOf.has(id));
    if (unknown.length === 0) return sessionOf;
    const unread: string[] = [];
    for (const [id, session] of this.memories.sessionsOf(tenant, unknown)) {
      if (session === undefined) unread.push(id);
      else sessionOf.set(id, session);
    }
    this.kept += unknown.length;
    if (unread.length === 0) return sessionOf;
    for (const id of unread) sessionOf.set(id, null);
    const rows = cachedStatement(
      this.db,
      `SELECT m.id, m.session_id FROM json_each(?) j CROSS JOIN memories m ON m.id = j.value WHERE m.tenant = ?`,
    )
      .raw()
      .all(JSON.stringify(unread), tenant) as [string, string | null][];
    for (const [id, session] of rows) sessionOf.set(id, session);
    return sessionOf;
  }

  /** Reads and keeps the session's admitted turns; null when it is too long to keep. */
  private readTurns(
    filter: MemoryFilter,
    sessions: Map<string, Turns | null>,
    session: string,
    sessionOf: Map<string, string | null>,
  ): Turns | null {
    const where = filterClause(filter, 'm');
    const ids = cachedStatement(
      this.db,
      `SELECT m.id FROM memories m INDEXED BY memories_by_session
         WHERE m.tenant = ? AND m.session_id = ? AND ${where.sql}
         ORDER BY m.occurred_at, m.rowid LIMIT ${MAX_TURNS + 1}`,
    )
      .pluck()
      .all(filter.tenant, session, ...where.params) as string[];
    const turns = ids.length > MAX_TURNS ? null : { ids, places: new Map(ids.map((id, place) => [id, place])) };
    sessions.set(session, turns);
    this.kept += turns?.ids.length ?? 1;
    // The session of each of its turns is known from here on, without asking.
    for (const id of turns?.ids ?? []) sessionOf.set(id, session);
    return turns;
  }
}

/** The entry of `map` for `key`, made on first use. */
function ofKey<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
