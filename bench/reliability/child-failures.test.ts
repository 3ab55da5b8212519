/**
 * A child of the reliability benchmark that dies at start, dies mid-way or never becomes ready
 * ends the run at once with a failure naming it, and leaves no process behind: real sections
 * (the built CLI, `engram serve`, the real worker beside the failing one) with a worker script
 * that fails on purpose. Stopping the benchmark itself with SIGTERM takes its children along.
 * Each test's own time limit is far below "forever" and well above the deadlines it sets.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runConcurrentWriters } from './concurrent.js';
import { runCrashTrials } from './crashes.js';
import { WORKER } from './processes.js';

/** The fields of /proc/<pid>/stat after the command name: state, parent, … (null when gone). */
function procStat(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // gone between the listing and the read
  }
}

/** The processes whose parent is `parent` (zombies included: a child not yet waited for). */
function childPids(parent: number = process.pid): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => Number(procStat(name)?.[1]) === parent)
    .map(Number);
}

/** Whether `pid` is a live process (a zombie has exited: it only waits to be reaped). */
function isRunning(pid: number): boolean {
  const state = procStat(pid)?.[0];
  return state !== undefined && state !== 'Z';
}

let directory = '';
let before: number[] = [];

/** Writes a worker script that records its pid in `pids` beside it, then runs `body`. */
function fakeWorker(name: string, body: string): string {
  const file = path.join(directory, name);
  const pids = JSON.stringify(path.join(directory, 'pids'));
  writeFileSync(file, `import { appendFileSync } from 'node:fs';\nappendFileSync(${pids}, process.pid + '\\n');\n${body}\n`);
  return file;
}

/** The pids every fake worker recorded. */
function fakePids(): number[] {
  const file = path.join(directory, 'pids');
  return existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : [];
}

/** Nothing this test started is still running, now or a moment later (no loop starting more). */
async function expectNoChildLeft(): Promise<void> {
  const started = () => childPids().filter((pid) => !before.includes(pid));
  expect(started()).toEqual([]);
  await sleep(500);
  expect(started()).toEqual([]);
  expect(fakePids().length).toBeGreaterThan(0);
  expect(fakePids().filter(isRunning)).toEqual([]);
}

// The process table is read from /proc: Linux only, like the CI machine.
describe.skipIf(!existsSync('/proc/self/stat'))('a child that fails ends the reliability run', () => {
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'engram-child-failures-'));
    before = childPids();
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it(
    'names a worker that dies at start (the library cannot load) and stops the server and the CLI writer',
    { timeout: 30_000 },
    async () => {
      const worker = fakeWorker(
        'dies-at-start.mjs',
        `process.stderr.write("Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/engram/dist/index.js'\\n");\nprocess.exit(1);`,
      );
      const run = runCrashTrials({ trials: 3, modelEvery: 0, seed: 7, worker });
      await expect(run).rejects.toThrow(
        /^crash trial 1: worker \(node .*dies-at-start\.mjs crash .*\) exited with code 1 before it was ready: Error \[ERR_MODULE_NOT_FOUND\]: Cannot find module/,
      );
      await expectNoChildLeft();
    },
  );

  it('names a worker that never becomes ready once its deadline has passed', { timeout: 30_000 }, async () => {
    const worker = fakeWorker(
      'never-ready.mjs',
      `process.stderr.write('opening the database\\n');\nsetInterval(() => undefined, 1000);`,
    );
    const run = runCrashTrials({ trials: 3, modelEvery: 0, seed: 7, worker, readyMs: 2_000 });
    await expect(run).rejects.toThrow(
      /^crash trial 1: worker \(node .*never-ready\.mjs crash .*\) was not ready within 2 s: opening the database/,
    );
    await expectNoChildLeft();
  });

  it('names a worker that dies mid-way and stops the others without waiting out their time', { timeout: 30_000 }, async () => {
    // Worker 1 fails a moment after it is ready; worker 0 is the real one, writing for 60 s.
    const worker = fakeWorker(
      'dies-mid-way.mjs',
      [
        `if (process.argv[5] === '1') {`,
        `  process.stdout.write('ready\\n');`,
        `  setTimeout(() => { process.stderr.write('RangeError: out of luck\\n'); process.exit(3); }, 300);`,
        `} else await import(${JSON.stringify(pathToFileURL(WORKER).href)});`,
      ].join('\n'),
    );
    const run = runConcurrentWriters({ workers: 2, durationMs: 60_000, seed: 7, worker });
    await expect(run).rejects.toThrow(
      /^concurrent writers: worker 1 \(node .*dies-mid-way\.mjs concurrent .*\) exited with code 3 while it was running: RangeError: out of luck/,
    );
    await expectNoChildLeft();
  });

  it('takes its children along when the benchmark itself is stopped with SIGTERM', { timeout: 60_000 }, async () => {
    // The built section in a process of its own, as `engram bench reliability` runs it.
    const concurrent = pathToFileURL(path.join(path.dirname(WORKER), 'concurrent.js')).href;
    const script = path.join(directory, 'bench.mjs');
    writeFileSync(
      script,
      `import { runConcurrentWriters } from ${JSON.stringify(concurrent)};\nawait runConcurrentWriters({ workers: 2, durationMs: 60_000 });\n`,
    );
    // Its temporary folder inside this test's, which is removed after the test: a killed run leaves its own.
    const bench = spawn(process.execPath, [script], { stdio: 'ignore', env: { ...process.env, TMPDIR: directory } });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => bench.on('exit', (_code, signal) => resolve(signal)));
    let workers: number[] = [];
    while (workers.length < 2) {
      await sleep(100);
      workers = childPids(bench.pid);
    }
    bench.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    await sleep(500); // SIGKILL is sent before the benchmark ends; give the kernel a moment to deliver it
    expect(workers.filter(isRunning)).toEqual([]);
  });
});
