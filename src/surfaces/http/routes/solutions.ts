/** `/v1/solutions`: record solved tasks and find similar ones for a new goal (seed 004). */
import { recallSolutions, renderSolutionBlocks, storeSolution } from '../../../entries/tools.js';
import { defineRoute } from '../api-route.js';
import { RecallSolutionsBody, StoreSolutionBody } from '../request-schemas.js';
import { SolutionRecallResponse, SolutionResponse } from '../response-schemas.js';

export const SOLUTION_ROUTES = [
  defineRoute({
    method: 'post',
    path: '/v1/solutions',
    tag: 'solutions',
    summary: 'Record a solved (or failed) task: goal, approach, outcome, confidence',
    body: StoreSolutionBody,
    status: 201,
    response: SolutionResponse,
    handle: async ({ engram, body }) => {
      const { scope, sessionId, ...solution } = body;
      return { solution: await storeSolution(engram, solution, { scope, sessionId }) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/v1/solutions/recall',
    tag: 'solutions',
    summary: 'Find recorded tasks similar to a new goal, with the RECALL block to prepend to the prompt',
    body: RecallSolutionsBody,
    response: SolutionRecallResponse,
    handle: async ({ engram, body }) => {
      const { goal, ...options } = body;
      const matches = await recallSolutions(engram, goal, options);
      const block =
        matches.length > 0
          ? renderSolutionBlocks(matches.map((match) => ({ ...match.solution, similarity: match.similarity })))
          : null;
      return { matches, block };
    },
  }),
];
