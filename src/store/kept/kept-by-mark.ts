/**
 * Answers kept under the store's change mark (change-mark.ts): a lookup asked again with
 * the same arguments gets the answer it got before, as long as nothing it reads was written
 * since, by this connection or another. Graph-aware recall asks on every search for the
 * entities a query names, their relations and the newest memories naming them; the names
 * repeat from turn to turn (the people of a conversation), and each lookup is a few statements.
 * Each caller gets its own copies.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
import type { ChangeMark } from './change-mark.js';

/** Answers kept at most (most are short: a name's entities, often none); past it, all are let go. */
const MAX_ANSWERS = 10_000;

export class KeptByMark<T> {
  private readonly writes: ChangeMark;
  private readonly copy: (item: T) => T;
  private mark: string | null = null;
  private readonly kept = new Map<string, readonly T[]>();

  /** @param copy a copy of an item that shares nothing a caller could change */
  constructor(writes: ChangeMark, copy: (item: T) => T) {
    this.writes = writes;
    this.copy = copy;
  }

  /** The answer kept for `key`, or what `read` answers, kept from here on. */
  answer(key: string, read: () => readonly T[]): T[] {
    return this.answers([key], read)[0] as T[];
  }

  /** The answer kept for each of `keys`, or what `read` answers for it, kept from here on; the mark checked once. */
  answers(keys: readonly string[], read: (key: string, index: number) => readonly T[]): T[][] {
    const mark = this.writes.mark();
    if (mark !== this.mark || this.kept.size >= MAX_ANSWERS) {
      this.kept.clear();
      this.mark = mark;
    }
    return keys.map((key, index) => {
      let kept = this.kept.get(key);
      if (kept === undefined) {
        kept = read(key, index).map(this.copy);
        this.kept.set(key, kept);
      }
      return kept.map(this.copy);
    });
  }
}
