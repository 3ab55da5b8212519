/**
 * The local model in a pool of worker threads, so one process embeds on every core: the local
 * model runs on one core per instance (TF.js's wasm backend). A call's texts are split into
 * batches, shortest texts together, spread over the workers; concurrent calls share them, each
 * batch going to the next idle worker. Workers start on first use and each loads its own copy
 * of the model (~0.5 s and ~100 MB); an idle pool never keeps the process alive.
 */
import { Worker } from 'node:worker_threads';

import { EngramError, type EngramErrorCode } from '../errors.js';
import type { Embedder } from './embedder.js';
import type { EmbedAnswer, EmbedRequest } from './embedding-worker.js';
import { LOCAL_EMBEDDER_DIMENSIONS, LOCAL_EMBEDDER_ID } from './local-use-embedder.js';
import { localReadableShare } from './local-vocabulary.js';

/** The built worker entry, beside this module (absent when running from the TypeScript sources). */
export const WORKER_FILE = new URL('./embedding-worker.js', import.meta.url);

/** A call is split over several workers only in batches of at least this many texts. */
const MIN_SPLIT = 8;

interface Job {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
}

interface PoolWorker {
  thread: Worker;
  job: Job | null;
}

/** An embedder whose work is shared by the pool's threads, and what the pool has started. */
export interface WorkerPoolEmbedder extends Embedder {
  readonly concurrency: number;
  /** What the model reads of a text (local-vocabulary.ts), answered without a worker. */
  readableShare(text: string): number;
  /** Workers running now. */
  readonly started: number;
  /** Stops the workers; calls not yet answered fail. */
  close(): Promise<void>;
}

/**
 * Creates the local embedder on `workers` threads.
 * @param options.batchSize texts per model call @default 32
 * @param options.workerFile the worker entry (tests use a stand-in)
 */
export function createWorkerPoolEmbedder(options: { workers: number; batchSize?: number; workerFile?: URL }): WorkerPoolEmbedder {
  const size = Math.max(1, options.workers);
  const batchSize = options.batchSize ?? 32;
  const workerFile = options.workerFile ?? WORKER_FILE;
  const workers: PoolWorker[] = [];
  const queue: Job[] = [];
  let nextId = 0;
  let closed = false;

  const start = (): PoolWorker => {
    // Node's options carry over to the worker, except one only a script given as text can take.
    const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
    const worker: PoolWorker = { thread: new Worker(workerFile, { workerData: { batchSize }, execArgv }), job: null };
    const fail = (error: EngramError) => {
      workers.splice(workers.indexOf(worker), 1);
      worker.job?.reject(error);
      worker.job = null;
      dispatch(); // the rest of the queue goes to the others, or to a new worker
    };
    worker.thread.on('message', (answer: EmbedAnswer) => {
      const job = worker.job;
      worker.job = null;
      worker.thread.unref();
      if (job) {
        if ('vectors' in answer) job.resolve(answer.vectors);
        else job.reject(new EngramError((answer.error.code ?? 'embedder_failed') as EngramErrorCode, answer.error.message));
      }
      dispatch();
    });
    worker.thread.on('error', (cause) =>
      fail(new EngramError('embedder_failed', `an embedding worker failed: ${cause.message}`, { cause })),
    );
    worker.thread.on('exit', (code) => {
      if (workers.includes(worker)) fail(new EngramError('embedder_failed', `an embedding worker stopped (exit code ${code})`));
    });
    workers.push(worker);
    return worker;
  };

  const dispatch = (): void => {
    while (queue.length > 0 && !closed) {
      const worker = workers.find((candidate) => candidate.job === null) ?? (workers.length < size ? start() : null);
      if (!worker) return;
      const job = queue.shift() as Job;
      worker.job = job;
      worker.thread.ref(); // a pending answer keeps the process alive
      worker.thread.postMessage({ id: nextId++, texts: job.texts } satisfies EmbedRequest);
    }
  };

  const run = (texts: string[]): Promise<Float32Array[]> =>
    new Promise((resolve, reject) => {
      if (closed) throw new EngramError('embedder_failed', 'the embedder is closed');
      queue.push({ texts, resolve, reject });
      dispatch();
    });

  return {
    id: LOCAL_EMBEDDER_ID,
    dimensions: LOCAL_EMBEDDER_DIMENSIONS,
    concurrency: size,
    // Answered in this thread from the vocabulary alone: the workers hold the model.
    readableShare: localReadableShare,
    get started() {
      return workers.length;
    },
    async embed(texts) {
      if (texts.length === 0) return [];
      // Similar lengths together, and a batch per worker when there are enough texts to be worth
      // a second worker (each loads its own model on first use).
      const order = texts.map((_, i) => i).sort((a, b) => (texts[a] as string).length - (texts[b] as string).length);
      const per = Math.min(batchSize, Math.max(MIN_SPLIT, Math.ceil(texts.length / size)));
      const batches: number[][] = [];
      for (let at = 0; at < order.length; at += per) batches.push(order.slice(at, at + per));
      const answers = await Promise.all(batches.map((batch) => run(batch.map((i) => texts[i] as string))));
      const out = new Array<Float32Array>(texts.length);
      batches.forEach((batch, b) =>
        batch.forEach((index, j) => (out[index] = (answers[b] as Float32Array[])[j] as Float32Array)),
      );
      return out;
    },
    async close() {
      closed = true;
      const stopping = workers.splice(0);
      const unfinished = [...queue.splice(0), ...stopping.flatMap((worker) => worker.job ?? [])];
      for (const job of unfinished) job.reject(new EngramError('embedder_failed', 'the embedder was closed'));
      await Promise.all(stopping.map((worker) => worker.thread.terminate()));
    },
  };
}
