/**
 * `engram bench reliability`: the sections that prove Engram keeps what it acknowledged and
 * lets no input, memory or tenant take over, run at full size, with one table of figures whose
 * targets are all 0: crashes (crashes.ts), concurrent writers (concurrent.ts), hostile input
 * (hostile.ts), poisoning (poisoning.ts) and tenants (tenants.ts).
 * bench/reliability/reliability.test.ts runs the same sections small inside `npm test`.
 */
import type { BenchOptions, BenchResult } from '../bench-types.js';
import { machineInfo } from '../machine.js';
import { textTable } from '../stats.js';
import { type ConcurrentFigures, runConcurrentWriters } from './concurrent.js';
import { type CrashFigures, runCrashTrials } from './crashes.js';
import { FULL_HOSTILE_SIZES, runHostileInput } from './hostile.js';
import { failureCount, type SurfaceFigures } from './hostile-figures.js';
import { type PoisonFigures, runPoisoning } from './poisoning.js';
import { runTenantIsolation, type TenantFigures } from './tenants.js';

/** The full run: ≥ 100 kills (one in five with the local model), 4 writers for a minute, the input counts. */
export const FULL_SIZES = {
  crashTrials: 100,
  modelEvery: 5,
  concurrentWorkers: 4,
  concurrentMs: 60_000,
  tenantOperations: 2_000,
  ...FULL_HOSTILE_SIZES,
} as const;

/** Every section's figures. */
export interface ReliabilityFigures {
  crashes: CrashFigures;
  concurrent: ConcurrentFigures;
  hostile: SurfaceFigures[];
  poisoning: PoisonFigures;
  tenants: TenantFigures;
}

export async function runReliabilityBenchmark(options: BenchOptions): Promise<BenchResult> {
  const { log } = options;
  const crashes = await runCrashTrials({ trials: FULL_SIZES.crashTrials, modelEvery: FULL_SIZES.modelEvery, log });
  const concurrent = await runConcurrentWriters({
    workers: FULL_SIZES.concurrentWorkers,
    durationMs: FULL_SIZES.concurrentMs,
    log,
  });
  const hostile = await runHostileInput({ ...FULL_HOSTILE_SIZES, log });
  const poisoning = await runPoisoning({ log });
  const tenants = await runTenantIsolation({ operations: FULL_SIZES.tenantOperations, log });
  return reportReliability({ crashes, concurrent, hostile, poisoning, tenants });
}

/** The table of figures (every target is 0) and the JSON result. */
export function reportReliability(figures: ReliabilityFigures): BenchResult {
  const { crashes, concurrent, hostile, poisoning, tenants } = figures;
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
    ...hostile.map((surface) => [
      'hostile input',
      `${surface.surface}: crashes, 5xx, hangs, refused-but-changed, bad errors, leaks, stored changed`,
      `${failureCount(surface)}`,
    ]),
    [
      'poisoning',
      'injected blocks whose framing stored text broke',
      String(Object.values(poisoning.broken).reduce((a, b) => a + b, 0)),
    ],
    ['tenants', 'cross-tenant reads', String(tenants.crossReads)],
    ['tenants', 'cross-tenant writes', String(tenants.crossWrites)],
  ];
  const problems = [
    ...crashes.problems,
    ...concurrent.problems,
    ...hostile.flatMap((surface) => surface.problems),
    ...poisoning.problems,
    ...tenants.problems,
  ];
  const inputs = hostile.map((surface) => `${surface.surface} ${surface.inputs} (${surface.refused} refused)`).join(', ');
  const blocks = Object.entries(poisoning.blocks)
    .map(([context, count]) => `${context} ${count}`)
    .join(', ');
  const table = [
    `reliability: ${machine.cores} cores (${machine.cpu}), node ${machine.node}; every target is 0`,
    `crashes: ${kills}`,
    `concurrent writers: ${load}`,
    `hostile input: ${inputs}`,
    `poisoning: ${poisoning.memories} memories, ${poisoning.injected} injected at least once; blocks checked: ${blocks}`,
    `tenants: ${tenants.tenants} tenants, ${tenants.operations} operations (${tenants.http} HTTP, ${tenants.mcp} MCP)`,
    textTable(['section', 'figure', 'count'], rows),
    ...(problems.length > 0 ? ['problems:', ...problems.slice(0, 20).map((problem) => `  ${problem}`)] : []),
  ].join('\n');
  return { table, json: { benchmark: 'reliability', machine, ...figures } };
}
