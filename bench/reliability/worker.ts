/**
 * The child process of the reliability benchmark's crash and concurrency sections: it opens
 * Engram through the built library (`engram`, as a user's program would) and writes until it
 * is killed or its time is up. It prints `ready` once Engram is open (the sections wait for
 * that), and a concurrent worker prints its summary last. A write counts as acknowledged only
 * once its line is in the acknowledgement log and fsync has returned, so a `kill -9` can never
 * make the log claim a write the database was not told about.
 *
 *   node worker.js crash <db> <ack-log> <lexical|local> <seed>
 *   node worker.js concurrent <db> <ack-dir> <worker> <duration-ms> <seed>
 */
import { closeSync, fsyncSync, openSync, readdirSync, writeSync } from 'node:fs';
import path from 'node:path';

import { type Engram, openEngram } from 'engram';

import { type Acknowledged, type ConcurrentSummary, readAckLog } from './ack-log.js';
import { between, type Random, seededRandom } from './seeded.js';

/** Appends acknowledgement lines and makes them durable before returning. */
function ackLog(file: string): { append: (entries: readonly Acknowledged[]) => void; close: () => void } {
  const fd = openSync(file, 'a');
  return {
    append(entries) {
      writeSync(fd, entries.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      fsyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}

function memoryText(random: Random, marker: string): string {
  const topics = ['billing', 'deploys', 'the CSV importer', 'Alice in Paris', 'retries', 'the search index'];
  return `${marker} note about ${topics[between(random, 0, topics.length - 1)]} written under load, part ${between(random, 1, 999)}`;
}

/** Writes single memories and batches until killed. */
async function crashWriter(db: string, logFile: string, embedder: string, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const engram = await openEngram({ path: db, ...(embedder === 'lexical' ? { embedder: null } : {}) });
  const log = ackLog(logFile);
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const markers = Array.from({ length: random() < 0.3 ? between(random, 2, 8) : 1 }, (_, j) => `lib${seed}x${i}y${j}`);
    const memories = await engram.rememberMany(markers.map((marker) => memoryText(random, marker)));
    const at = Date.now();
    log.append(memories.map((memory, j) => ({ id: memory.id, marker: markers[j] as string, at })));
  }
}

/** Writes and searches for `durationMs`, checking that other workers' acknowledged writes are found. */
async function concurrentWorker(db: string, dir: string, worker: number, durationMs: number, seed: number): Promise<void> {
  const random = seededRandom(seed);
  const engram: Engram = await openEngram({ path: db, embedder: null });
  const log = ackLog(path.join(dir, `worker-${worker}.jsonl`));
  process.stdout.write('ready\n');
  const summary: ConcurrentSummary = { worker, writes: 0, searches: 0, errors: [], misses: [] };
  const end = Date.now() + durationMs;
  let others: Acknowledged[] = [];
  for (let i = 0; Date.now() < end; i++) {
    try {
      const marker = `cw${worker}x${i}`;
      const memory = await engram.remember(memoryText(random, marker));
      log.append([{ id: memory.id, marker, at: Date.now() }]);
      summary.writes++;
      if (i % 8 === 0) others = readOthers(dir, worker);
      const old = others.filter((entry) => entry.at < Date.now() - 1000);
      const target = old[between(random, 0, Math.max(0, old.length - 1))];
      if (target) {
        const searchedAt = Date.now();
        const hits = await engram.search({ query: target.marker, limit: 5 });
        summary.searches++;
        if (!hits.some((hit) => hit.memory.id === target.id)) {
          summary.misses.push({ marker: target.marker, ackedMsBefore: searchedAt - target.at });
        }
      }
    } catch (error) {
      summary.errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  await engram.close();
  log.close();
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

function readOthers(dir: string, worker: number): Acknowledged[] {
  return readdirSync(dir)
    .filter((name) => name.startsWith('worker-') && name !== `worker-${worker}.jsonl`)
    .flatMap((name) => readAckLog(path.join(dir, name)));
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'crash') {
  const [db, logFile, embedder, seed] = args as [string, string, string, string];
  await crashWriter(db, logFile, embedder, Number(seed));
} else if (mode === 'concurrent') {
  const [db, dir, worker, duration, seed] = args as [string, string, string, string, string];
  await concurrentWorker(db, dir, Number(worker), Number(duration), Number(seed));
} else if (mode !== undefined) {
  process.stderr.write(`worker: unknown mode ${mode}\n`);
  process.exitCode = 2;
}
