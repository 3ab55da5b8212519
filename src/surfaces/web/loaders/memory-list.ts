/**
 * The memories page's data: one page of `engram.list` (the same call as `GET /v1/memories`),
 * or of `engram.search` (as `POST /v1/search`) when there is a query. The engine filters by
 * scope, kind and tier itself; the pinned / hard-rule flag and "only archived" or "only
 * superseded" are not list filters of the engine, so those pages are gathered by reading on
 * through the list in batches, never more than `MAX_SCAN` rows per page.
 */
import { z } from 'zod';

import {
  type Engram,
  KINDS,
  type ListMemoriesOptions,
  type Memory,
  SEARCH_MODES,
  type SearchHit,
  TIERS,
} from '../../../index.js';
import { formatCount } from '../format.js';
import { optionalChoice, optionalOffset, optionalText } from '../query-fields.js';

/** Memories per page. */
export const PAGE_SIZE = 50;
/** Rows a filtered page reads at most before it stops and offers to read on. */
export const MAX_SCAN = 5000;
const SCAN_BATCH = 250;

/** The page's query string. Every field is optional; an empty field means "any". */
export const MemoryListQuery = z.object({
  q: optionalText(1000),
  scope: optionalText(1000),
  kind: optionalChoice(KINDS),
  tier: optionalChoice(TIERS),
  flag: optionalChoice(['pinned', 'hard_rule'] as const),
  status: optionalChoice(['live', 'all', 'archived', 'superseded'] as const),
  mode: optionalChoice(SEARCH_MODES),
  offset: optionalOffset,
  done: z.string().optional(),
});
/** The checked filters of a memories page. */
export type MemoryListFilters = z.output<typeof MemoryListQuery>;

/** One row: the memory, and the search hit behind it when the page is a search. */
export interface MemoryRow {
  memory: Memory;
  hit: SearchHit | null;
}

/** One page of the memories list. */
export interface MemoryListView {
  filters: MemoryListFilters;
  rows: MemoryRow[];
  offset: number;
  /** Where the next page starts, or null on the last one. */
  nextOffset: number | null;
  /** Where the previous page starts, or null on the first one (or when a filtered read cannot tell). */
  previousOffset: number | null;
  /** Something the reader should know about this page (e.g. why it is short). */
  note: string | null;
}

/** Reads one page of memories for `filters`. */
export async function loadMemoryList(engram: Engram, filters: MemoryListFilters): Promise<MemoryListView> {
  const offset = filters.offset ?? 0;
  if (filters.q) return searchPage(engram, filters, offset);
  const request: ListMemoriesOptions = {
    scopes: scopesOf(filters.scope),
    kinds: filters.kind ? [filters.kind] : undefined,
    tiers: filters.tier ? [filters.tier] : undefined,
    all: (filters.status ?? 'live') !== 'live',
  };
  const keep = rowFilter(filters);
  if (keep) return scanPage(engram, { filters, request, keep, offset });
  const memories = await engram.list({ ...request, limit: PAGE_SIZE + 1, offset });
  return {
    filters,
    rows: memories.slice(0, PAGE_SIZE).map((memory) => ({ memory, hit: null })),
    offset,
    nextOffset: memories.length > PAGE_SIZE ? offset + PAGE_SIZE : null,
    previousOffset: offset > 0 ? Math.max(0, offset - PAGE_SIZE) : null,
    note: null,
  };
}

/**
 * A page of the memories `keep` admits, read on through the list in batches until the page is
 * full, the list ends, or `MAX_SCAN` rows were read. The next page starts after the last row
 * read; where the previous one starts cannot be told without reading backwards.
 */
async function scanPage(
  engram: Engram,
  scan: { filters: MemoryListFilters; request: ListMemoriesOptions; keep: (memory: Memory) => boolean; offset: number },
): Promise<MemoryListView> {
  const { filters, request, keep, offset } = scan;
  const rows: MemoryRow[] = [];
  let position = offset;
  let ended = false;
  while (rows.length < PAGE_SIZE && position - offset < MAX_SCAN) {
    const batch = await engram.list({ ...request, limit: SCAN_BATCH, offset: position });
    let consumed = 0;
    for (const memory of batch) {
      consumed++;
      position++;
      if (keep(memory)) rows.push({ memory, hit: null });
      if (rows.length === PAGE_SIZE) break;
    }
    // A short batch read to its end is the end of the list.
    ended = batch.length < SCAN_BATCH && consumed === batch.length;
    if (ended) break;
  }
  const note =
    !ended && rows.length < PAGE_SIZE
      ? `Read ${formatCount(position - offset)} memories from position ${formatCount(offset)} and found ${rows.length} that match; more may follow.`
      : null;
  return { filters, rows, offset, nextOffset: ended ? null : position, previousOffset: null, note };
}

async function searchPage(engram: Engram, filters: MemoryListFilters, offset: number): Promise<MemoryListView> {
  const keep = rowFilter({ ...filters, status: undefined });
  const limit = keep ? 1000 : Math.min(1000, offset + PAGE_SIZE + 1);
  const hits = await engram.search({
    query: filters.q as string,
    limit,
    scopes: scopesOf(filters.scope),
    kinds: filters.kind ? [filters.kind] : undefined,
    tiers: filters.tier ? [filters.tier] : undefined,
    mode: filters.mode,
    // Looking is not retrieving: the inspector must not feed the cooldown.
    recordRetrieval: false,
  });
  const matching = keep ? hits.filter((hit) => keep(hit.memory)) : hits;
  const page = matching.slice(offset, offset + PAGE_SIZE);
  const status = filters.status ?? 'live';
  return {
    filters,
    rows: page.map((hit) => ({ memory: hit.memory, hit })),
    offset,
    nextOffset: matching.length > offset + PAGE_SIZE ? offset + PAGE_SIZE : null,
    previousOffset: offset > 0 ? Math.max(0, offset - PAGE_SIZE) : null,
    note: status === 'live' ? null : 'Search finds live memories only: archived and superseded ones are listed without a query.',
  };
}

/** The filter the engine cannot apply, as a predicate; null when there is none. */
function rowFilter(filters: Pick<MemoryListFilters, 'flag' | 'status'>): ((memory: Memory) => boolean) | null {
  const tests: ((memory: Memory) => boolean)[] = [];
  if (filters.flag === 'pinned') tests.push((memory) => memory.pinned);
  if (filters.flag === 'hard_rule') tests.push((memory) => memory.hardRule);
  if (filters.status === 'archived') tests.push((memory) => memory.archivedAt !== null);
  if (filters.status === 'superseded') tests.push((memory) => memory.supersededBy !== null);
  return tests.length === 0 ? null : (memory) => tests.every((test) => test(memory));
}

/** `user:alice, global` → `['user:alice', 'global']`. */
function scopesOf(scope: string | undefined): string[] | undefined {
  const scopes = (scope ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return scopes.length > 0 ? scopes : undefined;
}
