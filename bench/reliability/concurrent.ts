/**
 * Reliability, section 2: several library processes (worker.ts) write and search one database
 * file for a fixed time. Each worker logs its acknowledged writes (fsync) and searches for
 * memories other workers acknowledged more than a second before. Figures: errors surfaced to
 * a caller (busy waits must be retried inside Engram), acknowledged writes missing at the end,
 * and searches that missed another process's memory acknowledged over a second earlier. A
 * worker that exits before it is ready or before its time is up, or is not ready in time, ends
 * the section at once with a failure naming it, and the other workers are killed (supervisor.ts).
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type ConcurrentSummary, readAckLog } from './ack-log.js';
import { checkStore, findLost } from './check-store.js';
import { childEnv, LEXICAL_ENV, READY_MS, startNode, WORKER } from './processes.js';
import { between, seededRandom } from './seeded.js';
import { Supervisor } from './supervisor.js';

export interface ConcurrentOptions {
  workers: number;
  durationMs: number;
  seed?: number;
  log?: (line: string) => void;
  /** The library worker's script (tests point it at one that fails). @default WORKER */
  worker?: string;
  /** How long a worker may take to be ready. @default READY_MS */
  readyMs?: number;
}

export interface ConcurrentFigures {
  workers: number;
  durationMs: number;
  writes: number;
  searches: number;
  errors: number;
  lostWrites: number;
  staleSearches: number;
  integrityFailures: number;
  indexMismatches: number;
  problems: string[];
}

export async function runConcurrentWriters({
  workers,
  durationMs,
  seed = 20260615,
  log = () => undefined,
  worker: script = WORKER,
  readyMs = READY_MS,
}: ConcurrentOptions): Promise<ConcurrentFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-reliability-concurrent-'));
  const random = seededRandom(seed);
  const file = path.join(directory, 'shared.db');
  const acks = path.join(directory, 'acks');
  // Every worker ready, then each writing for durationMs; a minute more to close and report.
  const supervisor = new Supervisor('concurrent writers', readyMs + durationMs + 60_000);
  try {
    mkdirSync(acks);
    const env = childEnv(LEXICAL_ENV);
    const running = Array.from({ length: workers }, (_, worker) =>
      supervisor.watch(
        startNode(script, ['concurrent', file, acks, String(worker), String(durationMs), String(between(random, 1, 1e9))], env, {
          role: `worker ${worker}`,
        }),
        { endsOnItsOwn: true },
      ),
    );
    await Promise.all(running.map((child) => supervisor.waitUntilReady(child, 'ready\n', readyMs)));
    const finished = await supervisor.guard(Promise.all(running.map((child) => child.done)));
    supervisor.throwIfFailed();
    const problems: string[] = [];
    const summaries: ConcurrentSummary[] = [];
    for (const [worker, result] of finished.entries()) {
      const line = result.stdout.trim().split('\n').at(-1) ?? '';
      if (result.code !== 0 || !line.startsWith('{')) {
        problems.push(`worker ${worker} exited ${result.code ?? result.signal}: ${result.stderr.trim().slice(0, 500)}`);
        continue;
      }
      summaries.push(JSON.parse(line) as ConcurrentSummary);
    }
    const acknowledged = readdirSync(acks).flatMap((name) => readAckLog(path.join(acks, name)));
    const lost = await findLost(file, acknowledged);
    const check = await checkStore(file);
    const errors = summaries.flatMap((summary) => summary.errors.map((error) => `worker ${summary.worker}: ${error}`));
    const misses = summaries.flatMap((summary) =>
      summary.misses.map(
        (miss) => `worker ${summary.worker} missed ${miss.marker}, acknowledged ${miss.ackedMsBefore} ms before`,
      ),
    );
    const figures: ConcurrentFigures = {
      workers,
      durationMs,
      writes: acknowledged.length,
      searches: summaries.reduce((sum, summary) => sum + summary.searches, 0),
      errors: errors.length + (workers - summaries.length),
      lostWrites: lost.length,
      staleSearches: misses.length,
      integrityFailures: check.integrityFailures,
      indexMismatches: check.indexMismatches,
      problems: [
        ...problems,
        ...errors.slice(0, 5),
        ...misses.slice(0, 5),
        ...lost.slice(0, 5).map((entry) => `lost ${entry.marker}`),
        ...check.problems,
      ],
    };
    log(
      `reliability concurrent: ${workers} processes, ${figures.writes} writes, ${figures.searches} searches, ${figures.errors} errors, ${figures.staleSearches} stale searches`,
    );
    return figures;
  } finally {
    await supervisor.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
