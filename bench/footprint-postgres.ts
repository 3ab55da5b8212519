/**
 * `bench footprint` on PostgreSQL (`--store postgres://…`, or `pglite` / `pglite+pgvector` for a
 * PGlite server of its own): where a store's bytes go — each table's rows (TOAST apart) and each
 * index on its own, pgvector's HNSW index among them, and the vector table's and memories'
 * columns by the bytes their values take — and what the server spends to build and search it:
 * its CPU time during the build, the settling after it (`VACUUM (ANALYZE)`, what autovacuum does
 * on a server by itself and PGlite never does), the first search (which makes the vector index:
 * pgvector's HNSW index in the server, or the store's own index in the client) and `SEARCHES`
 * searches, beside the client's, and its memory after each (server-cost.ts).
 */
import type { Engram } from 'engram';
import { columnSizes, type ColumnSpace, indexSizes, relationSizes, settleTables } from 'engram/internal';

import type { BenchStore } from './bench-store.js';
import { type Part, partOf, PARTS } from './footprint-parts.js';
import type { ProcessSample } from './process-tree.js';
import { costBetween, findServer, type PhaseCost, sampleCost } from './server-cost.js';
import { quantile, textTable } from './stats.js';
import { syntheticQueries } from './synthetic-memories.js';

/** Searches timed after the first, each a hybrid search for 10 of `bench scale`'s queries. */
export const SEARCHES = 200;
/** The tables whose columns are listed. */
const COLUMN_TABLES = ['memory_embeddings', 'memories'];

/** A table's rows or an index, per memory. */
export interface PostgresShare {
  name: string;
  part: Part;
  bytesPerMemory: number;
  /** A table's: the part of its rows stored out of line (TOAST). */
  toastPerMemory?: number;
  /** An index's access method (btree, gin, hnsw). */
  method?: string;
}

/** Memory held at a moment, in MiB: the server's (summed over its processes) and this process's. */
export interface HeldMemory {
  server: { processes: number; pssMiB: number; privateMiB: number; rssMiB: number } | null;
  client: { privateMiB: number; rssMiB: number };
}

/** What the server spent building and searching the store, beside the client. */
export interface ServerCost {
  /** What was watched (the PostgreSQL server's processes, PGlite's process), or why nothing was. */
  server: string;
  watched: boolean;
  build: PhaseCost;
  /** VACUUM (ANALYZE) of the store's tables after the build. */
  settle: PhaseCost;
  firstSearch: PhaseCost;
  searches: PhaseCost & { count: number; p50Ms: number };
  memory: { opened: HeldMemory; built: HeldMemory; searched: HeldMemory };
}

/** Sizes of a PostgreSQL store, per memory. */
export interface PostgresSpace {
  bytes: number;
  shares: PostgresShare[];
  byPart: Record<Part, number>;
  /** Each listed table's columns: stored bytes per memory (and how many rows hold a value). */
  columns: Record<string, { name: string; type: string; bytesPerMemory: number; values: number }[]>;
}

/**
 * Builds the store through `engram` (`build`), settles the tables, then runs the first search
 * and `SEARCHES` more, sampling the server and this process around each phase.
 */
export async function buildAndSearch(
  engram: Engram,
  build: () => Promise<void>,
  database: BenchStore,
  { label, log }: { label: string; log: (line: string) => void },
): Promise<ServerCost> {
  const watch = await findServer(database);
  const opened = sampleCost(watch);
  await build();
  const built = sampleCost(watch);
  await settleTables(database.location);
  const settled = sampleCost(watch);
  log(`footprint ${label}: VACUUM (ANALYZE) ${costBetween(built, settled).wallSeconds.toFixed(1)} s`);
  await engram.search({ query: 'warm up the indexes', limit: 10, recordRetrieval: false });
  const warmed = sampleCost(watch);
  log(`footprint ${label}: first search (makes the vector index) ${costBetween(settled, warmed).wallSeconds.toFixed(1)} s`);
  const times: number[] = [];
  for (const query of syntheticQueries(SEARCHES)) {
    const at = performance.now();
    await engram.search({ query, limit: 10, recordRetrieval: false });
    times.push(performance.now() - at);
  }
  const searched = sampleCost(watch);
  return {
    server: 'pid' in watch ? watch.what : `not measured: ${watch.reason}`,
    watched: 'pid' in watch,
    build: costBetween(opened, built),
    settle: costBetween(built, settled),
    firstSearch: costBetween(settled, warmed),
    searches: { ...costBetween(warmed, searched), count: SEARCHES, p50Ms: quantile(times, 0.5) },
    memory: { opened: heldAt(opened), built: heldAt(built), searched: heldAt(searched) },
  };
}

function heldAt({ server, client }: { server: ProcessSample | null; client: ProcessSample }): HeldMemory {
  const mib = (bytes: number) => bytes / 2 ** 20;
  return {
    server:
      server === null
        ? null
        : {
            processes: server.processes,
            pssMiB: mib(server.pssBytes),
            privateMiB: mib(server.privateBytes),
            rssMiB: mib(server.rssBytes),
          },
    client: { privateMiB: mib(client.privateBytes), rssMiB: mib(client.rssBytes) },
  };
}

