/**
 * What listing sessions and a memory's injections take, as zod schemas: a page size (1 to
 * 1000) and where the page starts — a cursor for sessions (most recently updated first, so the
 * list moves while it is read), an offset for one memory's injections (a short list).
 */
import { z } from 'zod';

/** The most rows one page may ask for. */
export const MAX_PAGE_ROWS = 1000;

const pageSize = z
  .number({ error: (issue) => `limit must be a whole number from 1 to ${MAX_PAGE_ROWS} (got ${String(issue.input)})` })
  .refine((value) => Number.isInteger(value) && value >= 1 && value <= MAX_PAGE_ROWS, {
    error: (issue) => `limit must be a whole number from 1 to ${MAX_PAGE_ROWS} (got ${String(issue.input)})`,
  });

/** `engram.sessions(...)`: a page of sessions, most recently updated first. */
export const SessionListRequestSchema = z.object({
  limit: pageSize.optional().describe('@default 50'),
  after: z
    .string({ error: 'after must be a session id' })
    .min(1, 'after must be a session id')
    .optional()
    .describe('Continue after this session (the last one of the previous page)'),
});

/** What `sessions` takes. */
export type SessionListOptions = z.input<typeof SessionListRequestSchema>;

/** `engram.injections(id, ...)`: a page of the turns that injected a memory, latest first. */
export const InjectionListRequestSchema = z.object({
  limit: pageSize.optional().describe('@default 50'),
  offset: z
    .number({ error: (issue) => `offset must be a whole number of at least 0 (got ${String(issue.input)})` })
    .refine((value) => Number.isInteger(value) && value >= 0, {
      error: (issue) => `offset must be a whole number of at least 0 (got ${String(issue.input)})`,
    })
    .optional()
    .describe('@default 0'),
});

/** What `injections` takes. */
export type InjectionListOptions = z.input<typeof InjectionListRequestSchema>;
