/**
 * Small helpers of the contract suite: turning writes into promises, collecting iterations and
 * reading ids, so the tests state behaviour rather than plumbing.
 */

/**
 * Runs `write` so that a synchronous throw also becomes a rejection; tests of what a failed write
 * leaves behind use it, and one test checks on its own that failures arrive as rejections.
 */
export function attempt(write: () => Promise<unknown>): Promise<unknown> {
  return (async () => write())();
}

/** Every item of an async iteration, in order. */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The ids of `items`, in order. */
export const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id);
