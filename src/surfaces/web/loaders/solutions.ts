/**
 * Solved tasks (seed 004): the stored ones, newest first (`engram.list` of kind `solution`), and
 * for a goal the most similar ones with `recallSolutions`, as `POST /v1/solutions/recall` does.
 */
import { recallSolutions, type SolutionMatch } from '../../../entries/tools.js';
import type { Engram, Memory } from '../../../index.js';

/** Solutions per page. */
export const SOLUTIONS_PAGE = 50;

/** The solutions page. */
export interface SolutionsView {
  solutions: Memory[];
  offset: number;
  nextOffset: number | null;
  goal: string | null;
  matches: SolutionMatch[] | null;
}

/** A page of recorded solutions, and the ones most like `goal` when there is one. */
export async function loadSolutions(
  engram: Engram,
  query: { goal?: string | undefined; offset?: number | undefined },
): Promise<SolutionsView> {
  const offset = query.offset ?? 0;
  const goal = query.goal?.trim() || null;
  const [page, matches] = await Promise.all([
    engram.list({ kinds: ['solution'], limit: SOLUTIONS_PAGE + 1, offset }),
    goal ? recallSolutions(engram, goal, { limit: 10 }) : Promise.resolve(null),
  ]);
  return {
    solutions: page.slice(0, SOLUTIONS_PAGE),
    offset,
    nextOffset: page.length > SOLUTIONS_PAGE ? offset + SOLUTIONS_PAGE : null,
    goal,
    matches,
  } satisfies SolutionsView;
}

/** A field of a solution's `data`, as text. */
export function solutionField(memory: Memory, name: 'goal' | 'approach' | 'outcome' | 'confidence' | 'status'): string {
  const value = memory.data?.[name];
  return value === undefined || value === null ? '—' : String(value);
}
