/**
 * Graph-aware recall: what the knowledge graph adds to a hybrid search whose query names an
 * entity the store knows. The entities named lead to
 * - the memories about them: said by them (a conversation turn's speaker), or about them as
 *   subject, or naming them when nobody else is speaking (a turn by someone else that names
 *   them is mostly addressed to them, so it gains nothing);
 * - the memories one hop away: naming an entity a live relation ties to a named one (other
 *   than extraction's `talks_about`, which ties a speaker to everything they mention);
 * - for a question about time ("When did…"), the memories on those paths that carry a
 *   resolved date;
 * - for a question that pins a day ("on 31 Dec 2023", "10.01.2024"), the memories of that day
 *   (that occurred within a day of it, or name a date in it), whoever said them;
 * - for a question about a place ("Where…", "Which country…"), the memories on those paths that
 *   name a place;
 * - along the conversation, the turns right beside the best hits (a question's answer is
 *   often the reply to, or the lead-in of, the turn that matches it best).
 * Each of the others adds a small, fixed amount to the raw hybrid score before calibration, so
 * relevance keeps one scale and the thresholds their meaning; the day and the place weigh only
 * in the fused order, so without vectors they change nothing. With vectors on, the order of
 * such a search is the fused score of fused-rank.ts, which weighs these paths with the other
 * signals. A query that names no known entity gets nothing here and ranks exactly as plain
 * hybrid search. The memories about a named entity on a pinned day join the candidates as the
 * newest about it do.
 *
 * The amounts were chosen on conversations 1–3 of the LoCoMo development slice (every
 * combination of the speaker, time and neighbour amounts on a coarse grid, the best recall@10
 * kept) and checked on conversations 4–5; see `engram bench locomo`.
 */
import { asksWhen } from '../graph/asks-when.js';
import { asksWhere } from '../graph/asks-where.js';
import { addDays, utcDay } from '../graph/calendar.js';
import { TALKS_ABOUT } from '../graph/extraction.js';
import { type DayRange, pinnedDays } from '../graph/pinned-days.js';
import type { Entity } from '../model/graph.js';
import type { Memory } from '../model/memory.js';
import type { GraphStore, MemoryFilter, MemoryReader } from '../store/store.js';
import { queryNames } from './query-names.js';

/** What each path adds to the raw hybrid score (which runs from 0 to 1). */
export const GRAPH_BOOST = {
  /** The memory is about a named entity (said by it, its subject, or naming it with no other speaker). */
  about: 0.08,
  /** The memory names an entity one stated relation away from a named one. */
  hop: 0.03,
  /** A question about time, and the memory, reached by a path above, carries a resolved date. */
  time: 0.05,
  /** The memory sits beside one of the best hits in its session. */
  neighbour: 0.1,
} as const;

/** How far recall looks along the graph. */
export const GRAPH_REACH = {
  /** The best hits whose session neighbours are visited. */
  seeds: 2,
  /** Turns each way from a seed. */
  radius: 2,
  /** Newest memories about each named entity added as candidates when no index found them. */
  mentionsPerEntity: 10,
  /** Mentions of an entity looked at before the search's filter (bounds a very common name). */
  scanPerEntity: 2_000,
  /** Relations of the named entities followed, newest first. */
  relations: 200,
  /** Days either side of the days a question pins that still count as on them. */
  pinnedReach: 1,
  /** Memories about each named entity on the pinned days added as candidates when no index found them. */
  onPinnedDaysPerEntity: 25,
  // pinnedReach 1 and 2, and 25 and 50 memories, tied on REALTALK chats 1–2 with LoCoMo 1–3 (0 and
  // 10 fell short); the smaller kept (docs/decisions/realtalk-misses.md#built).
} as const;

/** The graph's part in one hit: what it added to the raw score and the path that explains it. */
export interface GraphPart {
  boost: number;
  /** "Caroline", "Caroline → support group", "Caroline → 2023-05-07", "beside …"; null when nothing was added. */
  via: string | null;
  /** Which paths reached it: about a named entity, and a resolved date for a question about time. */
  about: boolean;
  dated: boolean;
  /** It occurred on the days the question pins, or names a date in them (see GRAPH_REACH.pinnedReach). */
  onDay: boolean;
  /** A question about a place, and the memory, reached by the path about a named entity, names one. */
  placed: boolean;
}

/** What a path adds when nothing reaches a memory. */
export const NO_GRAPH_PART: GraphPart = { boost: 0, via: null, about: false, dated: false, onDay: false, placed: false };

/** What the graph says about one query: the entities it names and the entities one hop from them. */
export interface QueryGraph {
  named: ReadonlyMap<string, Entity>;
  /** Entity id one hop away → the name of the named entity it is tied to. */
  hops: ReadonlyMap<string, string>;
  asksWhen: boolean;
  /** The question asks for a place. */
  asksWhere: boolean;
  /** The days the question pins; null when it pins none. */
  days: PinnedDays | null;
}

