/**
 * The store a configuration chooses, with only its driver loaded: PostgreSQL at config
 * `store.url` when set, else SQLite at the path. Each driver is a dynamic import, so a SQLite
 * user never loads `pg`, and a PostgreSQL user never loads better-sqlite3 or sqlite-vec.
 */
import path from 'node:path';

import type { EngramConfig } from '../config/schema.js';
import type { Store } from '../store/store.js';

/** Bytes in the MiB of the `[store]` sizes. */
const MIB = 1024 * 1024;

/** What `openEngram` passes on about the file. */
export interface StoreChoice {
  /** The database file, when SQLite is chosen. */
  file: string;
  mustExist: boolean;
  /** Create the file's folder; undefined: only for config `store.path` itself. */
  createDirectory: boolean | undefined;
}

/** The configured store, and the file it reads (null for PostgreSQL). */
export async function openConfiguredStore(
  config: EngramConfig,
  { file, mustExist, createDirectory }: StoreChoice,
): Promise<{ store: Store; path: string | null }> {
  if (config.store.url !== '') {
    const { openPostgresStore } = await import('./postgres-driver.js');
    return { store: await openPostgresStore(config.store.url, { poolSize: config.store.pool_size }), path: null };
  }
  const { openSqliteStore } = await import('./sqlite-driver.js');
  const store = openSqliteStore(file, {
    mustExist,
    createDirectory: createDirectory ?? path.resolve(file) === path.resolve(config.store.path),
    floatVectorBytes: config.store.float_vectors_mb * MIB,
    mmapBytes: config.store.mmap_mb * MIB,
  });
  return { store, path: file };
}
