/**
 * `recall_solution` (seed 004): for a new goal, the most similar tasks solved (or failed)
 * before, as the seed's `### RECALL` blocks, ready to read before starting.
 */
import { z } from 'zod';

import { renderSolutionBlocks } from '../context/solution-block.js';
import { choice } from './fields.js';
import { TOOL_LIMITS } from './limits.js';
import { SOLUTION_SIMILARITIES } from './solution-similarity.js';
import { recallSolutions, solutionFields, type SolutionMatch } from './solutions.js';
import { defineTool } from './tool.js';

const DEFAULT_LIMIT = 3;

const schema = z.strictObject({
  goal: solutionFields.goal.describe('The new task, e.g. "Parse a CSV file".'),
  limit: z
    .number({ error: 'limit must be a number' })
    .optional()
    .describe(
      `How many past solutions at most: 1 to ${TOOL_LIMITS.recalledSolutions} (other values are clamped). Default ${DEFAULT_LIMIT}.`,
    ),
  similarity: choice('similarity', SOLUTION_SIMILARITIES)
    .optional()
    .describe(
      'How goals are compared: "keyword" (shared words), "semantic" (meaning) or "hybrid" (both). Default from configuration.',
    ),
});

/** One recalled solution as the model reads it. */
export interface RecalledSolution {
  id: string;
  /** Whole percent. */
  similarity: number;
  goal: string;
  approach: string;
  outcome: string;
  confidence: number;
  status: string;
}

export const recallSolutionTool = defineTool({
  name: 'recall_solution',
  description:
    'Before starting a task, look for similar tasks solved (or failed) before. Returns RECALL blocks with the prior goal, ' +
    'how it was solved, the outcome and the confidence; build on what worked and do not repeat what failed.',
  schema,
  async run(args, context) {
    const limit = Math.min(TOOL_LIMITS.recalledSolutions, Math.max(1, Math.round(args.limit ?? DEFAULT_LIMIT)));
    const matches = await recallSolutions(context.engram, args.goal, {
      similarity: args.similarity,
      limit,
      scopes: context.scopes,
    });
    return {
      goal: args.goal,
      count: matches.length,
      // The recall block(s) to read; null when nothing similar enough was found.
      block: matches.length > 0 ? renderSolutionBlocks(matches.map(blockInput)) : null,
      solutions: matches.map(recalled),
      message: matches.length > 0 ? `${matches.length} similar task(s) found.` : 'No similar task found in memory.',
    };
  },
});

function blockInput(match: SolutionMatch) {
  return { ...match.solution, similarity: match.similarity };
}

function recalled(match: SolutionMatch): RecalledSolution {
  const { id, goal, approach, outcome, confidence, status } = match.solution;
  return { id, similarity: Math.round(match.similarity * 100), goal, approach, outcome, confidence, status };
}
