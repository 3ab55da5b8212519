/**
 * A query's embedding started ahead of the reads that do not need it. With the model in a worker
 * thread, the model embeds the query while this thread reads the session, the pinned memories,
 * the knowledge graph and the full-text index, so a turn waits for the longer of the two instead
 * of their sum. With the model in this thread nothing overlaps, and nothing is lost either.
 */
import { performance } from 'node:perf_hooks';

import { EngramError } from '../errors.js';
import type { Embedder } from './embedder.js';

/** An embedding on its way. */
export interface PendingEmbedding {
  /** The query's vector; rejects as the embedder did. */
  readonly vector: Promise<Float32Array>;
  /** When it was asked for (`performance.now()`). */
  readonly startedAt: number;
  /** Milliseconds from the start to the answer, or to now while there is none yet. */
  elapsedMs(): number;
}

/** Starts embedding `text` now; await `vector` where it is needed. */
export function startEmbedding(embedder: Embedder, text: string): PendingEmbedding {
  const startedAt = performance.now();
  let answeredAt: number | null = null;
  let answer: Promise<Float32Array[]>;
  try {
    answer = embedder.embed([text]);
  } catch (error) {
    answer = Promise.reject(error);
  }
  const vector = answer.then((vectors) => {
    answeredAt = performance.now();
    const first = vectors[0];
    if (first === undefined)
      throw new EngramError('embedder_failed', `the embedder ${embedder.id} returned no vector for the query`);
    return first;
  });
  // Whoever awaits `vector` sees a failure; a caller that no longer needs it (recall turned out
  // not to run) must not leave an unhandled rejection behind.
  vector.catch(() => undefined);
  return { vector, startedAt, elapsedMs: () => (answeredAt ?? performance.now()) - startedAt };
}
