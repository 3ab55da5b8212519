/**
 * The shapes of request bodies and query strings (STYLE.md 5). A body is the library's own
 * request schema for the operation (`MemoryInputSchema`, `SearchRequestSchema`, …), made strict
 * so a misspelt field is an error, and with no tenant: the token decides that. The same schemas
 * generate the OpenAPI document. Query strings arrive as text, so their schemas turn text into
 * numbers, booleans and lists; the engine then checks them with the library's schemas.
 */
import { z } from 'zod';

import {
  GRAPH_REQUEST_SCHEMAS,
  KINDS,
  LIST_STATUSES,
  MAX_SEARCH_LIMIT,
  MemoryInputSchema,
  MemoryPatchSchema,
  RecallSolutionsRequestSchema,
  SearchRequestSchema,
  SessionOptionsSchema,
  StoreSolutionRequestSchema,
  TIERS,
} from '../../entries/model.js';
import { GRAPH_TOOL_LIMITS } from '../../entries/tools.js';
import type { Tier } from '../../index.js';

/** Seed 002 spells the tiers out; those spellings are accepted too. */
const TIER_ALIASES: Readonly<Record<string, Tier>> = { must_remember: 'must', nice_to_have: 'nice' };

const kind = z.enum(KINDS);
const tier = z
  .enum([...TIERS, ...(Object.keys(TIER_ALIASES) as ['must_remember', 'nice_to_have'])])
  .transform((value): Tier => TIER_ALIASES[value] ?? (value as Tier));
const nullableText = z.string().nullable();

/** `POST /v1/memories`: a new memory; only `text` is required. */
export const CreateMemoryBody = MemoryInputSchema.omit({ tenant: true });

/** `PATCH /v1/memories/{id}`: the fields to change. */
export const UpdateMemoryBody = MemoryPatchSchema;

const boolean = z.enum(['true', 'false'], { error: 'must be true or false' }).transform((value) => value === 'true');
const whole = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
/** A list in a query string: repeated (`?scope=a&scope=b`) or comma-separated (`?scope=a,b`). */
const list = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part.length > 0),
    )
    .pipe(z.array(item))
    .describe('Comma-separated, or the parameter repeated');

/** `GET /v1/memories`. */
export const ListMemoriesQuery = z.strictObject({
  limit: whole(1, MAX_SEARCH_LIMIT).optional().describe('@default 50'),
  offset: whole(0).optional().describe('@default 0'),
  scope: list(z.string()).optional(),
  kind: list(kind).optional(),
  tier: list(tier).optional(),
  all: boolean.optional().describe('Include archived and superseded memories. @default false'),
  status: z
    .enum(LIST_STATUSES)
    .optional()
    .describe('live, all, or only archived or only superseded memories; overrides `all`. @default "live"'),
  internal: boolean
    .optional()
    .describe(
      "Include Engram's internal records (working sets, handoff notes, scratchpads), left out unless `kind` names them. @default false",
    ),
  pinned: boolean.optional().describe('Only pinned memories'),
  hard_rule: boolean.optional().describe('Only hard-rule memories'),
  after: z.string().min(1).optional().describe('Continue after the memory with this id (the last of the previous page)'),
  before: z.string().min(1).optional().describe('The page just before the memory with this id'),
  order: z.enum(['newest', 'oldest']).optional().describe('@default "newest"'),
});

/** `GET /v1/stats`. */
export const StatsQuery = z.strictObject({
  internal: boolean
    .optional()
    .describe("Count Engram's internal records (working sets, handoff notes, scratchpads) with the memories. @default false"),
});

/** `DELETE /v1/memories/{id}`. */
export const ForgetQuery = z.strictObject({
  hard: boolean.optional().describe('Delete for good instead of archiving. @default false'),
});

/** `POST /v1/search`. */
export const SearchBody = SearchRequestSchema.strict();

/** Which session: every session route takes these, in the body or the query string (the id is in the path). */
const sessionWhere = SessionOptionsSchema.omit({ id: true }).shape;

/** `POST /v1/sessions/{id}/start` and `/end` (the body is optional). */
export const SessionBody = z.strictObject(sessionWhere);

/** `POST /v1/sessions/{id}/before-turn`. */
export const BeforeTurnBody = z.strictObject({
  ...sessionWhere,
  message: z
    .string({ error: 'message must be a string: the user message' })
    .refine((value) => value.trim().length > 0, 'message is empty: send the user message to recall memories for')
    .describe('The user message, before the first model call'),
});

/** `POST /v1/sessions/{id}/after-step`. */
export const AfterStepBody = z.strictObject({
  ...sessionWhere,
  assistantText: nullableText.optional().describe('What the model said in this step'),
  toolCalls: z.array(z.unknown()).nullable().optional().describe('The step’s tool calls, in any shape; only their number counts'),
});

/** `GET /v1/sessions/{id}/context`. */
export const SessionQuery = z.strictObject({
  scope: sessionWhere.scope,
  scopes: list(z.string()).optional().describe('Scopes recall may see, most specific first'),
});

/** `POST /v1/solutions`: a solved (or failed) task, seed 004. */
export const StoreSolutionBody = StoreSolutionRequestSchema;

/** `POST /v1/solutions/recall`. */
export const RecallSolutionsBody = RecallSolutionsRequestSchema.strict();

/** `GET /v1/receipts`. */
export const ReceiptsQuery = z.strictObject({
  session: z.string().optional().describe('Only this session'),
  turn: whole(1).optional().describe('Only this turn'),
  limit: whole(1, MAX_SEARCH_LIMIT).optional().describe('@default 20'),
});

/** `GET /v1/activity`: the activity log of one UTC day, or its latest lines. */
export const ActivityQuery = z.strictObject({
  day: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date like 2026-01-31')
    .optional()
    .describe('One UTC day, YYYY-MM-DD. @default the latest lines of any day'),
  limit: whole(1, 10_000).optional().describe('Lines at most, the latest. @default 1000'),
});

/**
 * `GET /v1/graph`: one page of the knowledge graph. The text of the query string becomes
 * numbers, then `read_graph`'s own schema checks the range. The graph's bodies need nothing
 * here: each is its tool's arguments, `GRAPH_REQUEST_SCHEMAS[tool]`.
 */
export const ReadGraphQuery = z
  .strictObject({
    offset: whole(0).optional().describe('Entities to skip: the nextOffset of the previous page. @default 0'),
    limit: whole(1, GRAPH_TOOL_LIMITS.maxPage)
      .optional()
      .describe(`Entities per page, at most ${GRAPH_TOOL_LIMITS.maxPage}. @default ${GRAPH_TOOL_LIMITS.defaultPage}`),
  })
  .pipe(GRAPH_REQUEST_SCHEMAS.read_graph);
