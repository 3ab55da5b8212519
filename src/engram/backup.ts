/**
 * `backupDatabase`: a consistent copy of an Engram database while other processes use it
 * (SQLite's online backup; see store/sqlite/backup.ts). Opening the copy with `--db` gives
 * exactly the memories committed when the copy began.
 */
import { parseConfig } from '../config/load.js';
import type { ConfigInput } from '../config/schema.js';

/** What to copy, and where. */
export interface BackupOptions {
  /** The database to copy. @default config `store.path` (".engram/engram.db") */
  path?: string;
  /** Settings of `engram.toml`'s shape; only `store.path` is read. */
  config?: ConfigInput;
  /** The copy's file; refused when it exists, unless `force`. */
  to: string;
  /** Replace an existing file at `to`. @default false */
  force?: boolean;
}

/** What a backup wrote. */
export interface BackupSummary {
  /** The database copied. */
  path: string;
  /** The copy. */
  to: string;
  /** Memories in the copy. */
  memories: number;
  /** The copy's size in bytes. */
  bytes: number;
}

/** Copies a live database to `to`, consistently, and checks the copy. */
export async function backupDatabase(options: BackupOptions): Promise<BackupSummary> {
  const config = parseConfig(options.config ?? {}, 'config');
  const file = options.path ?? config.store.path;
  const { backupSqlite } = await import('./sqlite-driver.js'); // loaded only when a backup is made
  const copied = await backupSqlite(file, options.to, { force: options.force ?? false });
  return { path: file, to: options.to, ...copied };
}
