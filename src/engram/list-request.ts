/**
 * Reading what `list()` is given: the shared schema checks it (`model/list-request.ts`), and
 * here it becomes the store's filter and page — the state (live, all, only archived, only
 * superseded) and the flags as filter fields, Engram's internal records left out unless asked
 * for (`model/internal-kinds.ts`), one of offset or a cursor as the page.
 */
import { InvalidInputError } from '../errors.js';
import { hiddenKinds } from '../model/internal-kinds.js';
import { type ListMemoriesOptions, ListRequestSchema } from '../model/list-request.js';
import type { ListOptions, MemoryFilter } from '../store/store.js';
import { describeMessages } from './describe-messages.js';

/** Memories a page holds when `limit` is not given. */
export const DEFAULT_LIST_LIMIT = 50;

/** The store's filter and page for `options`, in `tenant`. */
export function parseListRequest(options: ListMemoriesOptions, tenant: string): { filter: MemoryFilter; page: ListOptions } {
  const result = ListRequestSchema.safeParse(options);
  if (!result.success) throw new InvalidInputError(describeMessages(result.error));
  const request = result.data;
  const pagers = [request.offset !== undefined && request.offset > 0, request.after !== undefined, request.before !== undefined];
  if (pagers.filter(Boolean).length > 1) {
    throw new InvalidInputError('a page is found by one of offset, after or before: send only one');
  }
  const status = request.status ?? (request.all ? 'all' : 'live');
  return {
    filter: {
      tenant,
      scopes: request.scopes,
      kinds: request.kinds,
      excludeKinds: hiddenKinds(request),
      tiers: request.tiers,
      onlyPinned: request.pinned,
      onlyHardRule: request.hardRule,
      // Only archived ones include those also superseded, and the other way round.
      includeArchived: status === 'all' || status === 'superseded',
      includeSuperseded: status === 'all' || status === 'archived',
      onlyArchived: status === 'archived',
      onlySuperseded: status === 'superseded',
    },
    page: {
      limit: request.limit ?? DEFAULT_LIST_LIMIT,
      offset: request.offset ?? 0,
      after: request.after,
      before: request.before,
      order: request.order ?? 'newest',
    },
  };
}
