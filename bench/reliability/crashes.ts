/**
 * Reliability, section 1: `kill -9` at random (seeded) moments under a load that mixes the
 * library (worker.ts), the CLI (`engram add`) and `engram serve` on one database. Each trial
 * starts the load, waits a random time, kills one of the three writers with SIGKILL, stops the
 * rest (the worker with SIGKILL too), and checks the file: every write acknowledged so far is
 * there (the worker's fsynced log, the CLI's exit 0, the server's 201), SQLite's integrity
 * check passes, and both indexes match the memories (the doctor). One trial in `modelEvery`
 * runs on a second database with the local model on, so vectors are written and checked too.
 * A child that dies when nobody killed it, or is not ready in time, ends the section with a
 * failure naming it (supervisor.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Acknowledged, readAckLog } from './ack-log.js';
import { checkStore, findLost } from './check-store.js';
import { childEnv, LEXICAL_ENV, READY_MS, type Running, type Served, startCli, startNode, WORKER } from './processes.js';
import { between, pickOne, type Random, seededRandom } from './seeded.js';
import { Supervisor } from './supervisor.js';

/** How many trials, how often the model is on, and the seed. */
export interface CrashOptions {
  trials: number;
  /** Every n-th trial uses the local model. @default 5 */
  modelEvery?: number;
  seed?: number;
  log?: (line: string) => void;
  /** The library worker's script (tests point it at one that fails). @default WORKER */
  worker?: string;
  /** How long the worker may take to be ready (the server always has READY_MS). @default READY_MS */
  readyMs?: number;
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
  worker = WORKER,
  readyMs = READY_MS,
}: CrashOptions): Promise<CrashFigures> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-reliability-crash-'));
  const random = seededRandom(seed);
  const target = (file: string, env: NodeJS.ProcessEnv, embedder: Target['embedder']): Target => ({
    file: path.join(directory, file),
    env,
    embedder,
    served: null,
    acknowledged: [],
    errors: [],
  });
  const lexical = target('lexical.db', childEnv(LEXICAL_ENV), 'lexical');
  const model = target('model.db', childEnv(), 'local');
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
  // A trial starts at most a server and a worker, then runs for a few seconds.
  const trialMs = READY_MS + readyMs + 60_000;
  const supervisor = new Supervisor('crash trial 1', trialMs);
  try {
    for (let trial = 0; trial < trials; trial++) {
      supervisor.enter(`crash trial ${trial + 1}`, trialMs);
      const target = modelEvery > 0 && trial % modelEvery === modelEvery - 1 ? model : lexical;
      const victim = pickOne<Victim>(random, ['library', 'library', 'library', 'cli', 'serve']);
      await runTrial({ supervisor, target, victim, trial, directory, random, worker, readyMs });
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
    supervisor.throwIfFailed();
    figures.acknowledged = lexical.acknowledged.length + model.acknowledged.length;
    return figures;
  } finally {
    await supervisor.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

/** One trial: the database, the victim, and what the section was started with. */
interface Trial {
  supervisor: Supervisor;
  target: Target;
  victim: Victim;
  trial: number;
  directory: string;
  random: Random;
  worker: string;
  readyMs: number;
}

/** Runs the three writers on `target` until a random moment, then kills `victim` and stops the rest. */
async function runTrial({ supervisor, target, victim, trial, directory, random, worker: script, readyMs }: Trial): Promise<void> {
  target.served ??= await supervisor.startServe(target.file, target.env);
  const served = target.served;
  const ackFile = path.join(directory, `trial-${trial}.jsonl`);
  const args = ['crash', target.file, ackFile, target.embedder, String(between(random, 1, 1e9))];
  const worker = supervisor.watch(startNode(script, args, target.env, { role: 'worker' }));
  let stopped = false;
  const stopping = () => stopped || supervisor.stopping;
  const httpLoad = [0, 1].map((connection) =>
    postUntilStopped(served.url, `http${trial}c${connection}`, target, stopping, supervisor.signal),
  );
  let cli: Running | null = null;
  const cliLoad = (async () => {
    for (let i = 0; !stopping(); i++) {
      cli = supervisor.watch(
        startCli(['add', '--db', target.file, '--json', `cli${trial}x${i} note written by the CLI under load`], target.env),
        { oneShot: true },
      );
      const finished = await cli.done;
      if (finished.code === 0) {
        const memory = JSON.parse(finished.stdout) as { id: string };
        target.acknowledged.push({ id: memory.id, marker: `cli${trial}x${i}`, at: Date.now() });
      } else if (finished.signal === null) target.errors.push(`engram add exited ${finished.code}: ${finished.stderr.trim()}`);
    }
  })();
  const loads = supervisor.track(Promise.all([...httpLoad, cliLoad]));
  await supervisor.waitUntilReady(worker, 'ready\n', readyMs);
  await supervisor.sleep(target.embedder === 'local' ? between(random, 300, 3500) : between(random, 50, 1200));
  if (victim === 'serve') await supervisor.kill(served.running);
  else if (victim === 'cli' && cli !== null) await supervisor.kill(cli);
  else await supervisor.kill(worker);
  stopped = true;
  await supervisor.kill(worker);
  await supervisor.guard(loads);
  if (victim === 'serve') target.served = null;
  target.acknowledged.push(...readAckLog(ackFile));
}

/** Posts memories until told to stop; a 201 is an acknowledgement, anything else (the server was killed) is not. */
async function postUntilStopped(
  url: string,
  prefix: string,
  target: Target,
  stopped: () => boolean,
  signal: AbortSignal,
): Promise<void> {
  for (let i = 0; !stopped(); i++) {
    const marker = `${prefix}x${i}`;
    try {
      const response = await fetch(`${url}/v1/memories`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: `${marker} note posted to engram serve under load` }),
        signal,
      });
      if (response.status === 201) {
        const { memory } = (await response.json()) as { memory: { id: string } };
        target.acknowledged.push({ id: memory.id, marker, at: Date.now() });
      } else if (!stopped()) target.errors.push(`POST /v1/memories answered ${response.status}: ${await response.text()}`);
      else await response.body?.cancel();
    } catch {
      return; // the server is gone (or the section stopped): this connection's load ends with the trial
    }
  }
}
