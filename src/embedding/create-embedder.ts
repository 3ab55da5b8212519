/**
 * Chooses the embedder named by the `[embedding]` section of the configuration.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

import type { EngramConfig } from '../config/schema.js';
import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local-use-embedder.js';
import { createOpenAiEmbedder } from './openai-embedder.js';
import { createWorkerPoolEmbedder, WORKER_FILE } from './worker-pool-embedder.js';

/**
 * Worker pools by size and batch size, one per process like the in-process model: every Engram
 * opened in a process shares it, and its idle workers never keep the process alive.
 */
const pools = new Map<string, Embedder>();

/** The embedder for `config`, or null for `provider = "none"` (lexical search only). */
export function createEmbedderFromConfig(
  config: EngramConfig['embedding'],
  env: NodeJS.ProcessEnv = process.env,
): Embedder | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'local':
      return localEmbedder(config.workers === 'auto' ? availableParallelism() : config.workers, config.batch_size);
    case 'openai':
      return createOpenAiEmbedder({
        baseUrl: config.base_url,
        model: config.model,
        apiKey: env[config.api_key_env],
        batchSize: config.batch_size,
        timeoutMs: config.timeout_ms,
      });
  }
}

/** The local model on `workers` threads, or in the calling thread for 0 (or when the worker entry is not built). */
function localEmbedder(workers: number, batchSize: number): Embedder {
  if (workers === 0 || !existsSync(fileURLToPath(WORKER_FILE))) return createLocalEmbedder({ batchSize });
  const key = `${workers}/${batchSize}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    const shared = createWorkerPoolEmbedder({ workers, batchSize });
    // Shared: closing one Engram must not stop the others' embedder.
    pool = {
      id: shared.id,
      dimensions: shared.dimensions,
      concurrency: shared.concurrency,
      readableShare: (text) => shared.readableShare(text),
      embed: (texts) => shared.embed(texts),
    };
    pools.set(key, pool);
  }
  return pool;
}
