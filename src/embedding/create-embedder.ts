/**
 * Chooses the embedder named by the `[embedding]` section of the configuration.
 */
import type { EngramConfig } from '../config/schema.js';
import type { Embedder } from './embedder.js';
import { createLocalEmbedder } from './local-use-embedder.js';
import { createOpenAiEmbedder } from './openai-embedder.js';

/** The embedder for `config`, or null for `provider = "none"` (lexical search only). */
export function createEmbedderFromConfig(
  config: EngramConfig['embedding'],
  env: NodeJS.ProcessEnv = process.env,
): Embedder | null {
  switch (config.provider) {
    case 'none':
      return null;
    case 'local':
      return createLocalEmbedder({ batchSize: config.batch_size });
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
