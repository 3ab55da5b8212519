/**
 * Where a benchmark keeps its memories: a fresh SQLite file in a temporary directory (the
 * default); with `--store postgres://…`, a fresh schema of that PostgreSQL database; with
 * `--store pglite` or `pglite+pgvector` (`bench footprint`), a PGlite server of its own in a child
 * process, standing in for a PostgreSQL server with pgvector (pglite-server.ts). Either way it
 * starts empty and is removed at the end, and `engram serve` can be pointed at it.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { createScratchSchema, PostgresStore, SqliteStore } from 'engram/internal';
import type { Store } from 'engram/store';

import { startPgliteServer } from './pglite-server.js';

/** The `--store` values that start a PGlite server, and whether it has pgvector. */
export const PGLITE_STORES: Readonly<Record<string, { pgvector: boolean }>> = {
  pglite: { pgvector: false },
  'pglite+pgvector': { pgvector: true },
};

/** One benchmark database. */
export interface BenchStore {
  backend: 'SQLite' | 'PostgreSQL';
  /** What serves it, for a report's header: SQLite, PostgreSQL, or PGlite with or without pgvector. */
  engine: string;
  /** The SQLite file, or the URL of the PostgreSQL schema. */
  location: string;
  /** The PGlite server's process, whose memory and CPU time are the server's own. */
  serverPid?: number;
  /** A store over it; an engine opened on it closes it. */
  open(): Store;
  /** The arguments that point `engram serve` (or any command) at it. */
  serveArgs: readonly string[];
  /** Its size on disk: the file's on SQLite, none on PostgreSQL (shared with the server's other data). */
  bytes(): number | null;
  remove(): Promise<void>;
}

/**
 * A new, empty benchmark database called `name` (letters, digits, `_`): on `store` when it is a
 * PostgreSQL URL, on a PGlite server of its own when it is one of `PGLITE_STORES`, else a SQLite file.
 */
export async function createBenchStore(name: string, store: string | undefined): Promise<BenchStore> {
  const pglite = store === undefined ? undefined : PGLITE_STORES[store];
  if (pglite !== undefined) {
    const server = await startPgliteServer(pglite);
    return {
      backend: 'PostgreSQL',
      engine: `PGlite${pglite.pgvector ? ' with pgvector' : ''}`,
      location: server.url,
      serverPid: server.pid,
      // PGlite is one session: one connection at a time.
      open: () => new PostgresStore(server.url, { max: 1 }),
      serveArgs: ['--store', server.url],
      bytes: () => null,
      remove: () => server.stop(),
    };
  }
  if (store !== undefined) {
    const schema = await createScratchSchema(store, `engram_bench_${name}_${process.pid}`);
    return {
      backend: 'PostgreSQL',
      engine: 'PostgreSQL',
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
    engine: 'SQLite',
    location: file,
    open: () => new SqliteStore(file),
    serveArgs: ['--db', file],
    bytes: () => statSync(file).size,
    remove: async () => rmSync(directory, { recursive: true, force: true }),
  };
}
