/**
 * Each session's turns, in order, as one filter admits them, kept across reads so the turns
 * beside a memory (`listSessionNeighbours`) are found by position. Graph-aware recall asks for
 * the turns beside its best thirty candidates on every search, and the next search asks again
 * about many of the same sessions: the store's statement seeks twice per candidate (a sixth of a
 * search at 10k memories), where a session kept answers without the database.
 *
 * The store still decides what a filter admits: a session's list is its `listSessionTurns`, in
 * the order `listSessionNeighbours` counts in, so the turn `d` places before a memory on the list
 * is the one the statement finds. A session is read the second time it is asked about: reading
 * one costs more than seeking beside one memory, and pays only when it is asked about again.
 * Until then, and for a memory the filter refuses (on no list) or a session longer than
 * MAX_TURNS, the store's statement answers. One set is kept per tenant under one change mark
 * (kept-under-mark.ts), so a store written between searches answers as the statement alone did.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { MemoryFilter } from '../memory-filter.js';
import type { SessionNeighbour } from '../memory-store.js';

/** A session longer than this is not kept: its neighbours are sought by the statement. */
const MAX_TURNS = 500;
/** Turns, sessions asked about and sessions of memories kept at most; past it, everything is let go. */
const MAX_KEPT = 200_000;

/** One session's admitted turns in order, and each one's place. */
interface Turns {
  ids: readonly string[];
  places: ReadonlyMap<string, number>;
}

/** What the kept turns are read from. */
export interface SessionReads {
  /** The session of each of `ids` (null: none, or no such memory). */
  sessionsOf(ids: readonly string[]): Promise<Map<string, string | null>>;
  /** The store's `listSessionTurns`. */
  turns(filter: MemoryFilter, session: string, limit: number): Promise<string[]>;
  /** The store's `listSessionNeighbours`. */
  neighbours(filter: MemoryFilter, memoryIds: readonly string[], radius: number): Promise<SessionNeighbour[]>;
}

export class KeptSessionTurns {
  /** By filter, then session: the turns, or null for a session longer than MAX_TURNS. */
  private readonly sessions = new Map<string, Map<string, Turns | null>>();
  /** By filter, the sessions asked about once and not read yet. */
  private readonly asked = new Map<string, Set<string>>();
  /** By memory id: its session (null when it has none, or no such memory). */
  private readonly sessionOf = new Map<string, string | null>();
  private kept = 0;

  /** As `listSessionNeighbours` answers, for the same arguments. */
  async neighbours(
    reads: SessionReads,
    filter: MemoryFilter,
    memoryIds: readonly string[],
    radius: number,
  ): Promise<SessionNeighbour[]> {
    if (memoryIds.length === 0 || radius <= 0) return [];
    if (this.kept > MAX_KEPT) this.clear();
    const seeds = [...new Set(memoryIds)];
    await this.learnSessions(reads, seeds);
    const filterKey = JSON.stringify(filter);
    const sessions = ofKey(this.sessions, filterKey, () => new Map<string, Turns | null>());
    const asked = ofKey(this.asked, filterKey, () => new Set<string>());
    const found = new Map<string, SessionNeighbour[]>();
    const unplaced: string[] = [];
    const askedNow = new Set<string>();
    for (const seed of seeds) {
      const session = this.sessionOf.get(seed);
      if (session === null || session === undefined) continue; // no session, or no such memory
      let turns = sessions.get(session);
      if (turns === undefined && asked.has(session)) turns = await this.readTurns(reads, filter, sessions, session);
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
    if (unplaced.length > 0) {
      for (const neighbour of await reads.neighbours(filter, unplaced, radius)) {
        found.set(neighbour.of, [...(found.get(neighbour.of) ?? []), neighbour]);
      }
    }
    return seeds.flatMap((seed) => found.get(seed) ?? []);
  }

  private clear(): void {
    this.sessions.clear();
    this.asked.clear();
    this.sessionOf.clear();
    this.kept = 0;
  }

  /** Learns the sessions of those of `ids` not known yet. */
  private async learnSessions(reads: SessionReads, ids: readonly string[]): Promise<void> {
    const unknown = ids.filter((id) => !this.sessionOf.has(id));
    if (unknown.length === 0) return;
    for (const [id, session] of await reads.sessionsOf(unknown)) this.sessionOf.set(id, session);
    this.kept += unknown.length;
  }

  /** Reads and keeps the session's admitted turns; null when it is too long to keep. */
  private async readTurns(
    reads: SessionReads,
    filter: MemoryFilter,
    sessions: Map<string, Turns | null>,
    session: string,
  ): Promise<Turns | null> {
    const ids = await reads.turns(filter, session, MAX_TURNS + 1);
    const turns = ids.length > MAX_TURNS ? null : { ids, places: new Map(ids.map((id, place) => [id, place])) };
    sessions.set(session, turns);
    this.kept += turns?.ids.length ?? 1;
    // The session of each of its turns is known from here on, without asking.
    for (const id of turns?.ids ?? []) this.sessionOf.set(id, session);
    return turns;
  }
}

/** The entry of `map` for `key`, made on first use. */
function ofKey<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}
