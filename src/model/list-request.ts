/**
 * What listing memories takes, as a zod schema: fields, defaults and error messages in one
 * place, for `engram.list` (the HTTP API's `GET /v1/memories` reads its query string into it).
 */
import { z } from 'zod';

import { KINDS } from './memory.js';
import { choiceOf, tierChoice } from './search-request.js';

const limitMessage = (input: unknown) => `limit must be a whole number of at least 1 (got ${String(input)})`;

/** Which memories a list shows by their state: live ones, all, or only archived or superseded ones. */
export const LIST_STATUSES = ['live', 'all', 'archived', 'superseded'] as const;
/** One of `LIST_STATUSES`. */
export type ListStatus = (typeof LIST_STATUSES)[number];

/** `engram.list(...)`: a page of memories. */
export const ListRequestSchema = z.object({
  limit: z
    .number({ error: (issue) => limitMessage(issue.input) })
    .refine((value) => Number.isInteger(value) && value >= 1, { error: (issue) => limitMessage(issue.input) })
    .optional()
    .describe('@default 50'),
  offset: z.number().int().min(0).optional().describe('@default 0'),
  scopes: z.array(z.string()).optional(),
  kinds: z.array(choiceOf(KINDS, 'kind')).optional(),
  tiers: z.array(tierChoice).optional(),
  all: z.boolean().optional().describe('Include archived and superseded memories (status "all"). @default false'),
  status: z
    .enum(LIST_STATUSES, { error: `status must be one of: ${LIST_STATUSES.join(', ')}` })
    .optional()
    .describe('live, all, or only archived or only superseded memories; overrides `all`. @default "live"'),
  internal: z
    .boolean()
    .optional()
    .describe(
      "Include Engram's internal records (working sets, handoff notes, scratchpads), which a list leaves out unless `kinds` names them. @default false",
    ),
  pinned: z.boolean().optional().describe('Only pinned memories'),
  hardRule: z.boolean().optional().describe('Only hard-rule memories'),
  after: z.string().min(1).optional().describe('Continue after the memory with this id (the last of the previous page)'),
  before: z.string().min(1).optional().describe('The page just before the memory with this id (the first of the next page)'),
  order: z.enum(['newest', 'oldest']).optional().describe('@default "newest"'),
});

/** What `list` takes. */
export interface ListMemoriesOptions {
  /** @default 50 */
  limit?: number;
  offset?: number;
  scopes?: readonly string[];
  kinds?: readonly (typeof KINDS)[number][];
  tiers?: readonly ('must' | 'nice' | 'unknown')[];
  /** Include archived and superseded memories (status "all"). @default false */
  all?: boolean;
  /** Live memories, all, or only archived or only superseded ones; overrides `all`. @default "live" */
  status?: ListStatus;
  /**
   * Include Engram's internal records — working sets, handoff notes, scratchpads
   * (`INTERNAL_KINDS`) — which a list leaves out unless `kinds` names them.
   * @default false
   */
  internal?: boolean;
  /** Only pinned memories. */
  pinned?: boolean;
  /** Only hard-rule memories. */
  hardRule?: boolean;
  /**
   * Continue after the memory with this id (the last one of the previous page): a cursor, cheap
   * at any depth, where `offset` reads every row before the page. Only one of offset, after, before.
   */
  after?: string;
  /** The page just before the memory with this id (the first one of the page after it). */
  before?: string;
  /** @default "newest" */
  order?: 'newest' | 'oldest';
}
