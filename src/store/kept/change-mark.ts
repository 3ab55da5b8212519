/**
 * What the read caches of this folder are kept under: the store's change mark, read at once. It
 * is equal to an earlier mark exactly when nothing a search reads of the memories and their graph
 * was written since, by anyone (SQLite: ../sqlite/memory-writes.ts). The caches here take no
 * other signal.
 * When it is dropped: docs/decisions/what-is-kept.md.
 */

/** The store's change mark, answered without waiting. */
export interface ChangeMark {
  /** Equal to an earlier mark exactly when nothing it covers was written since, by anyone. */
  mark(): string;
}
