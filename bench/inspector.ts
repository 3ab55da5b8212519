/**
 * `bench inspector`: the web inspector's pages at 100k memories, served by a real `engram
 * serve` child process. The headline is issue 15's target — the memories page, 50 memories at
 * 100k stored: p50 ≤ 100 ms of server time — next to a deep page, a filtered page, the
 * pinned filter (which reads on through the list), a lexical search, a memory's page and the
 * stats. Server time is the page's `Server-Timing` header (rendering included); the client
 * time adds loopback and reading the body. The memories are stored without vectors or graph
 * extraction: the pages read neither, and building 100k memories stays under a minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram } from 'engram';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { startServer } from './http-recall.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';
import { inSessions, syntheticMemories } from './synthetic-memories.js';

const SIZE = 100_000;
const BATCH = 5_000;
const RUNS = 60;
/** Every this-many memories is pinned, so the pinned filter has to read on through the list. */
const PINNED_EVERY = 1_000;
/** Issue 15: the memories page, 50 memories at 100k stored. */
const TARGET_P50_MS = 100;

interface PageResult {
  page: string;
  path: string;
  serverMs: { p50: number; p95: number };
  clientMs: { p50: number; p95: number };
  bytes: number;
}

export async function runInspectorBenchmark(options: BenchOptions): Promise<BenchResult> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-inspector-'));
  try {
    const file = path.join(directory, 'inspector.db');
    const someId = await buildDatabase(file, options.log);
    // Lexical: the pages measured never embed a query.
    const server = await startServer(file, { ENGRAM_EMBEDDING__PROVIDER: 'none', ENGRAM_DAEMON__ENABLED: 'false' });
    try {
      const cookie = await sessionCookie(server.url);
      const results: PageResult[] = [];
      for (const [page, href] of pagesToMeasure(someId)) {
        results.push(await measurePage(server.url, page, href, cookie));
        options.log(`inspector: ${page} measured`);
      }
      const machine = machineInfo();
      return {
        table: reportTable(results, machine),
        json: { benchmark: 'inspector', machine, memories: SIZE, runs: RUNS, targetP50Ms: TARGET_P50_MS, pages: results },
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The pages measured, as `[name, path]`; the headline first. */
function pagesToMeasure(someId: string): [string, string][] {
  return [
    ['memories, first 50', '/memories'],
    ['memories, page at 50,000', '/memories?offset=50000'],
    ['memories, kind + tier', '/memories?kind=decision&tier=must'],
    ['memories, pinned (reads on)', '/memories?flag=pinned'],
    ['memories, search', '/memories?q=billing+service+PostgreSQL&mode=bm25'],
    ['one memory', `/memories/${someId}`],
    ['stats', '/stats'],
  ];
}

function reportTable(results: readonly PageResult[], machine: ReturnType<typeof machineInfo>): string {
  const headline = results[0] as PageResult;
  const ms = (value: { p50: number; p95: number }) => `${value.p50.toFixed(1)} / ${value.p95.toFixed(1)}`;
  return [
    `inspector: ${SIZE.toLocaleString('en-US')} synthetic memories, engram serve on loopback, ${RUNS} loads per page; ${machine.cores} cores (${machine.cpu}), node ${machine.node}`,
    `target: the memories page (50 of ${SIZE.toLocaleString('en-US')}) at p50 ≤ ${TARGET_P50_MS} ms server time — ${headline.serverMs.p50 <= TARGET_P50_MS ? 'met' : 'MISSED'} (${headline.serverMs.p50.toFixed(1)} ms)`,
    textTable(
      ['page', 'server p50/p95 ms', 'client p50/p95 ms', 'KB'],
      results.map((r) => [r.page, ms(r.serverMs), ms(r.clientMs), (r.bytes / 1000).toFixed(0)]),
    ),
  ].join('\n');
}

/** Stores the memories (no vectors, no graph) and returns the id of one in the middle. */
async function buildDatabase(file: string, log: (line: string) => void): Promise<string> {
  const engram = await openEngram({ path: file, embedder: null, config: { graph: { extract: false } } });
  try {
    const memories = inSessions(syntheticMemories(SIZE, SIZE)).map((memory, i) => ({
      ...memory,
      pinned: i % PINNED_EVERY === 0,
    }));
    let middle = '';
    for (let start = 0; start < SIZE; start += BATCH) {
      const stored = await engram.rememberMany(memories.slice(start, start + BATCH));
      if (start === SIZE / 2) middle = stored[0]?.id ?? '';
      log(`inspector: ${Math.min(start + BATCH, SIZE)} memories`);
    }
    return middle;
  } finally {
    await engram.close();
  }
}

/** One browser session, so every load is a signed-in page view rather than a first visit. */
async function sessionCookie(base: string): Promise<string> {
  const response = await fetch(`${base}/memories`);
  await response.text();
  return (response.headers.getSetCookie()[0] ?? '').split(';')[0] as string;
}

async function measurePage(base: string, page: string, href: string, cookie: string): Promise<PageResult> {
  const server: number[] = [];
  const client: number[] = [];
  let bytes = 0;
  for (let run = -3; run < RUNS; run++) {
    const started = performance.now();
    const response = await fetch(`${base}${href}`, { headers: { cookie } });
    const body = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${href} answered ${response.status}`);
    if (run < 0) continue; // warm-up
    const timing = /dur=([\d.]+)/.exec(response.headers.get('server-timing') ?? '');
    server.push(Number(timing?.[1] ?? Number.NaN));
    client.push(elapsed);
    bytes = body.length;
  }
  return {
    page,
    path: href,
    serverMs: { p50: quantile(server, 0.5), p95: quantile(server, 0.95) },
    clientMs: { p50: quantile(client, 0.5), p95: quantile(client, 0.95) },
    bytes,
  };
}
