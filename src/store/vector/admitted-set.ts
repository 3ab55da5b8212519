/**
 * What a quantized index needs to know of a filter while it ranks: the rowids the filter admits,
 * as a bitmap. Each backend decides how it reads and keeps such sets (SQLite: admitted-sets.ts).
 */

/** The rowids a filter admits. */
export interface AdmittedSet {
  /** 1 at every admitted rowid; rowids past its end are not admitted. */
  readonly bits: Uint8Array;
  /** How many rowids are admitted. */
  readonly count: number;
  /** Moves whenever the set changes, so a ranking made with it can be kept until then. */
  readonly version: number;
}
