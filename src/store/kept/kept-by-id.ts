/**
 * Entries kept by id, at most a bound: past it the older half is let go, oldest first. The read
 * caches of this folder hold one per tenant under one change mark (kept-under-mark.ts), so an
 * entry never needs checking: when the mark moves, the whole set is replaced.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */
export class KeptById<T> {
  private readonly max: number;
  private readonly kept = new Map<string, T>();

  constructor(max: number) {
    this.max = max;
  }

  get(id: string): T | undefined {
    return this.kept.get(id);
  }

  /** Keeps these entries, letting the oldest go first to stay within the bound. */
  keep(entries: Iterable<readonly [id: string, value: T]>): void {
    const adding = [...entries];
    if (this.kept.size + adding.length > this.max) {
      let drop = Math.max(this.kept.size >> 1, this.kept.size + adding.length - this.max);
      for (const id of this.kept.keys()) {
        if (drop-- <= 0) break;
        this.kept.delete(id);
      }
    }
    for (const [id, value] of adding) this.kept.set(id, value);
  }

  /** Lets these entries go. */
  drop(ids: Iterable<string>): void {
    for (const id of ids) this.kept.delete(id);
  }
}
