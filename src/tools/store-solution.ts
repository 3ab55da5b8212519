/**
 * `store_solution` (seed 004): after finishing a task, the model records how it went, so a
 * similar task later starts from what worked — or avoids what failed.
 */
import { z } from 'zod';

import { summaryOf } from './fields.js';
import { solutionFields, storeSolution } from './solutions.js';
import { defineTool } from './tool.js';

const schema = z.strictObject({
  goal: solutionFields.goal.describe('The task, as it was asked, e.g. "Write a CSV parser".'),
  approach: solutionFields.approach.describe('How it was solved (or what was tried): modules, methods, files, key steps.'),
  outcome: solutionFields.outcome.describe('How it ended, e.g. "Working script, 12 tests pass".'),
  confidence: solutionFields.confidence.describe('How sure you are the approach is right and reusable, from 0 to 100.'),
  status: solutionFields.status.describe('"succeeded" (default) or "failed": failures are shown later as what not to repeat.'),
});

export const storeSolutionTool = defineTool({
  name: 'store_solution',
  description:
    'Record a finished task so that a similar task later can reuse it: the goal, the approach, the outcome and your ' +
    'confidence (0-100). Record failures too, with status "failed", so they are not repeated.',
  schema,
  async run(args, context) {
    const solution = await storeSolution(context.engram, args, {
      scope: context.scope,
      sessionId: context.sessionId,
      source: context.source,
    });
    return {
      id: solution.id,
      status: solution.status,
      message: `Solution recorded (${solution.status}): ${summaryOf(solution.goal, 60)}`,
    };
  },
});
