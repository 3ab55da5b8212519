/**
 * Solved tasks (seed 004): recording a goal with its approach, outcome and confidence, and
 * finding the ones most like a new goal. A solution is a memory of kind `solution` whose text
 * is its goal — the goal is what gets compared, by words and by meaning — with every field in
 * `data`. Failures are kept too (`status: "failed"`), to be shown as what not to repeat.
 */
import { z } from 'zod';

import { InvalidInputError } from '../errors.js';
import type { Memory, Source } from '../model/memory.js';
import { describeIssues } from '../model/memory-input.js';
import { summaryOf } from './fields.js';
import { TOOL_LIMITS } from './limits.js';
import {
  type GoalSignals,
  goalSignals,
  goalSimilarity,
  goalWords,
  SOLUTION_SIMILARITIES,
  type SolutionSimilarity,
} from './solution-similarity.js';
import type { ToolEngine } from './tool-engine.js';

/** How a recorded task ended. */
export const SOLUTION_STATUSES = ['succeeded', 'failed'] as const;
export type SolutionStatus = (typeof SOLUTION_STATUSES)[number];

/** Stored solutions compared with a new goal at most: the best candidates by words and by meaning. */
const CANDIDATES = 50;
/** Solutions returned by default. */
const DEFAULT_RECALL_LIMIT = 3;

