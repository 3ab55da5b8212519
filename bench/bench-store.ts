/**
 * Where a benchmark keeps its memories: a fresh SQLite file in a temporary directory (the
 * default), or, with `--store postgres://…`, a fresh schema of that PostgreSQL database. Either
 * way it starts empty and is removed at the end, and `engram serve` can be pointed at it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createScratchSchema, PostgresStore, SqliteStore } from 'engram/internal';
import type { Store } from 'engram/store';

/** One benchmark database. */
export interface BenchStore {
  backend: 'SQLite' | 'PostgreSQL';
  /** The SQLite file, or the URL of the PostgreSQL schema. */
  location: string;
  /** A store over it; an engine opened on it closes it. */
  open(): Store;
  /** The arguments that point `engram serve` (or any command) at it. */
  serveArgs: readonly string[];
  /** Its size on disk: the file's on SQLite, none on PostgreSQL (shared with the server's other data). */
  bytes(): number | null;
  remove(): Promise<void>;
}

/** A new, empty benchmark database called `name` (letters, digits, `_`), on `storeUrl` when given. */
export async function createBenchStore(name: string, storeUrl: string | undefined): Promise<BenchStore> {
  if (storeUrl !== undefined) {
    const schema = await createScratchSchema(storeUrl, `engram_bench_${name}_${process.pid}`);
    return {
      backend: 'PostgreSQL',
      location: schema.url,
      open: () => new PostgresStore(schema.url),
      serveArgs: ['--store', schema.url],
      bytes: () => null,
      remove: () => schema.drop(),
    };
  }
  const directory = mkdtempSync(path.join(os.tmpdir(), `engram-bench-${name}-`));
  const file = path.join(directory, `${name}.db`);
  return {
    backend: 'SQLite',
    location: file,
    open: () => new SqliteStore(file),
    serveArgs: ['--db', file],
    bytes: () => statSync(file).size,
    remove: async () => rmSync(directory, { recursive: true, force: true }),
  };
}
