/**
 * The SQLite driver as the facade and `engram/sqlite` open it: a `SqliteStore` whose file
 * failures (locked, read-only, disk full, damaged) reach the caller as one clear `EngramError`.
 * With the doctor's examination and the online backup, this module is the only way from the
 * facade to better-sqlite3 and sqlite-vec; `openEngram`, `doctorDatabase` and `backupDatabase`
 * import it only when the database is a SQLite file (open-store.ts).
 */
import { SqliteDoctor } from '../store/sqlite/doctor.js';
import { SqliteStore } from '../store/sqlite/sqlite-store.js';
import { withStorageErrors } from '../store/sqlite/with-storage-errors.js';
import type { Store } from '../store/store.js';
import type { StoreDoctor } from '../store/store-doctor.js';

export { backupSqlite } from '../store/sqlite/backup.js';

/** How to open a SQLite database file. Everything is optional. */
export interface SqliteStoreOptions {
  /** Refuse to create a database that does not exist yet. @default false */
  mustExist?: boolean;
  /** Create the file's folder when it is missing. @default false */
  createDirectory?: boolean;
  /** Float vectors held in memory for exact re-scores, in bytes at most (0: none). @default 32 MiB */
  floatVectorBytes?: number;
  /** Bytes of the file read through memory-mapped I/O (0: off). @default 1 GiB */
  mmapBytes?: number;
}

/**
 * Opens an Engram database file (or `:memory:`) as a `Store`, synchronously: an existing file is
 * opened now, a new one created at the first write. `openEngram({ store: openSqliteStore(file) })`
 * is `openEngram({ path: file })` with the store's own settings.
 */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): Store {
  return withStorageErrors(new SqliteStore(file, { ...options }), file);
}

/** The doctor's examination of a SQLite file, with the same clear errors as the store. */
export function openSqliteDoctor(file: string): StoreDoctor {
  return withStorageErrors(SqliteDoctor.open(file), file);
}