const field = (name: string, max: number, hint: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required: ${hint}` : `${name} must be a string`) })
    .trim()
    .min(1, `${name} is empty: ${hint}`)
    .max(max, `${name} is longer than ${max} characters: shorten it`);

/** The fields of a solution, checked (shared by `store_solution` and `engram solution add`). */
export const solutionFields = {
  goal: field('goal', TOOL_LIMITS.goalChars, 'say what the task was'),
  approach: field('approach', TOOL_LIMITS.approachChars, 'say how it was solved (or what was tried)'),
  outcome: field('outcome', TOOL_LIMITS.outcomeChars, 'say how it ended'),
  confidence: z
    .number({ error: 'confidence must be a number from 0 to 100' })
    .min(0, 'confidence must be from 0 to 100')
    .max(100, 'confidence must be from 0 to 100'),
  status: z.enum(SOLUTION_STATUSES, { error: `status must be one of: ${SOLUTION_STATUSES.join(', ')}` }).default('succeeded'),
};

const SolutionInputSchema = z.strictObject(solutionFields);

/** Recording a solution with where it belongs: what `POST /v1/solutions` takes. */
export const StoreSolutionRequestSchema = z.strictObject({
  ...solutionFields,
  scope: z.string().optional().describe('@default "global"'),
  sessionId: z.string().nullable().optional(),
});

const thresholdMessage = (input: unknown) => `threshold must be between 0 and 1 (got ${String(input)})`;
const limitMessage = (input: unknown) => `limit must be a whole number of at least 1 (got ${String(input)})`;

/** What `recallSolutions` takes, with the goal: what `POST /v1/solutions/recall` takes. */
export const RecallSolutionsRequestSchema = z.object({
  goal: z
    .string({ error: 'goal is empty: say what the new task is' })
    .refine((value) => value.trim().length > 0, 'goal is empty: say what the new task is')
    .describe('The new task'),
  similarity: z
    .enum(SOLUTION_SIMILARITIES, {
      error: (issue) => `unknown similarity ${String(issue.input)}: choose from ${SOLUTION_SIMILARITIES.join(', ')}`,
    })
    .optional()
    .describe('@default config [solutions] similarity'),
  threshold: z
    .number({ error: (issue) => thresholdMessage(issue.input) })
    .refine((value) => value >= 0 && value <= 1, { error: (issue) => thresholdMessage(issue.input) })
    .optional()
    .describe('In [0, 1]. @default config [solutions] threshold (0.3)'),
  limit: z
    .number({ error: (issue) => limitMessage(issue.input) })
    .refine((value) => Number.isInteger(value) && value >= 1, { error: (issue) => limitMessage(issue.input) })
    .optional()
    .describe(`@default ${DEFAULT_RECALL_LIMIT}`),
  scopes: z.array(z.string()).optional().describe('@default every scope'),
});

/** A solution to record. */
export type SolutionInput = z.input<typeof SolutionInputSchema>;

/** A recorded solution, read back from its memory. */
export interface Solution {
  /** The memory's id. */
  id: string;
  goal: string;
  approach: string;
  outcome: string;
  confidence: number;
  status: SolutionStatus;
  scope: string;
  sessionId: string | null;
  createdAt: string;
}

/** A stored solution like a new goal, and how alike they are. */
export interface SolutionMatch {
  solution: Solution;
  /** In [0, 1], by `method`; compared with the threshold. */
  similarity: number;
  method: SolutionSimilarity;
  signals: GoalSignals;
}

/** Where a solution is recorded. */
export interface StoreSolutionOptions {
  /** @default the engine's default scope */
  scope?: string;
  sessionId?: string | null;
  /** @default "agent" */
  source?: Source;
}

/** What `recallSolutions` takes besides the goal. */
export interface RecallSolutionsOptions {
  /** @default config `[solutions] similarity` ("hybrid") */
  similarity?: SolutionSimilarity;
  /** Leave out solutions less similar than this. @default config `[solutions] threshold` (0.3) */
  threshold?: number;
  /** @default 3 */
  limit?: number;
  /** Only solutions in these scopes. @default every scope */
  scopes?: readonly string[];
}

/** The engine operations solutions need. */
export type SolutionEngine = Pick<ToolEngine, 'config' | 'remember' | 'search' | 'hasEmbedder'>;

/** Records a solved (or failed) task; the activity log names it `store_solution`, from any surface. */
export async function storeSolution(
  engram: SolutionEngine,
  input: SolutionInput,
  options: StoreSolutionOptions = {},
): Promise<Solution> {
  const parsed = SolutionInputSchema.safeParse(input);
  if (!parsed.success) throw new InvalidInputError(describeIssues(parsed.error));
  const { goal, approach, outcome, confidence, status } = parsed.data;
  const memory = await engram.remember(
    {
      text: goal,
      kind: 'solution',
      scope: options.scope,
      sessionId: options.sessionId ?? null,
      source: options.source ?? 'agent',
      data: { goal, approach, outcome, confidence, status },
      tags: status === 'failed' ? ['failed'] : [],
    },
    { activity: { action: 'store_solution', summary: `${status === 'failed' ? 'failed' : 'solved'}: ${summaryOf(goal)}` } },
  );
  return solutionFromMemory(memory) as Solution;
}

/** The stored solutions most like `goal`, most similar first; none below the threshold. */
export async function recallSolutions(
  engram: SolutionEngine,
  goal: string,
  options: RecallSolutionsOptions = {},
): Promise<SolutionMatch[]> {
  const { method, threshold, limit } = recallSettings(engram, goal, options);
  if (method === 'semantic' && !engram.hasEmbedder) {
    throw new InvalidInputError('semantic similarity needs an embedder, and this engine has none: use similarity keyword');
  }
  const hits = await engram.search({
    query: goal,
    limit: CANDIDATES,
    kinds: ['solution'],
    scopes: options.scopes,
    // keyword needs no model; semantic compares meaning only; hybrid draws candidates from both.
    mode: method === 'keyword' ? 'keyword' : method === 'semantic' ? 'dense' : 'hybrid',
    recordRetrieval: false,
  });
  const words = goalWords(goal);
  const matches: SolutionMatch[] = [];
  for (const hit of hits) {
    const solution = solutionFromMemory(hit.memory);
    if (!solution) continue;
    const signals = goalSignals(words, goalWords(solution.goal), hit.signals.cosine);
    const similarity = goalSimilarity(signals, method);
    if (similarity > 0 && similarity >= threshold) matches.push({ solution, similarity, method, signals });
  }
  return matches
    .sort(
      (a, b) =>
        b.similarity - a.similarity ||
        b.solution.createdAt.localeCompare(a.solution.createdAt) ||
        a.solution.id.localeCompare(b.solution.id),
    )
    .slice(0, limit);
}

/** The solution a memory records, or null when it is not one (wrong kind, or its fields are missing). */
export function solutionFromMemory(memory: Memory): Solution | null {
  if (memory.kind !== 'solution' || memory.data === null) return null;
  const data = SolutionInputSchema.safeParse({
    goal: memory.data.goal,
    approach: memory.data.approach,
    outcome: memory.data.outcome,
    confidence: memory.data.confidence,
    status: memory.data.status,
  });
  if (!data.success) return null;
  return {
    id: memory.id,
    ...data.data,
    scope: memory.scope,
    sessionId: memory.sessionId,
    createdAt: memory.createdAt,
  };
}

function recallSettings(
  engram: SolutionEngine,
  goal: string,
  options: RecallSolutionsOptions,
): { method: SolutionSimilarity; threshold: number; limit: number } {
  const result = RecallSolutionsRequestSchema.safeParse({ ...options, goal });
  if (!result.success) throw new InvalidInputError(result.error.issues.map((issue) => issue.message).join('; '));
  return {
    method: result.data.similarity ?? engram.config.solutions.similarity,
    threshold: result.data.threshold ?? engram.config.solutions.threshold,
    limit: result.data.limit ?? DEFAULT_RECALL_LIMIT,
  };
}
