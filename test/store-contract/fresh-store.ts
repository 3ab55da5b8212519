/**
 * One fresh, empty store per test, closed after it. The part contracts read the store of the
 * running test through the getter this returns, so one lifecycle serves every part: the whole
 * `storeContract`, or only the parts a backend under construction has so far.
 */
import { afterEach, beforeEach } from 'vitest';

/** Anything a contract can open and close per test: a whole Store or a backend of only some parts. */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Registers, in the enclosing `describe`, a fresh store from `makeStore` before each test and
 * its `close()` after it; returns the store of the running test. Call it before the part
 * contracts, so their own `beforeEach` hooks run after the store exists.
 */
export function freshStoreForEachTest<S extends Closable>(makeStore: () => Promise<S> | S): () => S {
  let store: S | undefined;

  beforeEach(async () => {
    store = await makeStore();
  });

  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  return () => {
    if (store === undefined) throw new Error('the store of a test is read only while the test runs');
    return store;
  };
}
