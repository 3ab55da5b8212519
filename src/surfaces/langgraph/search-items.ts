/**
 * `search(namespacePrefix, { query, filter, limit, offset })` over Engram. With a query it is
 * Engram's search (words and meaning) over the scopes under the prefix, each item's `score` the
 * hit's ranking score, best first. The scopes under a prefix are peers in LangGraph, so the step
 * Engram takes off for each scope further down its list (most specific first) is taken back out.
 * Without a query it is a listing, the most recently written first. Either way the value filter is
 * applied to what Engram returns, reading on until the page is full.
 */
import type { SearchItem } from '@langchain/langgraph-checkpoint';

import { MAX_SEARCH_LIMIT } from '../../entries/model.js';
import type { Engram, SearchHit } from '../../index.js';
import { itemOf } from './items.js';
import { isUnder, prefixScope } from './namespace-scope.js';
import { matchesFilter, type ValueFilter } from './value-filter.js';

/** One search, checked. */
export interface ItemSearch {
  namespacePrefix: readonly string[];
  query: string | null;
  filter: ValueFilter;
  limit: number;
  offset: number;
}

/**
 * Past this many scopes under a prefix, Engram is asked without a scope list and what it returns
 * is kept by scope here (one bound parameter per scope would approach SQLite's limit).
 */
const MAX_LISTED_SCOPES = 500;
/** Memories read per page of a listing. */
const LIST_PAGE = 200;

/** The items `search` finds. */
export async function searchItems(engram: Engram, search: ItemSearch): Promise<SearchItem[]> {
  if (search.limit === 0) return [];
  const under = prefixScope(search.namespacePrefix);
  const scopes = Object.keys(await engram.scopes({ under }));
  if (scopes.length === 0) return [];
  const where: Where = {
    scopes: scopes.length > MAX_LISTED_SCOPES ? undefined : scopes,
    admits: (scope) => isUnder(scope, under),
  };
  return search.query === null ? listItems(engram, where, search) : rankItems(engram, where, search, search.query);
}

interface Where {
  /** The scopes to ask Engram for; undefined for every scope. */
  scopes: string[] | undefined;
  /** Whether a memory's scope is under the prefix. */
  admits: (scope: string) => boolean;
}

/** Newest first: pages of Engram's list, filtered, until `offset + limit` items passed. */
async function listItems(engram: Engram, where: Where, search: ItemSearch): Promise<SearchItem[]> {
  const found: SearchItem[] = [];
  let skipped = 0;
  let after: string | undefined;
  for (;;) {
    const memories = await engram.list({ scopes: where.scopes, limit: LIST_PAGE, after, order: 'newest' });
    for (const memory of memories) {
      const item = where.admits(memory.scope) ? itemOf(memory) : null;
      if (item === null || !matchesFilter(item.value, search.filter)) continue;
      if (skipped < search.offset) skipped += 1;
      else found.push(item);
      if (found.length === search.limit) return found;
    }
    if (memories.length < LIST_PAGE) return found;
    after = memories.at(-1)?.id;
  }
}

/**
 * Best first by score. Engram returns its best `asked` hits; when filtering leaves fewer items
 * than the page needs and more hits may exist, it is asked again for four times as many (up to
 * its limit, `MAX_SEARCH_LIMIT`).
 */
async function rankItems(engram: Engram, where: Where, search: ItemSearch, query: string): Promise<SearchItem[]> {
  const wanted = search.offset + search.limit;
  const exact = search.filter.length === 0 && (where.scopes?.length ?? 2) === 1;
  // With one scope and no filter every hit is an item in order; otherwise some room for both.
  let asked = Math.min(MAX_SEARCH_LIMIT, exact ? wanted : 2 * wanted + 20);
  for (;;) {
    const hits = await engram.search({ query, scopes: where.scopes, limit: asked, recordRetrieval: false });
    const ranked = hits.flatMap((hit) => rankedItem(hit, where, search.filter)).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    if (ranked.length >= wanted || hits.length < asked || asked === MAX_SEARCH_LIMIT) {
      return ranked.slice(search.offset, wanted);
    }
    asked = Math.min(MAX_SEARCH_LIMIT, asked * 4);
  }
}

function rankedItem(hit: SearchHit, where: Where, filter: ValueFilter): SearchItem[] {
  const item = where.admits(hit.memory.scope) ? itemOf(hit.memory) : null;
  if (item === null || !matchesFilter(item.value, filter)) return [];
  // LangGraph's namespaces under a prefix are peers: the scope-list step is taken back out.
  return [{ ...item, score: hit.score / hit.factors.scope }];
}
