/**
 * The operations `batch` receives, told apart as LangGraph's stores tell them apart (a search has
 * a `namespacePrefix`, a put or delete a `value`, a get a `namespace` and `key`, a namespace
 * listing its `limit` and `offset`) and checked, each part in LangGraph's terms: a bad namespace
 * is LangGraph's `InvalidNamespaceError`, anything else Engram's `InvalidInputError`.
 */
import type { MatchCondition } from '@langchain/langgraph-checkpoint';

import { InvalidInputError } from '../../index.js';
import type { NamespaceListing } from './list-namespaces.js';
import { checkNamespace, memoryKeyOf, scopeOfNamespace } from './namespace-scope.js';
import type { ItemSearch } from './search-items.js';
import { parseValueFilter } from './value-filter.js';
import { type PreparedPut, preparePut, type PutSettings } from './write-items.js';

/** One checked operation; `where` names it in messages. */
export type StoreOperation =
  | { type: 'get'; scope: string; key: string | null; where: string }
  | { type: 'put'; put: PreparedPut; where: string }
  | { type: 'delete'; scope: string; key: string | null; where: string }
  | { type: 'search'; search: ItemSearch; where: string }
  | { type: 'list'; listing: NamespaceListing; where: string };

/** Checks one operation of a batch; the first wrong part is refused, naming it. */
export function parseOperation(operation: unknown, settings: PutSettings): StoreOperation {
  if (typeof operation !== 'object' || operation === null) {
    throw new InvalidInputError('a store operation is an object: a get, search, put or namespace listing');
  }
  const op = operation as Record<string, unknown>;
  if ('namespacePrefix' in op) return { type: 'search', search: parseSearch(op), where: `search ${shown(op.namespacePrefix)}` };
  if ('namespace' in op && 'key' in op) {
    checkNamespace(op.namespace);
    const where = `${shown(op.namespace)} / ${shown(op.key)}`;
    if ('value' in op && op.value !== null) {
      const put = preparePut(settings, {
        namespace: op.namespace,
        key: op.key as string,
        value: op.value,
        index: parseIndex(op.index),
      });
      return { type: 'put', put, where: `put ${where}` };
    }
    // No item has an empty key (a put refuses one): a get finds nothing, a delete does nothing.
    const key = op.key === '' ? null : memoryKeyOf(op.key);
    const scope = scopeOfNamespace(op.namespace);
    return 'value' in op
      ? { type: 'delete', scope, key, where: `delete ${where}` }
      : { type: 'get', scope, key, where: `get ${where}` };
  }
  if ('limit' in op || 'matchConditions' in op || 'maxDepth' in op) {
    return { type: 'list', listing: parseListing(op), where: 'list namespaces' };
  }
  throw new InvalidInputError(`unknown store operation with fields ${Object.keys(op).join(', ') || '(none)'}`);
}

function parseSearch(op: Record<string, unknown>): ItemSearch {
  checkNamespace(op.namespacePrefix, { allowEmpty: true });
  if (op.query !== undefined && op.query !== null && typeof op.query !== 'string') {
    throw new InvalidInputError('a search query must be a string');
  }
  const query = typeof op.query === 'string' && op.query.trim() !== '' ? op.query : null;
  return {
    namespacePrefix: op.namespacePrefix,
    query,
    filter: parseValueFilter(op.filter),
    limit: count(op.limit, 'limit', 10),
    offset: count(op.offset, 'offset', 0),
  };
}

function parseIndex(index: unknown): false | string[] | undefined {
  if (index === undefined || index === null || index === false) return index === false ? false : undefined;
  if (Array.isArray(index)) return index as string[]; // each path is read by preparePut
  throw new InvalidInputError('a put\'s index is false (not indexed) or a list of field paths, e.g. ["title"]');
}

function parseListing(op: Record<string, unknown>): NamespaceListing {
  const conditions = op.matchConditions ?? [];
  if (!Array.isArray(conditions)) throw new InvalidInputError('matchConditions must be a list of { matchType, path }');
  const matchConditions = conditions.map((condition: unknown): MatchCondition => {
    const { matchType, path } = (condition ?? {}) as Record<string, unknown>;
    if (matchType !== 'prefix' && matchType !== 'suffix') {
      throw new InvalidInputError(`unknown namespace match type ${String(matchType)}: use "prefix" or "suffix"`);
    }
    checkNamespace(path, { allowEmpty: true });
    return { matchType, path };
  });
  const maxDepth = op.maxDepth === undefined || op.maxDepth === null ? undefined : count(op.maxDepth, 'maxDepth', 1);
  if (maxDepth === 0) throw new InvalidInputError('maxDepth must be a whole number of at least 1 (got 0)');
  return { matchConditions, maxDepth, limit: count(op.limit, 'limit', 100), offset: count(op.offset, 'offset', 0) };
}

/** A whole number of at least 0, or `fallback` when not given. */
function count(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidInputError(`${name} must be a whole number of at least 0 (got ${String(value)})`);
  }
  return value;
}

function shown(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}
