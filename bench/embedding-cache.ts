/**
 * What the dataset benchmarks run on: the local model behind a persistent on-disk cache, keyed
 * by model and text, so a re-run embeds nothing it has seen before and costs no model time; and
 * reproducible in-memory engines that share it.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

import { type Clock, type ConfigInput, createLocalEmbedder, type Embedder, type Engram, manualClock, openEngram } from 'engram';
import { type IdGenerator, SqliteStore, withEmbeddingCache } from 'engram/internal';

/** Where the cache lives, relative to the working directory. */
export const BENCH_CACHE_FILE = path.join('.engram', 'bench-cache', 'embeddings.db');

/** An embedder for benchmarks and the function that closes its cache. */
export interface CachedBenchEmbedder {
  /** Has no `close` of its own, so engines given it leave the shared cache open. */
  embedder: Embedder;
  close: () => Promise<void>;
}

/**
 * Opens the local embedder with its vectors cached in `<directory>/.engram/bench-cache/embeddings.db`
 * (the directory is created on first use).
 * @param options.directory where the cache's `.engram` folder goes @default process.cwd()
 */
export function openBenchEmbedder(options: { directory?: string } = {}): CachedBenchEmbedder {
  const file = path.join(options.directory ?? process.cwd(), BENCH_CACHE_FILE);
  const cache = new SqliteStore(file, { createDirectory: true });
  return { embedder: withEmbeddingCache(createLocalEmbedder(), cache), close: () => cache.close() };
}

/**
 * A fresh engine on an in-memory store with default settings, its clock stopped at `now` (the
 * moment the benchmark's questions are asked) and reproducible ids, so that every run ranks alike.
 * @param options.now @default "2026-01-01T00:00:00.000Z"
 */
export function openBenchEngine(options: {
  embedder: Embedder;
  now?: string | undefined;
  config?: ConfigInput;
  clock?: Clock;
}): Promise<Engram> {
  const clock = options.clock ?? manualClock(options.now ?? '2026-01-01T00:00:00.000Z');
  return openEngram({
    store: new SqliteStore(':memory:'),
    embedder: options.embedder,
    config: options.config ?? {},
    clock,
    ids: scrambledIds(),
  });
}

/**
 * Ids from a counter, hashed: the same on every run, but in no relation to insertion order, so
 * score ties (which search breaks by id) neither favour early turns nor change between runs.
 */
function scrambledIds(): IdGenerator {
  let next = 0;
  return () => createHash('sha256').update(`memory ${next++}`).digest('hex').slice(0, 26).toUpperCase();
}
