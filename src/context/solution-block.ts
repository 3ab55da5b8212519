/**
 * Seed 004's recall block: the text put before the agent's prompt when a similar task was
 * solved before. A success is rendered exactly as the seed shows it; a failure gets the same
 * frame with its own heading and advice, so the agent reads it as what not to repeat.
 */
import { flattenText } from './plain-text.js';

/** What the block shows of one recalled solution. */
export interface SolutionBlockInput {
  /** Similarity to the new goal, in [0, 1]; shown as a whole percentage. */
  similarity: number;
  goal: string;
  approach: string;
  outcome: string;
  /** 0–100, shown as a whole percentage. */
  confidence: number;
  /** @default "succeeded" */
  status?: 'succeeded' | 'failed';
}

/** The first line of every block. */
export const RECALL_BLOCK_START = '### RECALL';
/** The last line of every block. */
export const RECALL_BLOCK_END = '### END RECALL';

/**
 * One block: seed 004's block exactly for a success; for a failure the same frame with its own
 * heading, lines and advice. docs/agent-tools.md#solution-recall shows one.
 */
export function renderSolutionBlock(solution: SolutionBlockInput): string {
  const failed = solution.status === 'failed';
  return [
    failed ? `${RECALL_BLOCK_START}: Similar Task Failed Before` : `${RECALL_BLOCK_START}: Similar Task Found in Memory`,
    `Similarity: ${percent(solution.similarity * 100)}`,
    `Prior Goal: ${flat(solution.goal)}`,
    failed ? `What was tried: ${flat(solution.approach)}` : `How it was solved: ${flat(solution.approach)}`,
    failed ? `Outcome: FAILED: ${flat(solution.outcome)}` : `Outcome: ${flat(solution.outcome)}`,
    `Confidence: ${percent(solution.confidence)}`,
    failed
      ? 'Do not repeat this approach: it failed before. Try something different.'
      : 'Consider this approach before starting from scratch.',
    RECALL_BLOCK_END,
  ].join('\n');
}

/** Several blocks, best first, separated by a blank line; empty when there are none. */
export function renderSolutionBlocks(solutions: readonly SolutionBlockInput[]): string {
  return solutions.map(renderSolutionBlock).join('\n\n');
}

function percent(value: number): string {
  return `${Math.round(value)}%`;
}

// One line per field: stored text can never end the block early or add headings inside it.
function flat(text: string): string {
  return flattenText(text);
}