/** The days a question pins (pinned-days.ts), and the days that count as on them. */
export interface PinnedDays {
  named: DayRange;
  /** `named` widened by GRAPH_REACH.pinnedReach either side. */
  within: DayRange;
}

/**
 * The entities `query` names and their neighbours; null when it names no entity the tenant has.
 * `today` (`YYYY-MM-DD`) places a date written without its year (pinned-days.ts).
 */
export async function readQueryGraph(
  store: Pick<GraphStore, 'findEntities' | 'listRelations'>,
  tenant: string,
  query: string,
  today: string,
): Promise<QueryGraph | null> {
  const names = queryNames(query);
  if (names.length === 0) return null;
  // Dates are reached through the memories that carry them, never named by a question's words.
  const named = new Map(
    (await store.findEntities(tenant, names)).filter((entity) => entity.type !== 'date').map((entity) => [entity.id, entity]),
  );
  if (named.size === 0) return null;
  const hops = new Map<string, string>();
  const relations = await store.listRelations(tenant, [...named.keys()], { limit: GRAPH_REACH.relations });
  // A speaker talks about everything they ever mention: following that reaches most of a
  // conversation and tells nothing (on LoCoMo it cost a point of recall@10). Stated relations
  // (works_at, lives_in, from the graph tools or a caller) are the hops worth taking.
  for (const relation of relations.filter((r) => r.type !== TALKS_ABOUT)) {
    for (const [near, far] of [
      [relation.from, relation.to],
      [relation.to, relation.from],
    ] as const) {
      const from = named.get(near);
      if (from && !named.has(far) && !hops.has(far)) hops.set(far, from.name);
    }
  }
  return { named, hops, asksWhen: asksWhen(query), asksWhere: asksWhere(query), days: widened(pinnedDays(query, today)) };
}

/** `named` and the days that count as on them. */
function widened(named: DayRange | null): PinnedDays | null {
  const reach = GRAPH_REACH.pinnedReach;
  return named && { named, within: { start: addDays(named.start, -reach), end: addDays(named.end, reach) } };
}

/** Memories about the named entities that the search's indexes may have missed, newest first. */
export async function memoriesAbout(
  store: Pick<GraphStore, 'listMentionsOfEntities'>,
  filter: MemoryFilter,
  graph: QueryGraph,
): Promise<string[]> {
  const mentions = await store.listMentionsOfEntities(filter, [...graph.named.keys()], {
    limitPerEntity: GRAPH_REACH.mentionsPerEntity,
    scanPerEntity: GRAPH_REACH.scanPerEntity,
  });
  return [...new Set(mentions.map((mention) => mention.memoryId))];
}

/**
 * Memories about the named entities on the days the query pins, which the search's indexes may
 * have missed, newest first; none when it pins no day.
 */
export async function memoriesOnPinnedDays(
  store: Pick<GraphStore, 'listMentionsOfEntities'>,
  filter: MemoryFilter,
  graph: QueryGraph,
): Promise<string[]> {
  if (graph.days === null) return [];
  const { within } = graph.days;
  const after = `${within.start}T00:00:00.000Z`;
  const before = `${addDays(within.end, 1)}T00:00:00.000Z`;
  // Within the search's own bounds: a filter's window narrows the days, never widens them.
  const onDays: MemoryFilter = {
    ...filter,
    occurredAfter: filter.occurredAfter !== undefined && filter.occurredAfter > after ? filter.occurredAfter : after,
    occurredBefore: filter.occurredBefore !== undefined && filter.occurredBefore < before ? filter.occurredBefore : before,
  };
  const mentions = await store.listMentionsOfEntities(onDays, [...graph.named.keys()], {
    limitPerEntity: GRAPH_REACH.onPinnedDaysPerEntity,
    scanPerEntity: GRAPH_REACH.scanPerEntity,
  });
  return [...new Set(mentions.map((mention) => mention.memoryId))];
}

/**
 * The memories the named entities lead to that the indexes may have missed: the newest about
 * each, and those about each on the days the query pins.
 */
export async function memoriesLedTo(
  store: Pick<GraphStore, 'listMentionsOfEntities'>,
  filter: MemoryFilter,
  graph: QueryGraph,
): Promise<string[]> {
  const [about, onDays] = await Promise.all([memoriesAbout(store, filter, graph), memoriesOnPinnedDays(store, filter, graph)]);
  return [...new Set([...about, ...onDays])];
}

