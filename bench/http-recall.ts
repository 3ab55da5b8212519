/**
 * `bench http`: recall through the HTTP API under concurrent load. The server is a real
 * `engram serve` child process on loopback; this process is the load (see http-load.ts), so
 * client and server each have their own process. The database holds `--count` synthetic
 * memories (synthetic-memories.ts), embedded by the local model through the bench cache, and
 * is served twice: with the local model (the default: every query is embedded), and lexical
 * only. Measured: `POST /v1/search` and `POST /v1/sessions/{id}/before-turn` (active recall,
 * one session per connection), at 1 and 16 connections.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';

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
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-http-'));
  try {
    const queries = syntheticQueries(500);
    const results: PhaseResult[] = [];
    for (const server of ['local model', 'lexical'] as const) {
      const lexical = server === 'lexical';
      const file = path.join(directory, lexical ? 'lexical.db' : 'local.db');
      await buildDatabase(file, options.count, lexical, options.log);
      const child = await startServer(file, lexical ? { ENGRAM_EMBEDDING__PROVIDER: 'none' } : {});
      try {
        const routes =
          server === 'lexical'
            ? (['search'] as const) // without an embedder active recall does not run
            : (['search', 'before-turn'] as const);
        for (const route of routes) {
          for (const connections of LEVELS) {
            results.push(await measure(child.url, server, route, connections, queries, options.log));
          }
        }
      } finally {
        await child.stop();
      }
    }
    return report(results, options.count);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Stores the memories, embedded by the local model (through the bench cache) unless `lexical`. */
async function buildDatabase(file: string, count: number, lexical: boolean, log: (line: string) => void): Promise<void> {
  const { embedder, close } = openBenchEmbedder();
  const engram = await openEngram({ path: file, embedder: lexical ? null : embedder, config: {} });
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
  url: string,
  server: PhaseResult['server'],
  route: 'search' | 'before-turn',
  connections: number,
  queries: readonly string[],
  log: (line: string) => void,
): Promise<PhaseResult> {
  const next = (connection: number, sequence: number) => {
    const query = queries[(connection * 31 + sequence) % queries.length] as string;
    return route === 'search'
      ? { path: '/v1/search', body: { query, limit: 10 } }
      : { path: `/v1/sessions/bench-${connections}-${connection}/before-turn`, body: { message: query } };
  };
  await runLoad({ baseUrl: url, connections, durationMs: WARMUP_MS, next });
  const result = await runLoad({ baseUrl: url, connections, durationMs: DURATION_MS, next });
  const phase: PhaseResult = {
    server,
    route: route === 'search' ? 'POST /v1/search' : 'POST …/before-turn',
    connections,
    requests: result.requests,
    errors: result.errors,
    perSecond: result.perSecond,
    p50Ms: quantile(result.latenciesMs, 0.5),
    p95Ms: quantile(result.latenciesMs, 0.95),
    p99Ms: quantile(result.latenciesMs, 0.99),
  };
  log(`http: ${server}, ${phase.route}, ${connections} connection(s): ${phase.perSecond.toFixed(0)} req/s`);
  return phase;
}

function report(results: readonly PhaseResult[], count: number): BenchResult {
  const machine = machineInfo();
  const failed = results.filter((r) => r.errors > 0);
  const table = [
    ...(failed.length > 0 ? [`WARNING: ${failed.length} phase(s) had failed requests: their numbers are not recall`] : []),
    `http: recall over loopback, server = \`engram serve\` child process, load from this process; ${count} synthetic memories; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    textTable(
      ['server', 'route', 'connections', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors'],
      results.map((r) => [
        r.server,
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
    json: { benchmark: 'http', machine, memories: count, durationMs: DURATION_MS, results },
  };
}

/** Starts `engram serve` on `file` and waits until it listens (the inspector's bench uses it too). */
export function startServer(file: string, env: Record<string, string>): Promise<ListeningChild> {
  return startListening(['serve', '--db', file], env, (where) => (where.api as string).replace(/\/v1$/, ''));
}
