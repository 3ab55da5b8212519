/**
 * `bench footprint`: bytes on disk per memory at 10k and 100k memories (1M with --full), with
 * their text, vectors, full-text index and graph, broken down by table and index. The stores are
 * built as `bench scale` builds them (the same synthetic memories in sessions, synthetic
 * clustered 512-d vectors, the graph extracted on write); with `--data FILE` (LoCoMo's format)
 * one more store holds that file's real turns, each with the turn before it as context, embedded
 * by the local model as `bench locomo` embeds them. On SQLite the breakdown is SQLite's page
 * statistics (dbstat) of the closed file, and each synthetic store also gives the time a new
 * process takes to its first search result with the query vector given, and what a process holds
 * after opening and one search, with and without the local model (first-answer.ts). On
 * PostgreSQL (`--store postgres://…`, or `pglite` / `pglite+pgvector` for a PGlite server of its
 * own standing in for a server with pgvector), each table and index of the store and what the
 * server spends to build and search it (footprint-postgres.ts). Why the format is what it is:
 * docs/decisions/bytes-per-memory.md and time-to-first-answer.md.
 */
import { type Engram, type MemoryInput, openEngram } from 'engram';
import { spaceByTable } from 'engram/internal';

import { createBenchStore } from './bench-store.js';
import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder } from './embedding-cache.js';
import { type FirstAnswer, measureFirstAnswer } from './first-answer.js';
import { type Part, partOf, PARTS } from './footprint-parts.js';
import {
  buildAndSearch,
  type PostgresSpace,
  postgresSpace,
  postgresSpaceLines,
  type ServerCost,
  serverCostLines,
} from './footprint-postgres.js';
import { loadLocomo } from './locomo-data.js';
import { machineInfo } from './machine.js';
import { textTable } from './stats.js';
import { createSyntheticEmbedder } from './synthetic-embedder.js';
import { inSessions, syntheticMemories, syntheticQueries, topicOf } from './synthetic-memories.js';

const BATCH = 5_000;
/** The largest tables and indexes a size's breakdown lists. */
const LISTED = 12;

/** One table's or index's share, per memory. */
interface TableShare {
  name: string;
  part: Part;
  bytesPerMemory: number;
  /** SQLite only: its rows' content and its pages' empty bytes, per memory, and its pages. */
  payloadPerMemory?: number;
  unusedPerMemory?: number;
  pages?: number;
}

export interface FootprintResult {
  store: string;
  memories: number;
  /** The file (SQLite) or the schema's tables (PostgreSQL). */
  bytes: number;
  bytesPerMemory: number;
  /** SQLite: free pages in the file (none in a freshly built one). */
  freeBytes: number | null;
  byPart: Record<Part, number>;
  /** SQLite: its tables and indexes. */
  tables: TableShare[];
  /** PostgreSQL: its tables' rows and indexes apart, and the listed tables' columns. */
  postgres?: PostgresSpace;
  /** SQLite's synthetic stores: a new process's first answer and what it holds then. */
  firstAnswer?: FirstAnswer;
  /** PostgreSQL's synthetic stores: what the server spent building and searching it, and held. */
  serverCost?: ServerCost;
}

/** The sizes measured: 10k and 100k, 1M with `full`. */
export const FOOTPRINT_SIZES = [10_000, 100_000];
const FULL_SIZE = 1_000_000;

export async function runFootprintBenchmark(options: BenchOptions, sizes = FOOTPRINT_SIZES): Promise<BenchResult> {
  const results: FootprintResult[] = [];
  for (const size of options.full ? [...sizes, FULL_SIZE] : sizes) {
    const memories = inSessions(syntheticMemories(size, size));
    results.push(await measure(`synthetic ${size}`, `footprint_${size}`, memories, options, 'synthetic'));
    options.log(`footprint ${size}: ${JSON.stringify(results.at(-1)?.byPart)}`);
  }
  if (options.data !== undefined) {
    const memories = await locomoMemories(options.data, options.context ?? true);
    results.push(await measure(`LoCoMo turns`, 'footprint_locomo', memories, options, 'local'));
  }
  const machine = machineInfo();
  const backend = engineOf(options.store);
  const table = [
    `footprint on ${backend}: bytes on disk per memory; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    `synthetic: bench scale's memories with synthetic clustered 512-d vectors${options.data ? `; LoCoMo turns: ${options.data}, the local model` : ''}`,
    textTable(
      ['store', 'memories', 'MB', 'bytes/mem', ...PARTS],
      results.map((r) => [
        r.store,
        String(r.memories),
        (r.bytes / 1e6).toFixed(1),
        r.bytesPerMemory.toFixed(0),
        ...PARTS.map((part) => r.byPart[part].toFixed(0)),
      ]),
    ),
    ...firstAnswerLines(results),
    ...serverCostLines(results.flatMap((r) => (r.serverCost ? [{ store: r.store, cost: r.serverCost }] : []))),
    ...results.map((r) =>
      r.postgres
        ? postgresSpaceLines(r.store, r.postgres, LISTED).join('\n')
        : [
            `\n${r.store}: the largest tables and indexes, bytes per memory`,
            textTable(
              ['table or index', 'part', 'bytes/mem', 'payload/mem', 'unused/mem', 'pages'],
              r.tables
                .slice(0, LISTED)
                .map((t) => [
                  t.name,
                  t.part,
                  t.bytesPerMemory.toFixed(0),
                  t.payloadPerMemory?.toFixed(0) ?? '-',
                  t.unusedPerMemory?.toFixed(0) ?? '-',
                  t.pages === undefined ? '-' : String(t.pages),
                ]),
            ),
          ].join('\n'),
    ),
  ].join('\n');
  return { table, json: { benchmark: 'footprint', backend, machine, sizes: results } };
}

