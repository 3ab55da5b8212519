/**
 * `search_memory` (seed 003): the model's explicit recall. A non-empty query is required; the
 * limit is clamped to 1–50 rather than refused, as the seed says. Results carry what the model
 * needs to cite and judge them: id, kind, date and score.
 */
import { z } from 'zod';

import { InvalidInputError } from '../errors.js';
import { KINDS, TIERS } from '../model/memory.js';
import { choice, clip, requiredText } from './fields.js';
import { TOOL_LIMITS } from './limits.js';
import { defineTool, type ToolContext } from './tool.js';

/** Results when the model names no limit. */
const DEFAULT_LIMIT = 10;

const schema = z.strictObject({
  query: requiredText('query', TOOL_LIMITS.queryChars, 'say what to search for').describe(
    'What to look for, in words: a question, a topic or keywords.',
  ),
  limit: z
    .number({ error: 'limit must be a number' })
    .optional()
    .describe(
      `How many results at most: 1 to ${TOOL_LIMITS.searchResults} (other values are clamped). Default ${DEFAULT_LIMIT}.`,
    ),
  kinds: z
    .array(choice('kind', KINDS), { error: 'kinds must be a list of kinds' })
    .optional()
    .describe('Only memories of these kinds.'),
  tiers: z
    .array(choice('tier', TIERS), { error: 'tiers must be a list of tiers' })
    .optional()
    .describe('Only memories of these importance tiers: must (must remember), nice (nice to have), unknown.'),
  scopes: z
    .array(requiredText('scope', 1_000, 'name a scope such as project:x'), { error: 'scopes must be a list of strings' })
    .optional()
    .describe('Only memories in these scopes, e.g. "user:alice" or "project:x".'),
});

/** One result as the model reads it. */
export interface SearchMemoryResult {
  id: string;
  kind: string;
  tier: string;
  scope: string;
  key: string | null;
  /** When the remembered thing happened (ISO 8601). */
  date: string;
  /** The number the results are ordered by: relevance × recency × scope × exact match (about 0 to 1). */
  score: number;
  /** Relevance in [0, 1]: how well the memory matches, before recency, scope and exact match. */
  relevance: number;
  text: string;
  /** How the knowledge graph reached it ("Caroline → support group"), when it did. */
  via?: string;
}

export const searchMemoryTool = defineTool({
  name: 'search_memory',
  description:
    'Search your long-term memory (facts, preferences, decisions, notes, past thoughts, solved tasks) by words and meaning. ' +
    'Use it before answering questions about prior work, decisions, dates, people, preferences or to-dos. ' +
    `Returns up to ${TOOL_LIMITS.searchResults} entries, best first by score, each with id, kind, date, relevance (0 to 1) and score (relevance adjusted a little for recency, scope and exact matches). ` +
    'Memories you retrieved moments ago rank lower for a while, so searching again brings up other ones.',
  schema,
  async run(args, context) {
    const limit = Math.min(TOOL_LIMITS.searchResults, Math.max(1, Math.round(args.limit ?? DEFAULT_LIMIT)));
    const hits = await context.engram.search({
      query: args.query,
      limit,
      kinds: args.kinds,
      tiers: args.tiers,
      scopes: visibleScopes(args.scopes, context),
      // Seed 001: the cooldown applies to explicit recall too.
      cooldown: true,
    });
    const results = hits.map((hit): SearchMemoryResult => ({
      id: hit.memory.id,
      kind: hit.memory.kind,
      tier: hit.memory.tier,
      scope: hit.memory.scope,
      key: hit.memory.key,
      date: hit.memory.occurredAt,
      score: Math.round(hit.score * 1000) / 1000,
      relevance: Math.round(hit.relevance * 1000) / 1000,
      text: clip(hit.memory.text, TOOL_LIMITS.resultTextChars),
      ...(hit.via === null ? {} : { via: hit.via }),
    }));
    return { query: args.query, count: results.length, results };
  },
});

/** The scopes asked for, which must be among those the tools may see (all of them when none are asked for). */
function visibleScopes(asked: readonly string[] | undefined, context: ToolContext): readonly string[] | undefined {
  if (asked === undefined || asked.length === 0) return context.scopes;
  const allowed = context.scopes;
  if (allowed === undefined) return asked;
  const hidden = asked.filter((scope) => !allowed.includes(scope));
  if (hidden.length > 0) {
    throw new InvalidInputError(`scope ${hidden.join(', ')} is not visible here: choose from ${allowed.join(', ')}`);
  }
  return asked;
}
