/**
 * `engram bench reliability`: the sections that prove Engram keeps what it acknowledged, run
 * at full size, with one table of figures whose targets are all 0. Done so far: crashes
 * (crashes.ts) and concurrent writers (concurrent.ts); hostile input, poisoning and the
 * extended tenant test (issue 14) are not built yet. bench/reliability/reliability.test.ts runs the same
 * sections small inside `npm test`.
 */
import type { BenchOptions, BenchResult } from '../bench-types.js';
import { machineInfo } from '../machine.js';
import { textTable } from '../stats.js';
import { type ConcurrentFigures, runConcurrentWriters } from './concurrent.js';
import { type CrashFigures, runCrashTrials } from './crashes.js';

/** The full run: ≥ 100 kills (one in five with the local model), 4 writers for a minute. */
export const FULL_SIZES = { crashTrials: 100, modelEvery: 5, concurrentWorkers: 4, concurrentMs: 60_000 } as const;

export async function runReliabilityBenchmark(options: BenchOptions): Promise<BenchResult> {
  const crashes = await runCrashTrials({ trials: FULL_SIZES.crashTrials, modelEvery: FULL_SIZES.modelEvery, log: options.log });
  const concurrent = await runConcurrentWriters({
    workers: FULL_SIZES.concurrentWorkers,
    durationMs: FULL_SIZES.concurrentMs,
    log: options.log,
  });
  return reportReliability(crashes, concurrent);
}

/** The table of figures (every target is 0) and the JSON result. */
export function reportReliability(crashes: CrashFigures, concurrent: ConcurrentFigures): BenchResult {
  const machine = machineInfo();
  const kills = `${crashes.trials} kill -9 (library ${crashes.kills.library}, CLI ${crashes.kills.cli}, serve ${crashes.kills.serve}; ${crashes.modelTrials} with the local model), ${crashes.acknowledged} acknowledged writes`;
  const load = `${concurrent.workers} processes × ${concurrent.durationMs / 1000} s: ${concurrent.writes} writes, ${concurrent.searches} searches`;
  const rows: string[][] = [
    ['crashes', 'acknowledged writes lost', String(crashes.lostWrites)],
    ['crashes', 'integrity_check failures', String(crashes.integrityFailures)],
    ['crashes', 'index mismatches (full-text, vector)', String(crashes.indexMismatches)],
    ['crashes', 'writes refused with an error', String(crashes.writeErrors)],
    ['concurrent writers', 'errors surfaced to callers', String(concurrent.errors)],
    ['concurrent writers', 'acknowledged writes lost', String(concurrent.lostWrites)],
    ['concurrent writers', 'searches missing a memory acknowledged > 1 s before', String(concurrent.staleSearches)],
    ['concurrent writers', 'integrity or index problems', String(concurrent.integrityFailures + concurrent.indexMismatches)],
  ];
  const problems = [...crashes.problems, ...concurrent.problems];
  const table = [
    `reliability: ${machine.cores} cores (${machine.cpu}), node ${machine.node}; every target is 0`,
    `crashes: ${kills}`,
    `concurrent writers: ${load}`,
    textTable(['section', 'figure', 'count'], rows),
    ...(problems.length > 0 ? ['problems:', ...problems.slice(0, 20).map((problem) => `  ${problem}`)] : []),
  ].join('\n');
  return { table, json: { benchmark: 'reliability', machine, crashes, concurrent } };
}
