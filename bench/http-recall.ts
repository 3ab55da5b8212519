/**
 * `bench http`: recall through the HTTP API under concurrent load. The server is a real
 * `engram serve` child process on loopback; this process is the load (see http-load.ts), so
 * client and server each have their own process. The database holds `--count` synthetic
 * memories (synthetic-memories.ts), embedded by the local model through the bench cache, and
 * is served twice: with the local model (the default: every query is embedded), and lexical
 * only. Measured: `POST /v1/search` and `POST /v1/sessions/{id}/before-turn` (active recall,
 * one session per connection), at 1 and 16 connections.
 *
 * With `--store postgres://…` the database is a fresh schema of that PostgreSQL database, served
 * with the local model by one `engram serve` and then by two at once (the connections spread
 * over them in turn), to show what a second server on the same database adds.
 */
import { openEngram } from 'engram';

import { type BenchStore, createBenchStore } from './bench-store.js';
import type { BenchOptions, BenchResult } from './bench-types.js';
import { openBenchEmbedder } from './embedding-cache.js';
import { runLoad } from './http-load.js';
import { type ListeningChild, startListening } from './listening-child.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';
import { syntheticMemories, syntheticQueries } from './synthetic-memories.js';

const BATCH = 1_000;
const DURATION_MS = 8_000;
const WARMUP_MS = 1_000;
const LEVELS = [1, 16];

interface PhaseResult {
  server: 'local model' | 'lexical';
  /** `engram serve` processes sharing the database. */
  servers: number;
  route: string;
  connections: number;
  requests: number;
  errors: number;
  perSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export async function runHttpBenchmark(options: BenchOptions): Promise<BenchResult> {
  const queries = syntheticQueries(500);
  const results: PhaseResult[] = [];
  // SQLite: with the local model, then lexical only. PostgreSQL: with the local model, on one server then two.
  const runs: readonly (readonly [PhaseResult['server'], number])[] =
    options.store === undefined
      ? [
          ['local model', 1],
          ['lexical', 1],
        ]
      : [
          ['local model', 1],
          ['local model', 2],
        ];
  let backend = 'SQLite';
  const databases: { server: PhaseResult['server']; database: BenchStore }[] = [];
  try {
    for (const [server, servers] of runs) {
      const lexical = server === 'lexical';
      let built = databases.find((made) => made.server === server);
      if (built === undefined) {
        const database = await createBenchStore(lexical ? 'http_lexical' : 'http_local', options.store);
        built = { server, database };
        databases.push(built);
        backend = database.backend;
        await buildDatabase(database, options.count, lexical, options.log);
      }
      const env: Record<string, string> = lexical ? { ENGRAM_EMBEDDING__PROVIDER: 'none' } : {};
      const serveArgs = built.database.serveArgs;
      const children = await Promise.all(Array.from({ length: servers }, () => startServer(serveArgs, env)));
      try {
        // Without an embedder active recall does not run.
        const routes = lexical ? (['search'] as const) : (['search', 'before-turn'] as const);
        const urls = children.map((child) => child.url);
        for (const route of routes) {
          for (const connections of LEVELS) {
            results.push(await measure(urls, { server, servers }, route, connections, queries, options.log));
          }
        }
      } finally {
        await Promise.all(children.map((child) => child.stop()));
      }
    }
  } finally {
    for (const { database } of databases) await database.remove();
  }
  return report(results, options.count, backend);
}

/** Stores the memories, embedded by the local model (through the bench cache) unless `lexical`. */
async function buildDatabase(database: BenchStore, count: number, lexical: boolean, log: (line: string) => void): Promise<void> {
  const { embedder, close } = openBenchEmbedder();
  const engram = await openEngram({ store: database.open(), embedder: lexical ? null : embedder, config: {} });
  try {
    const memories = syntheticMemories(count, count);
    for (let start = 0; start < count; start += BATCH) {
      await engram.rememberMany(memories.slice(start, start + BATCH));
      log(`http: ${Math.min(start + BATCH, count)} of ${count} memories stored${lexical ? ' (lexical)' : ''}`);
    }
  } finally {
    await engram.close();
    await close();
  }
}

async function measure(
  urls: readonly string[],
  { server, servers }: Pick<PhaseResult, 'server' | 'servers'>,
  route: 'search' | 'before-turn',
  connections: number,
  queries: readonly string[],
  log: (line: string) => void,
): Promise<PhaseResult> {
  const next = (connection: number, sequence: number) => {
    const query = queries[(connection * 31 + sequence) % queries.length] as string;
    return route === 'search'
      ? { path: '/v1/search', body: { query, limit: 10 } }
      : { path: `/v1/sessions/bench-${servers}-${connections}-${connection}/before-turn`, body: { message: query } };
  };
  await runLoad({ baseUrl: urls, connections, durationMs: WARMUP_MS, next });
  const result = await runLoad({ baseUrl: urls, connections, durationMs: DURATION_MS, next });
  const phase: PhaseResult = {
    server,
    servers,
    route: route === 'search' ? 'POST /v1/search' : 'POST …/before-turn',
    connections,
    requests: result.requests,
    errors: result.errors,
    perSecond: result.perSecond,
    p50Ms: quantile(result.latenciesMs, 0.5),
    p95Ms: quantile(result.latenciesMs, 0.95),
    p99Ms: quantile(result.latenciesMs, 0.99),
  };
  log(`http: ${server}, ${servers} server(s), ${phase.route}, ${connections} connection(s): ${phase.perSecond.toFixed(0)} req/s`);
  return phase;
}

function report(results: readonly PhaseResult[], count: number, backend: string): BenchResult {
  const machine = machineInfo();
  const failed = results.filter((r) => r.errors > 0);
  const table = [
    ...(failed.length > 0 ? [`WARNING: ${failed.length} phase(s) had failed requests: their numbers are not recall`] : []),
    `http on ${backend}: recall over loopback, server = \`engram serve\` child process, load from this process; ${count} synthetic memories; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    textTable(
      ['server', 'servers', 'route', 'connections', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
      results.map((r) => [
        r.server,
        String(r.servers),
        r.route,
        String(r.connections),
        r.perSecond.toFixed(0),
        r.p50Ms.toFixed(1),
        r.p95Ms.toFixed(1),
        r.p99Ms.toFixed(1),
        String(r.errors),
      ]),
    ),
  ].join('\n');
  return {
    table,
    json: { benchmark: 'http', backend, machine, memories: count, durationMs: DURATION_MS, results },
  };
}

/**
 * Starts `engram serve` on a database and waits until it listens (the inspector's bench uses it
 * too): a SQLite file's path, or the arguments naming the database (`BenchStore.serveArgs`).
 */
export function startServer(database: string | readonly string[], env: Record<string, string>): Promise<ListeningChild> {
  const args = typeof database === 'string' ? ['--db', database] : database;
  return startListening(['serve', ...args], env, (where) => (where.api as string).replace(/\/v1$/, ''));
}
