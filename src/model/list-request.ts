/**
 * What listing memories takes, as a zod schema: fields, defaults and error messages in one
 * place, for `engram.list` (the HTTP API's `GET /v1/memories` reads its query string into it).
 */
import { z } from 'zod';

import { KINDS } from './memory.js';
import { choiceOf, tierChoice } from './search-request.js';

const limitMessage = (input: unknown) => `limit must be a whole number of at least 1 (got ${String(input)})`;

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
  all: z.boolean().optional().describe('Include archived and superseded memories. @default false'),
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
  /** Include archived and superseded memories. @default false */
  all?: boolean;
  /** @default "newest" */
  order?: 'newest' | 'oldest';
}
