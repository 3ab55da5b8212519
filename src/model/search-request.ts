/**
 * A search request as a zod schema: the one place its fields, defaults and error messages are
 * written. The library's `search` parses with it, the HTTP API takes it as `POST /v1/search`'s
 * body (strict there, so a misspelt field is an error), and its OpenAPI document is generated
 * from it.
 */
import { z } from 'zod';

import { KINDS, TIERS } from './memory.js';
import { DATE_HINT, shownDate, TIER_ALIASES } from './memory-input.js';

/** Which signals rank the results. */
export const SEARCH_MODES = ['hybrid', 'bm25', 'dense', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** How hybrid mode combines words and meaning. */
export const FUSIONS = ['weighted', 'rrf'] as const;
export type Fusion = (typeof FUSIONS)[number];

/** The largest `limit` a search accepts. */
export const MAX_SEARCH_LIMIT = 1000;

/** A choice among `allowed`, refused with a message that lists them. */
export function choiceOf<const T extends readonly [string, ...string[]]>(allowed: T, name: string) {
  return z.enum(allowed, { error: (issue) => `unknown ${name} ${String(issue.input)}: choose from ${allowed.join(', ')}` });
}

/** A tier, in Engram's spelling or seed 002's (`must_remember`, `nice_to_have`). */
export const tierChoice = z.preprocess(
  (value) => (typeof value === 'string' ? (TIER_ALIASES[value] ?? value) : value),
  choiceOf(TIERS, 'tier'),
);

/** An ISO-8601 date string or a Date, read as an ISO string. */
export function dateField(name: string) {
  return z
    .union([z.string(), z.date()], { error: `${name} must be an ISO-8601 date string` })
    .describe('An ISO-8601 date, e.g. 2026-01-31T09:00:00Z')
    .transform((value, ctx) => {
      const date = value instanceof Date ? value : new Date(value);
      if (Number.isNaN(date.getTime())) {
        ctx.addIssue({ code: 'custom', message: `${name} is not a valid date: ${shownDate(value)}; ${DATE_HINT}` });
        return z.NEVER;
      }
      return date.toISOString();
    });
}

/** A refused value as a message shows it: strings quoted, so `"10"` and `10` differ. */
export function shown(input: unknown): string {
  return typeof input === 'string' ? JSON.stringify(input) : String(input);
}

const queryEmpty = 'query is empty: say what to search for';
const limitMessage = (input: unknown) => `limit must be a whole number from 1 to ${MAX_SEARCH_LIMIT} (got ${shown(input)})`;
const relevanceMessage = (input: unknown) => `minRelevance must be between 0 and 1 (got ${shown(input)})`;

/** A search: what `engram.search` and `POST /v1/search` take. Only `query` is required. */
export const SearchRequestSchema = z.object({
  query: z
    .string({ error: 'query must be a string: say what to search for' })
    .refine((value) => value.trim().length > 0, queryEmpty)
    .describe('What to look for'),
  limit: z
    .number({ error: (issue) => limitMessage(issue.input) })
    .refine((value) => Number.isInteger(value) && value >= 1 && value <= MAX_SEARCH_LIMIT, {
      error: (issue) => limitMessage(issue.input),
    })
    .optional()
    .describe(`1 to ${MAX_SEARCH_LIMIT}. @default 10`),
  scopes: z.array(z.string()).optional().describe('Only these scopes, most specific first'),
  kinds: z.array(choiceOf(KINDS, 'kind')).optional(),
  tiers: z.array(tierChoice).optional(),
  internal: z
    .boolean({ error: 'internal must be true or false' })
    .optional()
    .describe(
      "Include Engram's internal records (working sets, handoff notes, scratchpads), which search leaves out unless `kinds` names them. @default false",
    ),
  mode: choiceOf(SEARCH_MODES, 'search mode').optional().describe('@default "hybrid"'),
  fusion: choiceOf(FUSIONS, 'fusion').optional().describe('@default config [retrieval] fusion ("weighted")'),
  graph: z
    .boolean({ error: 'graph must be true or false' })
    .optional()
    .describe(
      'Follow the knowledge graph from the entities the query names (hybrid mode, weighted fusion). @default config [graph] recall (true)',
    ),
  minRelevance: z
    .number({ error: (issue) => relevanceMessage(issue.input) })
    .refine((value) => value >= 0 && value <= 1, { error: (issue) => relevanceMessage(issue.input) })
    .optional()
    .describe('In [0, 1]. @default 0'),
  occurredAfter: dateField('occurredAfter').optional(),
  occurredBefore: dateField('occurredBefore').optional(),
  recordRetrieval: z.boolean().optional().describe('Count the results as retrieved (feeds cooldown). @default true'),
  cooldown: z.boolean().optional().describe('Apply the retrieval cooldown (seed 001). @default false'),
});

/** A search request once checked. */
export type ParsedSearchRequest = z.output<typeof SearchRequestSchema>;

/** What `search` takes besides the query text (the documented shape of `SearchRequestSchema`). */
export interface SearchOptions {
  query: string;
  /** @default 10 */
  limit?: number;
  scopes?: readonly string[];
  kinds?: readonly (typeof KINDS)[number][];
  tiers?: readonly (typeof TIERS)[number][];
  /**
   * Include Engram's internal records — working sets, handoff notes, scratchpads
   * (`INTERNAL_KINDS`) — which search leaves out unless `kinds` names them.
   * @default false
   */
  internal?: boolean;
  /**
   * Which signals rank the results: `hybrid` (words and meaning, the default), `bm25` (words
   * only), `dense` (meaning only) or `keyword` (seed 004's keyword overlap).
   * @default "hybrid"
   */
  mode?: SearchMode;
  /** How hybrid mode fuses words and meaning. @default config `retrieval.fusion` ("weighted") */
  fusion?: Fusion;
  /**
   * Graph-aware recall in hybrid mode with weighted fusion (`rrf` never follows the graph): the entities the query names lead to the memories about
   * them, one hop further, to dated memories for a question about time, and to the turns beside
   * the best hits; false ranks by words and meaning alone.
   * @default config `graph.recall` (true)
   */
  graph?: boolean;
  /** Leave out results whose relevance is below this, in [0, 1]. @default 0 */
  minRelevance?: number;
  /** Only memories that occurred at or after this time. */
  occurredAfter?: string | Date;
  /** Only memories that occurred before this time. */
  occurredBefore?: string | Date;
  /** Count the results as retrieved (feeds cooldown). @default true */
  recordRetrieval?: boolean;
  /**
   * Apply seed 001's retrieval cooldown, as explicit recall by an agent does (when
   * `[memory.cooldown].paths` includes "explicit"): recently retrieved memories score lower.
   * @default false
   */
  cooldown?: boolean;
}
