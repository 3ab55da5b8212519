/**
 * The shapes of request bodies and query strings, as zod schemas (STYLE.md 5): they check types
 * at the edge and generate the OpenAPI document. The engine then checks meaning (lengths, empty
 * text, known ids) with its own messages. Objects are strict: a misspelt field is an error, and
 * no body can name a tenant — the token decides that.
 */
import { z } from 'zod';

import {
  FUSIONS,
  KINDS,
  MAX_SEARCH_LIMIT,
  SEARCH_MODES,
  SOLUTION_SIMILARITIES,
  SOLUTION_STATUSES,
  SOURCES,
  type Tier,
  TIERS,
} from '../../index.js';

/** Seed 002 spells the tiers out; those spellings are accepted too. */
const TIER_ALIASES: Readonly<Record<string, Tier>> = { must_remember: 'must', nice_to_have: 'nice' };

const kind = z.enum(KINDS);
const tier = z
  .enum([...TIERS, ...(Object.keys(TIER_ALIASES) as ['must_remember', 'nice_to_have'])])
  .transform((value): Tier => TIER_ALIASES[value] ?? (value as Tier));
const text = z.string();
const nullableText = z.string().nullable();
const stringList = z.array(z.string());
const timestamp = z.string().describe('An ISO-8601 date, e.g. 2026-01-31T09:00:00Z');

/** `POST /v1/memories`: a new memory; only `text` is required. */
export const CreateMemoryBody = z.strictObject({
  text: text.describe('What to remember'),
  kind: kind.optional().describe('@default "note"'),
  tier: tier.optional().describe('How important to keep. @default "unknown"'),
  scope: text.optional().describe('e.g. "user:alice" or "project:x". @default "global"'),
  pinned: z.boolean().optional(),
  hardRule: z.boolean().optional(),
  abstract: nullableText.optional().describe('One sentence, for intrusive recall'),
  context: nullableText.optional().describe('Text that situates the memory, indexed but never shown'),
  key: nullableText.optional().describe('A keyed note: one live memory per scope and key'),
  sessionId: nullableText.optional(),
  source: z.enum(SOURCES).optional(),
  trust: z.number().optional().describe('In [0, 1]'),
  data: z.record(z.string(), z.unknown()).nullable().optional(),
  tags: stringList.optional(),
  occurredAt: timestamp.optional(),
  supersedes: text.optional().describe('Id of a live memory this one replaces; the old one is kept, marked superseded'),
});

/** `PATCH /v1/memories/{id}`: the fields to change. */
export const UpdateMemoryBody = CreateMemoryBody.omit({ supersedes: true }).partial();

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
  order: z.enum(['newest', 'oldest']).optional().describe('@default "newest"'),
});

/** `DELETE /v1/memories/{id}`. */
export const ForgetQuery = z.strictObject({
  hard: boolean.optional().describe('Delete for good instead of archiving. @default false'),
});

/** `POST /v1/search`. */
export const SearchBody = z.strictObject({
  query: text.describe('What to look for'),
  limit: z.number().int().optional().describe(`1 to ${MAX_SEARCH_LIMIT}. @default 10`),
  scopes: stringList.optional().describe('Only these scopes, most specific first'),
  kinds: z.array(kind).optional(),
  tiers: z.array(tier).optional(),
  mode: z.enum(SEARCH_MODES).optional().describe('@default "hybrid"'),
  fusion: z.enum(FUSIONS).optional(),
  minRelevance: z.number().optional().describe('In [0, 1]. @default 0'),
  occurredAfter: timestamp.optional(),
  occurredBefore: timestamp.optional(),
  recordRetrieval: z.boolean().optional().describe('Count the results as retrieved (feeds cooldown). @default true'),
  cooldown: z.boolean().optional().describe('Apply the retrieval cooldown (seed 001). @default false'),
});

/** Which session: every session route takes these, in the body or the query string. */
const sessionWhere = {
  scope: text.optional().describe('The scope the session belongs to; send the same one on every call. @default "global"'),
  scopes: stringList.optional().describe('Scopes recall may see, most specific first. @default [scope, "global"]'),
};

/** `POST /v1/sessions/{id}/start` and `/end` (the body is optional). */
export const SessionBody = z.strictObject(sessionWhere);

/** `POST /v1/sessions/{id}/before-turn`. */
export const BeforeTurnBody = z.strictObject({
  ...sessionWhere,
  message: text.describe('The user message, before the first model call'),
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
export const StoreSolutionBody = z.strictObject({
  goal: text,
  approach: text,
  outcome: text,
  confidence: z.number().describe('0 to 100'),
  status: z.enum(SOLUTION_STATUSES).optional().describe('@default "succeeded"'),
  scope: text.optional().describe('@default "global"'),
  sessionId: nullableText.optional(),
});

/** `POST /v1/solutions/recall`. */
export const RecallSolutionsBody = z.strictObject({
  goal: text.describe('The new task'),
  similarity: z.enum(SOLUTION_SIMILARITIES).optional().describe('@default config [solutions] similarity'),
  threshold: z.number().optional().describe('In [0, 1]. @default config [solutions] threshold (0.3)'),
  limit: z.number().int().optional().describe('@default 3'),
  scopes: stringList.optional().describe('@default every scope'),
});

/** `GET /v1/receipts`. */
export const ReceiptsQuery = z.strictObject({
  session: z.string().optional().describe('Only this session'),
  turn: whole(1).optional().describe('Only this turn'),
  limit: whole(1, MAX_SEARCH_LIMIT).optional().describe('@default 20'),
});
