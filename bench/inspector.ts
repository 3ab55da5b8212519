/**
 * `bench inspector`: the web inspector's pages at 100k memories, served by a real `engram
 * serve` child process. The headline is issue 15's target — the memories page, 50 memories at
 * 100k stored: p50 ≤ 100 ms of server time — next to a deep page (reached from the memory
 * before it), a filtered page, the pinned and archived filters (a few rows in 100k), a lexical
 * search, a memory's page (with its injections), the sessions list and the stats. Server time
 * is the page's `Server-Timing` header (rendering included); the client time adds loopback and
 * reading the body. The memories are stored without vectors or graph extraction: the pages
 * read neither, and building 100k memories stays under a minute. Recall needs vectors, so the
 * activation log (sessions, receipts, injections) is written through the store directly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { openEngram, type Receipt } from 'engram';
import { SqliteStore } from 'engram/internal';

import type { BenchOptions, BenchResult } from './bench-types.js';
import { startServer } from './http-recall.js';
import { machineInfo } from './machine.js';
import { quantile, textTable } from './stats.js';
import { inSessions, syntheticMemories } from './synthetic-memories.js';

const SIZE = 100_000;
const BATCH = 5_000;
const RUNS = 60;
/** Every this-many memories is pinned, and as many forgotten (archived): a few rows in 100k. */
const PINNED_EVERY = 1_000;
const ARCHIVED_EVERY = 1_000;
/** The activation log: sessions of this many turns, one receipt per turn. */
const SESSIONS = 2_000;
const TURNS = 10;
/** Memories injected per turn; the memory whose page is measured is one of them every this-many turns. */
const INJECTED_PER_TURN = 3;
const MEASURED_MEMORY_EVERY = 10;
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
    const { someId, deepId } = await buildDatabase(file, options.log);
    // Lexical: the pages measured never embed a query.
    const server = await startServer(file, { ENGRAM_EMBEDDING__PROVIDER: 'none', ENGRAM_DAEMON__ENABLED: 'false' });
    try {
      const cookie = await sessionCookie(server.url);
      const results: PageResult[] = [];
      for (const [page, href] of pagesToMeasure(someId, deepId)) {
        results.push(await measurePage(server.url, page, href, cookie));
        options.log(`inspector: ${page} measured`);
      }
      const machine = machineInfo();
      return {
        table: reportTable(results, machine),
        json: {
          benchmark: 'inspector',
          machine,
          memories: SIZE,
          sessions: SESSIONS,
          receipts: SESSIONS * TURNS,
          runs: RUNS,
          targetP50Ms: TARGET_P50_MS,
          pages: results,
        },
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** The pages measured, as `[name, path]`; the headline first. */
function pagesToMeasure(someId: string, deepId: string): [string, string][] {
  return [
    ['memories, first 50', '/memories'],
    ['memories, page at 50,000', `/memories?after=${deepId}`],
    ['memories, kind + tier', '/memories?kind=decision&tier=must'],
    ['memories, pinned', '/memories?flag=pinned'],
    ['memories, archived', '/memories?status=archived'],
    ['memories, search', '/memories?q=billing+service+PostgreSQL&mode=bm25'],
    ['one memory (with injections)', `/memories/${someId}`],
    ['sessions', '/sessions'],
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

/**
 * Stores the memories (no vectors, no graph), forgets one in `ARCHIVED_EVERY`, and writes the
 * activation log. Returns the id of a memory in the middle (injected often) and of the memory
 * the page at 50,000 continues from.
 */
async function buildDatabase(file: string, log: (line: string) => void): Promise<{ someId: string; deepId: string }> {
  const engram = await openEngram({ path: file, embedder: null, config: { graph: { extract: false } } });
  const ids: string[] = [];
  try {
    const memories = inSessions(syntheticMemories(SIZE, SIZE)).map((memory, i) => ({
      ...memory,
      pinned: i % PINNED_EVERY === 0,
    }));
    for (let start = 0; start < SIZE; start += BATCH) {
      const stored = await engram.rememberMany(memories.slice(start, start + BATCH));
      ids.push(...stored.map((memory) => memory.id));
      log(`inspector: ${Math.min(start + BATCH, SIZE)} memories`);
    }
    for (let i = ARCHIVED_EVERY / 2; i < SIZE; i += ARCHIVED_EVERY) await engram.forget(ids[i] as string);
  } finally {
    await engram.close();
  }
  const someId = ids[SIZE / 2] as string;
  await writeActivationLog(file, ids, someId);
  log(`inspector: ${SESSIONS * TURNS} receipts in ${SESSIONS} sessions`);
  // Newest first, the page at 50,000 starts after the 50,000th memory listed (archived ones are not).
  const live = ids.filter((_, i) => i % ARCHIVED_EVERY !== ARCHIVED_EVERY / 2).reverse();
  return { someId, deepId: live[49_999] as string };
}

/** Sessions of `TURNS` turns, each turn a receipt injecting `INJECTED_PER_TURN` memories. */
async function writeActivationLog(file: string, ids: readonly string[], someId: string): Promise<void> {
  const store = new SqliteStore(file);
  try {
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    let receipt = 0;
    for (let s = 0; s < SESSIONS; s++) {
      const sessionId = `session-${s}`;
      for (let turn = 1; turn <= TURNS; turn++, receipt++) {
        const at = new Date(start + receipt * 60_000).toISOString();
        const chosen = Array.from({ length: INJECTED_PER_TURN }, (_, k) =>
          k === 0 && receipt % MEASURED_MEMORY_EVERY === 0 ? someId : (ids[(receipt * 7 + k * 13) % ids.length] as string),
        );
        await store.recordActivation({
          receipt: syntheticReceipt({ id: `receipt-${receipt}`, sessionId, turn, at, chosen }),
          injected: chosen.map((memoryId) => ({ memoryId, turn, lane: 'hot' as const })),
          retrieved: [],
        });
      }
      const updatedAt = new Date(start + receipt * 60_000).toISOString();
      await store.saveSession({
        tenant: 'default',
        id: sessionId,
        scope: 'global',
        turn: TURNS,
        toolOnlyTurns: 0,
        recentAssistantMessages: [],
        lastRecall: null,
        startedAt: new Date(start + (receipt - TURNS) * 60_000).toISOString(),
        updatedAt,
        endedAt: null,
      });
    }
  } finally {
    await store.close();
  }
}

/** A receipt shaped as active recall writes one: the memories chosen, a few left out. */
function syntheticReceipt(fields: {
  id: string;
  sessionId: string;
  turn: number;
  at: string;
  chosen: readonly string[];
}): Receipt {
  const entry = (id: string, chosen: boolean) => ({
    id,
    kind: 'fact' as const,
    tier: 'nice' as const,
    outcome: chosen ? ('quota' as const) : ('below_threshold' as const),
    lane: chosen ? ('hot' as const) : null,
    preview: 'The billing service stores invoices in PostgreSQL',
    factors: null,
    diversityPenalty: 0,
    via: null,
  });
  return {
    id: fields.id,
    tenant: 'default',
    sessionId: fields.sessionId,
    turn: fields.turn,
    path: 'active',
    createdAt: fields.at,
    query: 'which database holds the billing invoices',
    selectionMode: 'tier_quota_v1',
    budget: { maxItems: 6, hotLane: 5, threshold: 0.6 },
    quota: { mustMax: 2, niceMin: 2, unknownMax: 1, wildcardUsed: 0, selected: { must: 0, nice: 3, unknown: 0 }, spilled: 0 },
    workingSet: { enabled: true, memoryId: null, itemIds: [] },
    chosen: fields.chosen.map((id) => entry(id, true)),
    leftOut: Array.from({ length: 8 }, (_, k) => entry(`left-out-${k}`, false)),
    suppressedByRepeat: [],
    pinnedByWorkingSet: [],
    excludedAsBackboneDuplicate: [],
    cooledDown: [],
    nearDuplicates: [],
    belowThreshold: 8,
    candidates: 11,
    whySummary: 'three nice memories within the quota',
    whyTheseIds: {},
    latencyMs: { embed: 8, search: 12, total: 24 },
  };
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