/** The graph's part in each of these memories' scores (by memory id). */
export async function graphParts(
  store: Pick<GraphStore, 'listMentionsInMemories' | 'getEntities'>,
  tenant: string,
  graph: QueryGraph,
  memories: readonly Pick<Memory, 'id' | 'occurredAt'>[],
): Promise<Map<string, GraphPart>> {
  const mentions = await store.listMentionsInMemories(
    tenant,
    memories.map((memory) => memory.id),
  );
  // Names and types are read only where a path needs them: entities one hop away (a date is
  // no hop), and for a question about time, a pinned day or a place, every entity named (to
  // find the dates and places).
  const everyType = graph.asksWhen || graph.asksWhere || graph.days !== null;
  const wanted = new Set(mentions.filter((m) => everyType || graph.hops.has(m.entityId)).map((m) => m.entityId));
  const entities = new Map((await store.getEntities(tenant, [...wanted])).map((entity) => [entity.id, entity]));
  const byMemory = new Map<string, { entityId: string; role: string }[]>();
  for (const mention of mentions) byMemory.set(mention.memoryId, [...(byMemory.get(mention.memoryId) ?? []), mention]);
  return new Map(memories.map(({ id, occurredAt }) => [id, partOf(graph, byMemory.get(id) ?? [], entities, occurredAt)]));
}

/**
 * The best path from the query's entities to one memory, from its mentions and when it occurred
 * (an ISO time; without one, only the dates it names place it on a pinned day). Pure.
 */
export function partOf(
  graph: QueryGraph,
  mentions: readonly { entityId: string; role: string }[],
  entities: ReadonlyMap<string, Pick<Entity, 'name' | 'type'>>,
  occurredAt?: string,
): GraphPart {
  const otherSpeaker = mentions.some((m) => m.role === 'speaker' && !graph.named.has(m.entityId));
  const about = mentions.find(
    (m) => graph.named.has(m.entityId) && (m.role === 'speaker' || m.role === 'subject' || !otherSpeaker),
  );
  const hop = about
    ? undefined
    : mentions.find((m) => graph.hops.has(m.entityId) && entities.has(m.entityId) && entities.get(m.entityId)?.type !== 'date');
  let boost = 0;
  let via: string | null = null;
  if (about) {
    boost = GRAPH_BOOST.about;
    via = graph.named.get(about.entityId)?.name ?? null;
  } else if (hop) {
    boost = GRAPH_BOOST.hop;
    via = `${graph.hops.get(hop.entityId)} → ${entities.get(hop.entityId)?.name}`;
  }
  const date = graph.asksWhen && via !== null ? mentions.find((m) => entities.get(m.entityId)?.type === 'date') : undefined;
  if (date) {
    boost += GRAPH_BOOST.time;
    via = `${via} → ${entities.get(date.entityId)?.name}`;
  }
  const place =
    graph.asksWhere && about
      ? mentions.find((m) => !graph.named.has(m.entityId) && entities.get(m.entityId)?.type === 'place')
      : undefined;
  if (place) via = `${via} → ${entities.get(place.entityId)?.name}`;
  const onDay = graph.days !== null && onDays(graph.days.within, mentions, entities, occurredAt);
  if (onDay && graph.days) via = `${via === null ? '' : `${via}; `}on ${dayRangeName(graph.days.named)}`;
  return { boost, via, about: about !== undefined, dated: date !== undefined, onDay, placed: place !== undefined };
}

/** Whether a memory occurred on `days` or names a date that falls in them. */
function onDays(
  days: DayRange,
  mentions: readonly { entityId: string }[],
  entities: ReadonlyMap<string, Pick<Entity, 'name' | 'type'>>,
  occurredAt: string | undefined,
): boolean {
  const day = occurredAt === undefined ? undefined : utcDay(occurredAt);
  if (day !== undefined && day >= days.start && day <= days.end) return true;
  return mentions.some((m) => {
    const entity = entities.get(m.entityId);
    if (entity?.type !== 'date') return false;
    // A date entity is named by its day, or its first and last day: "2024-01-10", "2024-01-08..2024-01-14".
    const [start = '', end = start] = entity.name.split('..');
    return start <= days.end && end >= days.start;
  });
}

/** A range of days as `via` shows it. */
function dayRangeName(days: DayRange): string {
  return days.start === days.end ? days.start : `${days.start}..${days.end}`;
}

/**
 * The memories beside the best hits (`seedIds`) in their sessions: neighbour id → the seed id it
 * is beside (the first seed that reaches it) and how many turns from the nearest seed it is.
 */
export async function neighboursOf(
  store: Pick<MemoryReader, 'listSessionNeighbours'>,
  filter: MemoryFilter,
  seedIds: readonly string[],
): Promise<Map<string, { of: string; distance: number }>> {
  const neighbours = await store.listSessionNeighbours(filter, seedIds, GRAPH_REACH.radius);
  const beside = new Map<string, { of: string; distance: number }>();
  for (const neighbour of neighbours) {
    const seen = beside.get(neighbour.memoryId);
    if (!seen) beside.set(neighbour.memoryId, { of: neighbour.of, distance: neighbour.distance });
    else seen.distance = Math.min(seen.distance, neighbour.distance);
  }
  return beside;
}
