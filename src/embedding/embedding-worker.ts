/**
 * A worker thread of the local-model pool (worker-pool-embedder.ts): loads the model on its
 * first request, then answers each request's texts with their vectors, whose buffers it hands
 * over rather than copies. Requests come one at a time: the pool sends a worker a new one only
 * after its answer.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { isEngramError } from '../errors.js';
import { createLocalEmbedder } from './local-use-embedder.js';

/** A request from the pool. */
export interface EmbedRequest {
  id: number;
  texts: string[];
}

/** The answer: the vectors, or what went wrong. */
export type EmbedAnswer =
  { id: number; vectors: Float32Array[] } | { id: number; error: { code: string | null; message: string } };

const port = parentPort;
if (port) {
  const embedder = createLocalEmbedder({ batchSize: (workerData as { batchSize: number }).batchSize });
  port.on('message', (request: EmbedRequest) => {
    embedder.embed(request.texts).then(
      (vectors) =>
        port.postMessage(
          { id: request.id, vectors } satisfies EmbedAnswer,
          vectors.map((vector) => vector.buffer as ArrayBuffer),
        ),
      (error: unknown) =>
        port.postMessage({
          id: request.id,
          error: { code: isEngramError(error) ? error.code : null, message: (error as Error).message },
        } satisfies EmbedAnswer),
    );
  });
}
