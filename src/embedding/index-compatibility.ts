/**
 * Keeps a database's vectors and its embedder in step. The embedder that made the stored
 * vectors is recorded; a different one is refused until `engram reindex` re-embeds everything,
 * because vectors from two models are not comparable and would give silent garbage.
 */
import type { Embedder } from '../embedding/embedder.js';
import { EmbedderMismatchError } from '../errors.js';
import type { VectorIndexInfo, VectorIndexStore } from '../store/store.js';

/** The id recorded when memories are stored without vectors (`[embedding] provider = "none"`). */
export const NO_EMBEDDER_ID = 'none';

/** What the current embedder would record. */
export function describeEmbedder(embedder: Embedder | null): VectorIndexInfo | null {
  if (!embedder) return { model: NO_EMBEDDER_ID, dimensions: 0 };
  return embedder.dimensions === null ? null : { model: embedder.id, dimensions: embedder.dimensions };
}

/** Throws unless the database's vectors were made by `embedder` (or there are none yet). */
export async function assertCompatible(store: VectorIndexStore, embedder: Embedder | null): Promise<void> {
  const mismatch = describeMismatch(await store.getIndexInfo(), embedder);
  if (mismatch !== null) throw new EmbedderMismatchError(mismatch);
}

/**
 * Why vectors recorded as `recorded` cannot be used with `embedder`, and what to do; null when
 * they can (or there are none yet).
 */
export function describeMismatch(recorded: VectorIndexInfo | null, embedder: Embedder | null): string | null {
  if (recorded === null) return null;
  const current = embedder ? embedder.id : NO_EMBEDDER_ID;
  const sameModel = recorded.model === current;
  const sameSize = embedder?.dimensions == null || recorded.dimensions === (embedder ? embedder.dimensions : 0);
  if (sameModel && sameSize) return null;
  return `this database was indexed with ${describeIndex(recorded)} but the configured embedder is ${
    embedder ? `${embedder.id}${embedder.dimensions ? ` (${embedder.dimensions} dims)` : ''}` : 'none'
  }: run \`engram reindex\` to re-embed every memory with it, or configure ${recorded.model} again`;
}

/** Records the embedder on the first write, once its dimension is known. */
export async function recordEmbedder(
  store: VectorIndexStore,
  embedder: Embedder | null,
  vectors: readonly Float32Array[],
): Promise<void> {
  if ((await store.getIndexInfo()) !== null) return;
  const info = embedder
    ? { model: embedder.id, dimensions: embedder.dimensions ?? vectors[0]?.length ?? 0 }
    : { model: NO_EMBEDDER_ID, dimensions: 0 };
  if (embedder && info.dimensions === 0) return; // nothing embedded yet: record on a later write
  await store.setIndexInfo(info);
}

/** `local:… (512 dims)`, or what having no embedder means. */
export function describeIndex(info: VectorIndexInfo): string {
  return info.model === NO_EMBEDDER_ID ? 'no embedder (lexical only)' : `${info.model} (${info.dimensions} dims)`;
}
