/**
 * `bench solutions`: how well solution recall (seed 004) finds the task solved before when a
 * new goal says it in other words — top-1 accuracy for keyword, semantic and hybrid similarity
 * — and what the threshold lets through: right and wrong recalls, and recalls for goals that
 * were never solved. Real engine, local model, a temporary database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';
import { recallSolutions, SOLUTION_SIMILARITIES, type SolutionSimilarity, storeSolution } from 'engram/tools';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { machineInfo } from './machine.js';
import { loadSolutionPairs } from './solution-pairs.js';
import { quantile, textTable } from './stats.js';

interface MethodResult {
  /** Queries whose most similar stored goal is their pair (any similarity above 0). */
  top1: number;
  top1Accuracy: number;
  /** Queries whose pair is recalled first and clears the threshold: what the agent is shown. */
  recalled: number;
  /** Queries for which a wrong goal is recalled first above the threshold. */
  wrongRecalls: number;
  /** Unrelated goals for which anything clears the threshold. */
  unrelatedRecalls: number;
  recallMs: { p50: number; p95: number };
}

export async function runSolutionsBenchmark(options: BenchOptions): Promise<BenchResult> {
  const data = await loadSolutionPairs(options.data);
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-solutions-'));
  try {
    const engram = await openEngram({ path: path.join(directory, 'bench.db'), config: { embedding: { provider: 'local' } } });
    const threshold = engram.config.solutions.threshold;
    for (const pair of data.pairs) {
      await storeSolution(engram, { goal: pair.stored, approach: 'Recorded by the benchmark.', outcome: 'Done', confidence: 80 });
    }
    await recallSolutions(engram, 'warm up the model before timing', { similarity: 'semantic' });
    const methods = {} as Record<SolutionSimilarity, MethodResult>;
    for (const method of SOLUTION_SIMILARITIES) {
      options.log(`solutions: ${method}`);
      methods[method] = await measure(engram, data, method, threshold);
    }
    await engram.close();
    const machine = machineInfo();
    const n = data.pairs.length;
    const rows = SOLUTION_SIMILARITIES.map((method) => {
      const r = methods[method];
      return [
        method,
        `${r.top1}/${n} (${percent(r.top1Accuracy)})`,
        `${r.recalled}/${n}`,
        `${r.wrongRecalls}/${n}`,
        `${r.unrelatedRecalls}/${data.unrelated.length}`,
        r.recallMs.p50.toFixed(1),
      ];
    });
    const table = [
      `solutions: ${n} goal paraphrase pairs and ${data.unrelated.length} unrelated goals (${data.name}); threshold ${threshold}; ` +
        `${machine.cores} cores, node ${machine.node}`,
      `data: ${data.source}`,
      textTable(
        ['similarity', 'top-1', `recalled ≥${threshold}`, `wrong ≥${threshold}`, `unrelated ≥${threshold}`, 'recall p50 ms'],
        rows,
      ),
    ].join('\n');
    return {
      table,
      json: {
        benchmark: 'solutions',
        machine,
        data: { name: data.name, source: data.source, pairs: n, unrelated: data.unrelated.length },
        threshold,
        methods,
      },
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function measure(
  engram: Parameters<typeof recallSolutions>[0],
  data: Awaited<ReturnType<typeof loadSolutionPairs>>,
  method: SolutionSimilarity,
  threshold: number,
): Promise<MethodResult> {
  const result = { top1: 0, recalled: 0, wrongRecalls: 0, unrelatedRecalls: 0 };
  const latencies: number[] = [];
  const best = async (goal: string) => {
    const started = performance.now();
    // Threshold 0: the best candidate whatever its similarity, to measure ranking apart from the cut.
    const [top] = await recallSolutions(engram, goal, { similarity: method, threshold: 0, limit: 1 });
    latencies.push(performance.now() - started);
    return top;
  };
  for (const pair of data.pairs) {
    const top = await best(pair.query);
    const right = top?.solution.goal === pair.stored;
    const shown = top !== undefined && top.similarity >= threshold;
    if (right) result.top1++;
    if (right && shown) result.recalled++;
    if (!right && shown) result.wrongRecalls++;
  }
  for (const goal of data.unrelated) {
    const top = await best(goal);
    if (top !== undefined && top.similarity >= threshold) result.unrelatedRecalls++;
  }
  return {
    ...result,
    top1Accuracy: result.top1 / data.pairs.length,
    recallMs: { p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
