/**
 * The solution-recall benchmark's data: goal paraphrase pairs (a goal solved before, and a
 * later request for the same task in other words) and unrelated goals with no stored
 * counterpart. The default set is kept with the benchmarks (`data/solution-pairs.json`, written
 * for it); `--data FILE` reads another file of the same shape.
 */
import { InvalidInputError } from 'engram';
import { describeIssues } from 'engram/internal';
import { z } from 'zod';

import defaultPairs from './data/solution-pairs.json' with { type: 'json' };
import { readJsonFile } from './read-json-file.js';

const goal = z.string().trim().min(1);

const SolutionPairsSchema = z.object({
  name: z.string().default('solution-pairs'),
  source: z.string().default('unknown'),
  pairs: z
    .array(z.strictObject({ stored: goal, query: goal }))
    .min(1, 'pairs is empty: give at least one { stored, query } pair'),
  unrelated: z.array(goal).default([]),
});

/** A set of goal pairs. */
export type SolutionPairs = z.output<typeof SolutionPairsSchema>;

/** The pairs in `file`, or the default set in `data/solution-pairs.json`. */
export async function loadSolutionPairs(file: string | undefined): Promise<SolutionPairs> {
  const raw = file === undefined ? defaultPairs : await readJsonFile(file, 'solution pairs');
  const parsed = SolutionPairsSchema.safeParse(raw);
  if (!parsed.success) throw new InvalidInputError(`${file ?? 'solution-pairs.json'}: ${describeIssues(parsed.error)}`);
  const stored = parsed.data.pairs.map((pair) => pair.stored);
  if (new Set(stored).size !== stored.length)
    throw new InvalidInputError(`${file ?? 'solution-pairs.json'}: two pairs share a stored goal`);
  return parsed.data;
}
