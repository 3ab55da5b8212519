/**
 * Wraps an object over one SQLite file so that every method's failure of the file itself (locked,
 * read-only, disk full, damaged; see storage-error.ts) reaches the caller as one clear
 * EngramError, whichever of the store's many methods met it: a synchronous throw, a rejected
 * promise, or an error in the middle of an async iteration (an export).
 */
import { storageError } from './storage-error.js';

/** `target`, with its methods' storage failures explained for `file`. */
export function withStorageErrors<T extends object>(target: T, file: string): T {
  const explain = (error: unknown): never => {
    throw storageError(error, file);
  };
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        let result: unknown;
        try {
          result = (value as (...args: unknown[]) => unknown).apply(object, args);
        } catch (error) {
          return explain(error);
        }
        if (result instanceof Promise) return result.catch(explain);
        if (isAsyncIterable(result)) return explainIteration(result, explain);
        return result;
      };
    },
  });
}

async function* explainIteration<T>(items: AsyncIterable<T>, explain: (error: unknown) => never): AsyncIterable<T> {
  try {
    yield* items;
  } catch (error) {
    explain(error);
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
