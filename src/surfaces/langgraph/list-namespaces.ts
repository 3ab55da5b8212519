/**
 * `listNamespaces({ prefix, suffix, maxDepth, limit, offset })`: the namespaces that hold at least
 * one item, read from the scopes Engram holds live memories in. Conditions match label by label,
 * `*` matching any one label; `maxDepth` cuts each namespace to its first labels (the same cut
 * listed once); the list is sorted as LangGraph's InMemoryStore sorts it, then paged.
 */
import type { MatchCondition } from '@langchain/langgraph-checkpoint';

import type { Engram } from '../../index.js';
import { namespaceOfScope, prefixScope } from './namespace-scope.js';

/** One listing, checked. */
export interface NamespaceListing {
  matchConditions: readonly MatchCondition[];
  maxDepth: number | undefined;
  limit: number;
  offset: number;
}

/** The namespaces `listing` asks for. */
export async function listNamespaces(engram: Engram, listing: NamespaceListing): Promise<string[][]> {
  const held = Object.keys(await engram.scopes({ under: prefixScope([]) })).flatMap((scope) => {
    const namespace = namespaceOfScope(scope);
    return namespace === null ? [] : [namespace];
  });
  const matching = held.filter((namespace) => listing.matchConditions.every((condition) => matches(condition, namespace)));
  const cut = new Map<string, string[]>();
  for (const namespace of matching) {
    const shown = listing.maxDepth === undefined ? namespace : namespace.slice(0, listing.maxDepth);
    cut.set(shown.join('\0'), shown);
  }
  // InMemoryStore's order: the labels joined by its separator, compared as text.
  const sorted = [...cut.values()].sort((a, b) => a.join(':').localeCompare(b.join(':')));
  return sorted.slice(listing.offset, listing.offset + listing.limit);
}

function matches({ matchType, path }: MatchCondition, namespace: readonly string[]): boolean {
  if (path.length > namespace.length) return false;
  const start = matchType === 'prefix' ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === '*' || label === namespace[start + i]);
}
