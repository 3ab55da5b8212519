/**
 * A child of the reliability benchmark that dies at start, dies mid-way or never becomes ready
 * ends the run at once with a failure naming it, and leaves no process behind: real sections
 * (the built CLI, `engram serve`, the real worker beside the failing one) with a worker script
 * that fails on purpose. Each test's own time limit is far below "forever" and well above the
 * deadlines it sets.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runConcurrentWriters } from './concurrent.js';
import { runCrashTrials } from './crashes.js';
import { WORKER } from './processes.js';

/** The processes whose parent is this one (zombies included: a child not yet waited for). */
function childPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid ? [Number(name)] : [];
      } catch {
        return []; // gone between the listing and the read
      }
    });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
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
});
