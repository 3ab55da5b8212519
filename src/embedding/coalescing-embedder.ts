/**
 * Embedding calls that arrive while the model is busy wait and then run together as one batch.
 * A server answering many searches at once embeds one query per request; the local model runs
 * one batch at a time on one core, and a batch of 16 short queries costs about 6 ms a query
 * against 15 ms alone. A call that finds the model idle runs at once, so nothing is delayed.
 * A worker pool runs several batches at once, one per worker.
 */
import type { Embedder } from './embedder.js';

interface Job {
  texts: readonly string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: unknown) => void;
}

/**
 * `embedder`, with concurrent calls coalesced into batches of up to `maxBatch` texts, and as many
 * batches running at once as the embedder runs to advantage (its `concurrency`, 1 by default).
 */
export function withCoalescing(embedder: Embedder, maxBatch = 32): Embedder {
  const queue: Job[] = [];
  const lanes = Math.max(1, embedder.concurrency ?? 1);
  let running = 0;

  /** Runs the next batch when a lane is free; each lane takes the next batch when it is done. */
  const pump = (): void => {
    while (running < lanes && queue.length > 0) {
      const jobs: Job[] = [];
      let size = 0;
      // Whole calls only; the first always goes, however large.
      while (queue.length > 0 && (jobs.length === 0 || size + (queue[0] as Job).texts.length <= maxBatch)) {
        const job = queue.shift() as Job;
        jobs.push(job);
        size += job.texts.length;
      }
      running++;
      void runBatch(jobs).then(() => {
        running--;
        pump();
      });
    }
  };

  const runBatch = async (jobs: Job[]): Promise<void> => {
    try {
      const vectors = await embedder.embed(jobs.flatMap((job) => job.texts));
      let offset = 0;
      for (const job of jobs) {
        job.resolve(vectors.slice(offset, offset + job.texts.length));
        offset += job.texts.length;
      }
    } catch (error) {
      for (const job of jobs) job.reject(error);
    }
    // Let pending I/O run first: requests that arrived during the batch join the next one.
    await new Promise((resolve) => setImmediate(resolve));
  };

  return {
    id: embedder.id,
    concurrency: lanes,
    get dimensions() {
      return embedder.dimensions;
    },
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise<Float32Array[]>((resolve, reject) => {
        queue.push({ texts, resolve, reject });
        pump();
      });
    },
    close: embedder.close ? () => (embedder.close as () => Promise<void>)() : undefined,
    ...(embedder.readableShare
      ? { readableShare: (text: string) => (embedder.readableShare as (text: string) => number)(text) }
      : {}),
  };
}
