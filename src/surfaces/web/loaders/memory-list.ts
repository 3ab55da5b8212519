/**
 * The memories page's data: one page of `engram.list` (the same call as `GET /v1/memories`),
 * or of `engram.search` (as `POST /v1/search`) when there is a query. The engine filters by
 * scope, kind, tier, flag (pinned, hard rule) and state (live, all, only archived, only
 * superseded) itself, leaving Engram's internal records out unless the page asks for them, and
 * a list page continues from a memory (`after`, `before`), so a page deep in 100k memories
 * costs what the first one does.
 */
import { z } from 'zod';

import { KINDS, LIST_STATUSES, type ListMemoriesOptions, SEARCH_MODES, TIERS } from '../../../entries/model.js';
import type { Engram, Memory, SearchHit } from '../../../index.js';
import type { PageLink } from '../links.js';
import { optionalChoice, optionalOffset, optionalText } from '../query-fields.js';

/** Memories per page. */
export const PAGE_SIZE = 50;
/** Search hits read at most; a search page pages through them. */
const MAX_HITS = 1000;

/** The page's query string. Every field is optional; an empty field means "any". */
export const MemoryListQuery = z.object({
  q: optionalText(1000),
  scope: optionalText(1000),
  kind: optionalChoice(KINDS),
  tier: optionalChoice(TIERS),
  flag: optionalChoice(['pinned', 'hard_rule'] as const),
  status: optionalChoice(LIST_STATUSES),
  mode: optionalChoice(SEARCH_MODES),
  /** `true` shows Engram's internal records (working sets, handoff notes, scratchpads) too. */
  internal: optionalChoice(['true'] as const),
  /** A list page: the memories after this one, or the page just before it. */
  after: optionalText(200),
  before: optionalText(200),
  /** A search page: the position in the ranked hits. */
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
  /** The next and previous pages (cursors for a list, positions for a search), or null at either end. */
  next: PageLink | null;
  previous: PageLink | null;
  /** Something the reader should know about this page. */
  note: string | null;
}

/** Reads one page of memories for `filters`. */
export async function loadMemoryList(engram: Engram, filters: MemoryListFilters): Promise<MemoryListView> {
  if (filters.q) return searchPage(engram, filters);
  const request: ListMemoriesOptions = {
    scopes: scopesOf(filters.scope),
    kinds: filters.kind ? [filters.kind] : undefined,
    tiers: filters.tier ? [filters.tier] : undefined,
    pinned: filters.flag === 'pinned' || undefined,
    hardRule: filters.flag === 'hard_rule' || undefined,
    status: filters.status,
    internal: filters.internal === 'true',
  };
  // One row more than the page says whether another page follows in the direction read.
  if (filters.before) {
    const memories = await engram.list({ ...request, before: filters.before, limit: PAGE_SIZE + 1 });
    const more = memories.length > PAGE_SIZE;
    const rows = (more ? memories.slice(1) : memories).map((memory) => ({ memory, hit: null }));
    const last = rows.at(-1);
    // Nothing before the cursor: this is the first page after all.
    if (last) {
      return {
        filters,
        rows,
        next: { after: last.memory.id },
        previous: more ? { before: (rows[0] as MemoryRow).memory.id } : null,
        note: null,
      };
    }
  }
  const after = filters.before ? undefined : filters.after;
  const memories = await engram.list({ ...request, after, limit: PAGE_SIZE + 1 });
  const rows = memories.slice(0, PAGE_SIZE).map((memory) => ({ memory, hit: null }));
  const last = rows.at(-1);
  return {
    filters,
    rows,
    next: memories.length > PAGE_SIZE && last ? { after: last.memory.id } : null,
    previous: after ? (rows[0] ? { before: rows[0].memory.id } : { first: true }) : null,
    note: null,
  };
}

async function searchPage(engram: Engram, filters: MemoryListFilters): Promise<MemoryListView> {
  const offset = filters.offset ?? 0;
  const keep = flagFilter(filters);
  const hits = await engram.search({
    query: filters.q as string,
    limit: keep ? MAX_HITS : Math.min(MAX_HITS, offset + PAGE_SIZE + 1),
    scopes: scopesOf(filters.scope),
    kinds: filters.kind ? [filters.kind] : undefined,
    tiers: filters.tier ? [filters.tier] : undefined,
    mode: filters.mode,
    internal: filters.internal === 'true',
    // Looking is not retrieving: the inspector must not feed the cooldown.
    recordRetrieval: false,
  });
  // Search has no flag filter: the flag is applied to its (at most MAX_HITS) hits.
  const matching = keep ? hits.filter((hit) => keep(hit.memory)) : hits;
  const page = matching.slice(offset, offset + PAGE_SIZE);
  const status = filters.status ?? 'live';
  return {
    filters,
    rows: page.map((hit) => ({ memory: hit.memory, hit })),
    next: matching.length > offset + PAGE_SIZE ? { offset: offset + PAGE_SIZE } : null,
    previous: offset > 0 ? { offset: Math.max(0, offset - PAGE_SIZE) } : null,
    note: status === 'live' ? null : 'Search finds live memories only: archived and superseded ones are listed without a query.',
  };
}

/** What the page says when it lists nothing: a sentence that says what would fill it. */
export function emptyListSentence(filters: MemoryListFilters): string {
  if (filters.q) return 'No memory matches this search: try other words, another search mode or fewer filters.';
  if (filters.after) return 'No older memories: the list ends here.';
  const filtered =
    Boolean(filters.scope || filters.kind || filters.tier || filters.flag) || (filters.status ?? 'live') !== 'live';
  if (filtered) return 'No memory matches these filters: clear them to see every live memory.';
  return 'No memories yet. Add one with engram add "…" or POST /v1/memories, or let an agent write them with its memory tools.';
}

/** The pinned / hard-rule flag as a test of a search hit's memory; null when there is none. */
function flagFilter(filters: Pick<MemoryListFilters, 'flag'>): ((memory: Memory) => boolean) | null {
  if (filters.flag === 'pinned') return (memory) => memory.pinned;
  if (filters.flag === 'hard_rule') return (memory) => memory.hardRule;
  return null;
}

/** `user:alice, global` → `['user:alice', 'global']`. */
function scopesOf(scope: string | undefined): string[] | undefined {
  const scopes = (scope ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return scopes.length > 0 ? scopes : undefined;
}
