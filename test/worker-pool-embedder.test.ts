/**
 * The local model in worker threads, as a built Engram runs it: the pool's worker entry is the
 * compiled `dist/embedding/embedding-worker.js`, so these tests load the pool from `dist/`
 * (`npm test` builds first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import type * as PoolModule from '../src/embedding/worker-pool-embedder.js';
import { createLocalEmbedder } from '../src/index.js';

const DIST_POOL = new URL('../dist/embedding/worker-pool-embedder.js', import.meta.url);
const { createWorkerPoolEmbedder } = (await import(DIST_POOL.href)) as typeof PoolModule;

const TEXTS = Array.from({ length: 40 }, (_, i) =>
  i % 3 === 0 ? `short note ${i}` : `the deploy pipeline for service ${i} moved to a queue because retries kept timing out`,
);

describe('the local model in a pool of worker threads', () => {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-pool-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('gives the vectors the model gives in this thread, in order, from every worker', async () => {
    const pool = createWorkerPoolEmbedder({ workers: 2, batchSize: 8 });
    try {
      const [pooled, local] = await Promise.all([pool.embed(TEXTS), createLocalEmbedder({ batchSize: 8 }).embed(TEXTS)]);
      expect(pool.started).toBe(2);
      expect(pooled).toHaveLength(TEXTS.length);
      pooled.forEach((vector, i) => {
        expect(vector).toHaveLength(512);
        const expected = local[i] as Float32Array;
        expect(Math.max(...vector.map((value, j) => Math.abs(value - (expected[j] as number))))).toBeLessThan(1e-5);
      });
    } finally {
      await pool.close();
    }
  });

  it('says what share of a text the model reads, as the model in this thread does, without starting a worker', async () => {
    const pool = createWorkerPoolEmbedder({ workers: 2, batchSize: 8 });
    const local = createLocalEmbedder();
    try {
      for (const text of ['🍕', '日本語', 'Emoji test 🚀🔥 launch day', 'which database do we use?']) {
        expect(pool.readableShare(text), text).toBe(local.readableShare?.(text));
      }
      expect(pool.readableShare('🍕')).toBe(0);
      expect(pool.started).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('fails a call clearly when a worker stops, and serves the next one with a new worker', async () => {
    const dying = path.join(directory, 'dying-worker.mjs');
    writeFileSync(
      dying,
      `import { parentPort } from 'node:worker_threads';
       parentPort.on('message', ({ id, texts }) => {
         if (texts.includes('crash')) process.exit(3);
         parentPort.postMessage({ id, vectors: texts.map(() => new Float32Array(512)) });
       });`,
    );
    const pool = createWorkerPoolEmbedder({ workers: 1, workerFile: pathToFileURL(dying) });
    try {
      await expect(pool.embed(['crash'])).rejects.toMatchObject({
        code: 'embedder_failed',
        message: 'an embedding worker stopped (exit code 3)',
      });
      expect(await pool.embed(['fine'])).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('refuses work once closed', async () => {
    const pool = createWorkerPoolEmbedder({ workers: 1 });
    await pool.close();
    await expect(pool.embed(['late'])).rejects.toMatchObject({ code: 'embedder_failed' });
  });

  it('never keeps a process alive once idle', () => {
    const script = `
      const { createWorkerPoolEmbedder } = await import(${JSON.stringify(DIST_POOL.href)});
      const pool = createWorkerPoolEmbedder({ workers: 2 });
      const vectors = await pool.embed(['one', 'two', 'three']);
      console.log(vectors.length, pool.started);`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0); // not killed by the timeout: the idle workers let it exit
    expect(child.stdout.trim()).toBe('3 1'); // three texts are not worth a second worker
  });
});