/** What `--store` names, for the report's header. */
function engineOf(store: string | undefined): string {
  if (store === undefined) return 'SQLite';
  if (store === 'pglite') return 'PGlite (PostgreSQL in WebAssembly, its own process)';
  if (store === 'pglite+pgvector') return 'PGlite with pgvector (PostgreSQL in WebAssembly, its own process)';
  return 'PostgreSQL';
}

/**
 * Builds one store of these memories, closes it and reads where its bytes went. On PostgreSQL
 * a synthetic store is also searched, and the server's cost of both measured.
 */
export async function measure(
  label: string,
  name: string,
  memories: readonly MemoryInput[],
  { log, store: storeUrl }: BenchOptions,
  embedding: 'synthetic' | 'local',
): Promise<FootprintResult> {
  const database = await createBenchStore(name, storeUrl);
  const local = embedding === 'local' ? openBenchEmbedder() : null;
  try {
    const embedder = local?.embedder ?? createSyntheticEmbedder(topicOf);
    const engram: Engram = await openEngram({ store: database.open(), embedder });
    if (database.backend === 'PostgreSQL') {
      const buildIt = () => build(engram, memories, label, log);
      const serverCost = embedding === 'synthetic' ? await buildAndSearch(engram, buildIt, database, { label, log }) : null;
      if (serverCost === null) await buildIt();
      await engram.close();
      const space = await postgresSpace(database.location, memories.length);
      return {
        store: label,
        memories: memories.length,
        bytes: space.bytes,
        bytesPerMemory: space.bytes / memories.length,
        freeBytes: null,
        byPart: space.byPart,
        tables: [],
        postgres: space,
        ...(serverCost ? { serverCost } : {}),
      };
    }
    await build(engram, memories, label, log);
    await engram.close();
    const shares = sqliteShares(label, database.location, memories.length);
    if (embedding !== 'synthetic') return shares;
    const [query] = await embedder.embed(syntheticQueries(1));
    log(`footprint ${label}: a new process's first answer, three runs with and without the model`);
    return { ...shares, firstAnswer: await measureFirstAnswer(database.location, query as Float32Array) };
  } finally {
    await local?.close();
    await database.remove();
  }
}

function sqliteShares(store: string, file: string, memories: number): FootprintResult {
  const space = spaceByTable(file);
  const tables = space.tables.map((t) => ({
    name: t.name,
    part: partOf(t.name),
    bytesPerMemory: t.bytes / memories,
    payloadPerMemory: t.payload / memories,
    unusedPerMemory: t.unused / memories,
    pages: t.pages,
  }));
  return {
    store,
    memories,
    bytes: space.fileBytes,
    bytesPerMemory: space.fileBytes / memories,
    freeBytes: space.freeBytes,
    byPart: sumByPart(tables),
    tables,
  };
}

async function build(
  engram: Engram,
  memories: readonly MemoryInput[],
  label: string,
  log: (line: string) => void,
): Promise<void> {
  for (let start = 0; start < memories.length; start += BATCH) {
    await engram.rememberMany(memories.slice(start, start + BATCH));
    log(`footprint ${label}: ${Math.min(start + BATCH, memories.length)} memories`);
  }
}

function sumByPart(tables: readonly TableShare[]): Record<Part, number> {
  const byPart = Object.fromEntries(PARTS.map((part) => [part, 0])) as Record<Part, number>;
  for (const table of tables) byPart[table.part] += table.bytesPerMemory;
  return byPart;
}

/** Every turn of a LoCoMo file as `bench locomo` stores it: with the turn before it in its session as context. */
async function locomoMemories(file: string, withContext: boolean): Promise<MemoryInput[]> {
  const conversations = await loadLocomo(file);
  return conversations.flatMap((conversation, c) =>
    conversation.turns.map((turn, i) => {
      const previous = conversation.turns[i - 1];
      return {
        text: turn.text,
        context: withContext && previous?.session === turn.session ? previous.text : null,
        kind: 'episode' as const,
        sessionId: `conversation_${c}_session_${turn.session}`,
        ...(turn.date ? { occurredAt: turn.date } : {}),
      };
    }),
  );
}

/** The first-answer table, when any store measured it. */
function firstAnswerLines(results: readonly FootprintResult[]): string[] {
  const measured = results.filter((r) => r.firstAnswer !== undefined);
  if (measured.length === 0) return [];
  const mib = (value: number) => value.toFixed(0);
  return [
    '\nnew process → first result, query vector given (medians of 3): wall ms; inside it: open, search; resident MiB after it (RSS = private + file pages; V8 heap), without → with the local model',
    textTable(
      ['store', 'wall ms', 'open ms', 'search ms', 'RSS', 'private', 'file pages', 'heap', 'RSS +model', 'private +model'],
      measured.map(({ store, firstAnswer: f }) => {
        const a = f as FirstAnswer;
        return [
          store,
          a.wallMs.toFixed(0),
          a.openMs.toFixed(0),
          a.searchMs.toFixed(0),
          mib(a.rssMiB),
          mib(a.rssAnonMiB),
          mib(a.rssFileMiB),
          mib(a.heapMiB),
          mib(a.withModel.rssMiB),
          mib(a.withModel.rssAnonMiB),
        ];
      }),
    ),
  ];
}
