/**
 * Answers kept by their arguments: a lookup asked again with the same arguments gets the answer
 * it got before. Graph-aware recall asks on every search for the entities a query names, their
 * relations and the newest memories naming them; the names repeat from turn to turn (the people
 * of a conversation), and each lookup is a few statements. One set is kept per tenant under one
 * change mark (kept-under-mark.ts). Each caller gets its own copies.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */

/** Answers kept at most (most are short: a name's entities, often none); past it, all are let go. */
const MAX_ANSWERS = 10_000;

export class KeptAnswers<T> {
  private readonly copy: (item: T) => T;
  private readonly kept = new Map<string, readonly T[]>();

  /** @param copy a copy of an item that shares nothing a caller could change */
  constructor(copy: (item: T) => T) {
    this.copy = copy;
  }

  /** The answer kept for `key`, or what `read` answers, kept from here on. */
  async answer(key: string, read: () => Promise<readonly T[]>): Promise<T[]> {
    return (await this.answers([key], async () => [await read()]))[0] as T[];
  }

  /** The answer kept for each of `keys`, those not kept read at once by `read` (an answer per key given) and kept. */
  async answers(keys: readonly string[], read: (missing: string[]) => Promise<readonly (readonly T[])[]>): Promise<T[][]> {
    const missing = [...new Set(keys.filter((key) => !this.kept.has(key)))];
    if (missing.length > 0) {
      const answers = await read(missing);
      if (this.kept.size + missing.length > MAX_ANSWERS) this.kept.clear();
      missing.forEach((key, i) => this.kept.set(key, (answers[i] ?? []).map(this.copy)));
    }
    return keys.map((key) => (this.kept.get(key) ?? []).map(this.copy));
  }
}
