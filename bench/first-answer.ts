/**
 * Time to first answer and memory held, for `bench footprint`: a new process (first-answer-child.ts)
 * opens a store file and runs one vector search with a query vector it is given; the wall time
 * from starting it to its answer, and what it holds then, with and without the local model.
 * Each figure is the median of `RUNS` runs, the runs with and without the model alternating.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { quantile } from './stats.js';

/** Children run per figure; the figure is their median. */
const RUNS = 3;

/** What one child reports. */
interface ChildReport {
  hits: number;
  firstId: string | null;
  modelMs: number | null;
  openMs: number;
  searchMs: number;
  sinceStartMs: number;
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rssAnon: number;
  rssFile: number;
}

/** Medians of the runs, in ms and MiB. */
export interface FirstAnswer {
  /** Wall time from starting the process to its answer, seen from outside. */
  wallMs: number;
  /** The same inside the child: from the process's start, and the open and the search alone. */
  sinceStartMs: number;
  openMs: number;
  searchMs: number;
  hits: number;
  /** Resident after the search, without the model: all, private (anonymous) and mapped file pages; V8's heap. */
  rssMiB: number;
  rssAnonMiB: number;
  rssFileMiB: number;
  heapMiB: number;
  externalMiB: number;
  /** The same with the local model loaded and one query embedded. */
  withModel: { rssMiB: number; rssAnonMiB: number; rssFileMiB: number; heapMiB: number; externalMiB: number };
}

/** Runs the children on `file` with `vector` as the query, and takes the medians. */
export async function measureFirstAnswer(file: string, vector: Float32Array): Promise<FirstAnswer> {
  const bare: (ChildReport & { wallMs: number })[] = [];
  const model: (ChildReport & { wallMs: number })[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(await runChild(file, vector, false));
    model.push(await runChild(file, vector, true));
  }
  const median = (runs: readonly ChildReport[], read: (r: ChildReport) => number) => quantile(runs.map(read), 0.5);
  const mib = (bytes: number) => bytes / 2 ** 20;
  const memoryOf = (runs: readonly ChildReport[]) => ({
    rssMiB: mib(median(runs, (r) => r.rss)),
    rssAnonMiB: mib(median(runs, (r) => r.rssAnon)),
    rssFileMiB: mib(median(runs, (r) => r.rssFile)),
    heapMiB: mib(median(runs, (r) => r.heapUsed)),
    externalMiB: mib(median(runs, (r) => r.external)),
  });
  return {
    wallMs: quantile(
      bare.map((r) => r.wallMs),
      0.5,
    ),
    sinceStartMs: median(bare, (r) => r.sinceStartMs),
    openMs: median(bare, (r) => r.openMs),
    searchMs: median(bare, (r) => r.searchMs),
    hits: median(bare, (r) => r.hits),
    ...memoryOf(bare),
    withModel: memoryOf(model),
  };
}

function runChild(file: string, vector: Float32Array, withModel: boolean): Promise<ChildReport & { wallMs: number }> {
  const script = fileURLToPath(new URL('./first-answer-child.js', import.meta.url));
  const encoded = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
  const started = performance.now();
  const child = spawn(process.execPath, [script, file, encoded, ...(withModel ? ['--model'] : [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let wallMs: number | null = null;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    if (wallMs === null && stdout.includes('\n')) wallMs = performance.now() - started;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0 || wallMs === null) {
        reject(new Error(`the first-answer child exited with ${code}: ${stderr.trim()}`));
        return;
      }
      resolve({ ...(JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as ChildReport), wallMs });
    });
  });
}
