/**
 * The Store contract (STYLE.md 2): one behavioural suite that every Store backend must pass,
 * made of one contract per part of the Store interface (see `src/store/store.ts`). A backend's
 * test file is one call, e.g.
 * `storeContract('SqliteStore in memory', () => new SqliteStore(':memory:'))`.
 * A backend built part by part runs only the parts it has so far:
 * `describe('X', () => memoryStoreContract(freshStoreForEachTest(() => new X())))`.
 * It speaks only through the Store interfaces, so it holds no SQL and no backend detail.
 */
import { describe } from 'vitest';

import type { Store } from '../../src/store/store.js';
import { viewPerRead } from '../fixtures/view-per-read.js';
import { activationLogContract } from './activation-log.js';
import { activityLogContract } from './activity-log.js';
import { embeddingCacheContract } from './embedding-cache.js';
import { freshStoreForEachTest } from './fresh-store.js';
import { graphStoreContract } from './graph.js';
import { lexicalSearchContract } from './lexical-search.js';
import { memoryStoreContract } from './memories.js';
import { memoryIndexingContract } from './memory-indexing.js';
import { sessionStoreContract } from './sessions.js';
import { storeStatisticsContract } from './statistics.js';
import { vectorIndexContract } from './vector-index.js';
import { vectorSearchContract } from './vector-search.js';

export { activationLogContract } from './activation-log.js';
export { activityLogContract } from './activity-log.js';
export { embeddingCacheContract } from './embedding-cache.js';
export { type Closable, freshStoreForEachTest } from './fresh-store.js';
export { graphStoreContract } from './graph.js';
export { lexicalSearchContract } from './lexical-search.js';
export { memoryStoreContract } from './memories.js';
export { memoryIndexingContract } from './memory-indexing.js';
export { sessionStoreContract } from './sessions.js';
export { storeStatisticsContract } from './statistics.js';
export { vectorIndexContract } from './vector-index.js';
export { vectorSearchContract } from './vector-search.js';

/** Runs every part's contract against the backend `makeStore` builds; each test gets a fresh, empty store. */
export function storeContract(name: string, makeStore: () => Promise<Store> | Store): void {
  describe(`Store contract: ${name}`, () => {
    const current = freshStoreForEachTest(makeStore);

    sessionStoreContract(current);
    activationLogContract(current);
    activityLogContract(current);
    memoryStoreContract(current);
    memoryIndexingContract(current);
    lexicalSearchContract(current);
    vectorSearchContract(current);
    vectorIndexContract(current);
    embeddingCacheContract(current);
    storeStatisticsContract(current);
    graphStoreContract(current);
  });
}

/**
 * The parts of the contract whose reads the read layer answers (src/store/kept/: memories, their
 * sessions and the graph) and whose writes it follows (the activation log's stamps), run through
 * the layer with each read a decision of its own: it must answer as the store does after every write.
 */
export function readLayerContract(name: string, makeStore: () => Promise<Store> | Store): void {
  describe(`Store contract through the read layer: ${name}`, () => {
    const current = freshStoreForEachTest(async () => viewPerRead(await makeStore()));

    memoryStoreContract(current);
    activationLogContract(current);
    graphStoreContract(current);
  });
}