/** Where the bytes of the store at `url` (closed) go, per memory of `memories`. */
export async function postgresSpace(url: string, memories: number): Promise<PostgresSpace> {
  const relations = await relationSizes(url);
  const indexes = await indexSizes(url);
  const shares: PostgresShare[] = [
    ...relations.map((r) => ({
      name: r.name,
      part: partOf(r.name),
      bytesPerMemory: r.tableBytes / memories,
      toastPerMemory: r.toastBytes / memories,
    })),
    ...indexes.map((i) => ({ name: i.name, part: partOf(i.name), bytesPerMemory: i.bytes / memories, method: i.method })),
  ].sort((a, b) => b.bytesPerMemory - a.bytesPerMemory || a.name.localeCompare(b.name));
  const byPart = Object.fromEntries(PARTS.map((part) => [part, 0])) as Record<Part, number>;
  for (const share of shares) byPart[share.part] += share.bytesPerMemory;
  const columns: PostgresSpace['columns'] = {};
  for (const table of COLUMN_TABLES) {
    columns[table] = (await columnSizes(url, table)).map((c: ColumnSpace) => ({
      name: c.name,
      type: c.type,
      bytesPerMemory: c.bytes / memories,
      values: c.values,
    }));
  }
  return { bytes: relations.reduce((sum, r) => sum + r.totalBytes, 0), shares, byPart, columns };
}

/** The listing of a PostgreSQL store's largest tables and indexes, and its listed tables' columns. */
export function postgresSpaceLines(store: string, space: PostgresSpace, listed: number): string[] {
  return [
    `\n${store}: the largest tables (their rows, with TOAST) and indexes, bytes per memory`,
    textTable(
      ['table or index', 'part', 'bytes/mem', 'of it TOAST', 'index type'],
      space.shares
        .slice(0, listed)
        .map((s) => [s.name, s.part, s.bytesPerMemory.toFixed(0), s.toastPerMemory?.toFixed(0) ?? '', s.method ?? '']),
    ),
    ...Object.entries(space.columns).flatMap(([table, columns]) => [
      `\n${store}: ${table} by column, bytes per memory its values take as stored (out of line ones included, without TOAST's page overhead)`,
      textTable(
        ['column', 'type', 'bytes/mem', 'values'],
        columns.map((c) => [c.name, c.type, c.bytesPerMemory.toFixed(0), String(c.values)]),
      ),
    ]),
  ];
}

/** The server-cost tables of the stores that measured it. */
export function serverCostLines(costs: readonly { store: string; cost: ServerCost }[]): string[] {
  if (costs.length === 0) return [];
  const cpu = (value: number | null) => (value === null ? '-' : value.toFixed(2));
  const mib = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(0));
  return [
    `\nserver-side cost: wall s, CPU s of the server and of the client (this process) — the build, VACUUM (ANALYZE) after it, the first search (it makes the vector index), ${SEARCHES} searches`,
    textTable(
      [
        'store',
        'build s',
        'server CPU',
        'client CPU',
        'vacuum s',
        'server CPU',
        'first search s',
        'server CPU',
        'client CPU',
        'searches s',
        'p50 ms',
        'server CPU',
        'client CPU',
      ],
      costs.map(({ store, cost: c }) => [
        store,
        c.build.wallSeconds.toFixed(1),
        cpu(c.build.serverCpuSeconds),
        cpu(c.build.clientCpuSeconds),
        c.settle.wallSeconds.toFixed(1),
        cpu(c.settle.serverCpuSeconds),
        c.firstSearch.wallSeconds.toFixed(2),
        cpu(c.firstSearch.serverCpuSeconds),
        cpu(c.firstSearch.clientCpuSeconds),
        c.searches.wallSeconds.toFixed(2),
        c.searches.p50Ms.toFixed(1),
        cpu(c.searches.serverCpuSeconds),
        cpu(c.searches.clientCpuSeconds),
      ]),
    ),
    "\nserver memory, MiB summed over its processes (PSS: shared pages divided among them; private; RSS), opened → built → searched; the client's RSS",
    textTable(
      ['store', 'processes', 'PSS', 'private', 'RSS', 'client RSS'],
      costs.map(({ store, cost: { memory: m } }) => [
        store,
        m.searched.server === null ? '-' : String(m.searched.server.processes),
        [m.opened, m.built, m.searched].map((h) => mib(h.server?.pssMiB)).join(' → '),
        [m.opened, m.built, m.searched].map((h) => mib(h.server?.privateMiB)).join(' → '),
        [m.opened, m.built, m.searched].map((h) => mib(h.server?.rssMiB)).join(' → '),
        [m.opened, m.built, m.searched].map((h) => mib(h.client.rssMiB)).join(' → '),
      ]),
    ),
    ...costs.map(({ store, cost }) => `${store}: ${cost.server}`),
  ];
}
