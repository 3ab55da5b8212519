/**
 * Synthetic vectors at the local model's pace. A store of synthetic vectors cannot take the
 * model's (other dimensions, other space), but a turn on it should still wait for the query
 * embedding an agent pays for, where the agent pays for it: while `paced` is on, each call has
 * the model (as an engine opens it by default: in its worker threads) embed the same texts and
 * answers with the synthetic vectors once both have. What a decision reads while the model
 * works is then timed as it runs, on the threads it runs on.
 */
import type { Embedder } from 'engram';

export interface PacedEmbedder extends Embedder {
  /** Whether calls wait for the model too. */
  paced: boolean;
}

export function modelPaced(synthetic: Embedder, model: Embedder): PacedEmbedder {
  const embedder: PacedEmbedder = {
    id: synthetic.id,
    dimensions: synthetic.dimensions,
    paced: false,
    async embed(texts) {
      if (!embedder.paced) return synthetic.embed(texts);
      const [vectors] = await Promise.all([synthetic.embed(texts), model.embed(texts)]);
      return vectors;
    },
  };
  return embedder;
}
