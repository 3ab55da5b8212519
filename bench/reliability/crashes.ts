/**
 * Reliability, section 1: `kill -9` at random (seeded) moments under a load that mixes the
 * library (worker.ts), the CLI (`engram add`) and `engram serve` on one database. Each trial
 * starts the load, waits a random time, kills one of the three writers with SIGKILL, stops the
 * rest (the worker with SIGKILL too), and checks the file: every write acknowledged so far is
 * there (the worker's fsynced log, the CLI's exit 0, the server's 201), SQLite's integrity
 * check passes, and both indexes match the memories (the doctor). One trial in `modelEvery`
 * runs on a second database with the local model on, so vectors are written and checked too.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { type Acknowledged, readAckLog } from './ack-log.js';
import { checkStore, findLost } from './check-store.js';
import {
  childEnv,
  killHard,
  LEXICAL_ENV,
  type Running,
  type Served,
  startCli,
  startNode,
  startServe,
  waitForOutput,
  WORKER,
} from './processes.js';
import { between, pickOne, type Random, seededRandom } from './seeded.js';

/** How many trials, how often the model is on, and the seed. */
export interface CrashOptions {
  trials: number;
  /** Every n-th trial uses the local model. @default 5 */
  modelEvery?: number;
  seed?: number;
  log?: (line: string) => void;
}

type Victim = 'library' | 'cli' | 'serve';

/** The crash section's figures. */
export interface CrashFigures {
  trials: number;
  modelTrials: number;
  kills: Record<Victim, number>;
  acknowledged: number;
  lostWrites: number;
  integrityFailures: number;
  indexMismatches: number;
  /** Writes refused with an error while no process was being killed: a CLI failure, an HTTP status other than 201. */
  writeErrors: number;
  /** What went wrong, for the report (empty when every figure is 0). */
  problems: string[];
}

/** One database with its serve process and everything acknowledged in it. */
interface Target {
  file: string;
  env: NodeJS.ProcessEnv;
  embedder: 'lexical' | 'local';
  served: Served | null;
  acknowledged: Acknowledged[];
  /** Error messages of refused writes (CLI stderr, HTTP bodies). */
  errors: string[];
}

export async function runCrashTrials({
  trials,
  modelEvery = 5,
  seed = 20260614,
  log = () => undefined,
}: CrashOptions): Promise<CrashFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-reliability-crash-'));
  const random = seededRandom(seed);
  const lexical: Target = {
    file: path.join(directory, 'lexical.db'),
    env: childEnv(LEXICAL_ENV),
    embedder: 'lexical',
    served: null,
    acknowledged: [],
    errors: [],
  };
  const model: Target = {
    file: path.join(directory, 'model.db'),
    env: childEnv(),
    embedder: 'local',
    served: null,
    acknowledged: [],
    errors: [],
  };
  const figures: CrashFigures = {
    trials: 0,
    modelTrials: 0,
    kills: { library: 0, cli: 0, serve: 0 },
    acknowledged: 0,
    lostWrites: 0,
    integrityFailures: 0,
    indexMismatches: 0,
    writeErrors: 0,
    problems: [],
  };
  try {
    for (let trial = 0; trial < trials; trial++) {
      const target = modelEvery > 0 && trial % modelEvery === modelEvery - 1 ? model : lexical;
      const victim = pickOne<Victim>(random, ['library', 'library', 'library', 'cli', 'serve']);
      await runTrial(target, victim, trial, directory, random);
      figures.trials++;
      if (target === model) figures.modelTrials++;
      figures.kills[victim]++;
      const lost = await findLost(target.file, target.acknowledged);
      const check = await checkStore(target.file);
      figures.lostWrites += lost.length;
      figures.writeErrors += target.errors.length;
      for (const error of target.errors.splice(0)) figures.problems.push(`trial ${trial}: ${error}`);
      figures.integrityFailures += check.integrityFailures;
      figures.indexMismatches += check.indexMismatches;
      for (const entry of lost.slice(0, 3))
        figures.problems.push(`trial ${trial}: acknowledged ${entry.marker} (${entry.id}) is lost`);
      for (const problem of check.problems) figures.problems.push(`trial ${trial}: ${problem}`);
      log(
        `reliability crashes: trial ${trial + 1} of ${trials} (${target.embedder}, killed ${victim}): ${target.acknowledged.length} acknowledged, ${lost.length} lost, ${check.problems.length} problem(s)`,
      );
    }
    figures.acknowledged = lexical.acknowledged.length + model.acknowledged.length;
    return figures;
  } finally {
    for (const target of [lexical, model]) if (target.served) await killHard(target.served.running);
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Runs the three writers on `target` until a random moment, then kills `victim` and stops the rest. */
async function runTrial(target: Target, victim: Victim, trial: number, directory: string, random: Random): Promise<void> {
  target.served ??= await startServe(target.file, target.env);
  const served = target.served;
  const ackFile = path.join(directory, `trial-${trial}.jsonl`);
  const worker = startNode(WORKER, ['crash', target.file, ackFile, target.embedder, String(between(random, 1, 1e9))], target.env);
  let stopped = false;
  const httpLoad = Promise.all(
    [0, 1].map((connection) => postUntilStopped(served.url, `http${trial}c${connection}`, target, () => stopped)),
  );
  let cli: Running | null = null;
  const cliLoad = (async () => {
    for (let i = 0; !stopped; i++) {
      cli = startCli(['add', '--db', target.file, '--json', `cli${trial}x${i} note written by the CLI under load`], target.env);
      const finished = await cli.done;
      if (finished.code === 0) {
        const memory = JSON.parse(finished.stdout) as { id: string };
        target.acknowledged.push({ id: memory.id, marker: `cli${trial}x${i}`, at: Date.now() });
      } else if (finished.signal === null) target.errors.push(`engram add exited ${finished.code}: ${finished.stderr.trim()}`);
    }
  })();
  await waitForOutput(worker, 'ready\n');
  await sleep(target.embedder === 'local' ? between(random, 300, 3500) : between(random, 50, 1200));
  if (victim === 'serve') await killHard(served.running);
  else if (victim === 'cli' && cli !== null) await killHard(cli);
  else await killHard(worker);
  stopped = true;
  await killHard(worker);
  await Promise.all([httpLoad, cliLoad]);
  if (victim === 'serve') target.served = null;
  target.acknowledged.push(...readAckLog(ackFile));
}

/** Posts memories until told to stop; a 201 is an acknowledgement, anything else (the server was killed) is not. */
async function postUntilStopped(url: string, prefix: string, target: Target, stopped: () => boolean): Promise<void> {
  for (let i = 0; !stopped(); i++) {
    const marker = `${prefix}x${i}`;
    try {
      const response = await fetch(`${url}/v1/memories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${marker} note posted to engram serve under load` }),
      });
      if (response.status === 201) {
        const { memory } = (await response.json()) as { memory: { id: string } };
        target.acknowledged.push({ id: memory.id, marker, at: Date.now() });
      } else if (!stopped()) target.errors.push(`POST /v1/memories answered ${response.status}: ${await response.text()}`);
      else await response.body?.cancel();
    } catch {
      return; // the server is gone: this connection's load ends with the trial
    }
  }
}
