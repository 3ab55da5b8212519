/**
 * The ordering contract (docs/search.md#the-numbers-and-the-order): every hit list is ordered by
 * the number it shows, and the numbers obey the documented formula. Checked over generated stores
 * and queries — names the graph knows and none, graph on and off, every mode, with and without
 * the cooldown — in the library, and for one store on every surface: the CLI (text and --json),
 * the HTTP API, the MCP tool over /mcp, the inspector's search page and active recall's receipts.
 * The real local model throughout: the fused order needs vectors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { IMPORTANCE_PRIOR } from '../src/activation/priors.js';
import {
  createLocalEmbedder,
  type Embedder,
  type Engram,
  manualClock,
  type MemoryInput,
  openEngram,
  type Receipt,
  type SearchHit,
} from '../src/index.js';
import { calibrate, saturatedBm25 } from '../src/retrieval/calibration.js';
import { fusedRelevance } from '../src/retrieval/fused-relevance.js';
import { shiftRelevance } from '../src/retrieval/store-calibration.js';
import { type RunningHttpServer, startHttpServer } from '../src/surfaces/http/index.js';
import { dbIn, makeTempDir, runOk } from './cli/helpers.js';
import { seededRandom } from './fixtures/random.js';
import { connectHttp } from './mcp/helpers.js';

const NOW = '2026-06-01T00:00:00.000Z';
const NAMES = ['Alice', 'Bob', 'Caroline', 'Dmitri', 'Elena'];
const PLACES = ['Lisbon', 'the harbour', 'the library', 'Kyoto', 'the mountains'];
const THINGS = ['short answers', 'PostgreSQL for billing', 'green tea', 'the blue bicycle', 'jazz records', 'early deploys'];
const SCOPES = ['global', 'user:alice', 'project:x'];
const KINDS = ['fact', 'preference', 'decision', 'note', 'episode'] as const;
const TIERS = ['must', 'nice', 'unknown'] as const;

/** Search options that vary the formula's every part. */
const VARIANTS = [
  {},
  { graph: false },
  { fusion: 'rrf' as const },
  { mode: 'bm25' as const },
  { mode: 'dense' as const },
  { mode: 'keyword' as const },
  { cooldown: true },
  { scopes: ['project:x', 'user:alice', 'global'] },
];

/** A store's worth of memories: names said and named, places, things, in sessions and scopes, over two years. */
function generateStore(seed: number, count: number): MemoryInput[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: count }, (_, i): MemoryInput => {
    const who = pick(NAMES);
    const text = [
      () => `${who} said, "I went to ${pick(PLACES)} last week and loved it."`,
      () => `${who} prefers ${pick(THINGS)}.`,
      () => `We chose ${pick(THINGS)} after talking to ${who}.`,
      () => `${who} said, "Do you still have ${pick(THINGS)}?"`,
      () => `The team met at ${pick(PLACES)} to talk about ${pick(THINGS)}.`,
    ][Math.floor(random() * 5)]!();
    const days = Math.floor(random() * 730);
    return {
      text,
      kind: pick(KINDS),
      tier: pick(TIERS),
      scope: pick(SCOPES),
      sessionId: random() < 0.6 ? `s${Math.floor(random() * 4)}` : null,
      occurredAt: new Date(Date.parse(NOW) - days * 86_400_000 - i * 60_000).toISOString(),
    };
  });
}

/** Questions with and without a known name, quoted phrases among them. */
function generateQueries(seed: number, count: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const fixed = ['who is Caroline', 'what does Alice prefer', 'which database for billing', '"green tea"', 'jazz'];
  return [
    ...fixed,
    ...Array.from({ length: count }, () =>
      [
        () => `When did ${pick(NAMES)} go to ${pick(PLACES)}?`,
        () => `what does ${pick(NAMES)} think of ${pick(THINGS)}`,
        () => `${pick(THINGS)}`,
        () => `where did the team meet about ${pick(THINGS)}`,
      ][Math.floor(random() * 4)]!(),
    ),
  ];
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** Hits are ordered by score, which is relevance × recency × scope × exact, with relevance as the mode defines it. */
function expectContract(hits: readonly SearchHit[], options: { mode?: string; fusion?: string }, label: string): void {
  hits.forEach((hit, i) => {
    const where = `${label}: hit ${i + 1} (${hit.memory.text})`;
    const { recency, scope, exact, cooldown } = hit.factors;
    if (i > 0) expect(hit.score, `${where} ranks below a lower score`).toBeLessThanOrEqual(hits[i - 1]!.score);
    expect(close(hit.score, hit.relevance * recency * scope * exact), `${where}: score is not relevance × factors`).toBe(true);
    expect(hit.relevance, where).toBeGreaterThanOrEqual(0);
    expect(hit.relevance, where).toBeLessThanOrEqual(1);
    const expected = documentedRelevance(hit, options);
    if (expected !== null) {
      expect(
        close(hit.relevance, shiftRelevance(expected, hit.storeShift) * cooldown),
        `${where}: relevance off the formula`,
      ).toBe(true);
    }
  });
}

/** The relevance docs/search.md gives a hit before the store's shift and the cooldown; null where it needs the lists' ranks (reciprocal-rank fusion). */
function documentedRelevance(hit: SearchHit, options: { mode?: string; fusion?: string }): number | null {
  const fused = hit.signals.fused;
  if (fused !== null) return fusedRelevance(fused.score, fused);
  switch (options.mode ?? 'hybrid') {
    case 'bm25':
      expect(close(hit.raw, saturatedBm25(hit.signals.bm25))).toBe(true);
      return hit.raw;
    case 'dense':
      expect(close(hit.raw, Math.max(0, hit.signals.cosine ?? 0))).toBe(true);
      return hit.raw;
    case 'keyword':
      expect(close(hit.raw, hit.signals.keyword)).toBe(true);
      return hit.raw;
    default:
      return options.fusion === 'rrf' ? null : calibrate(hit.raw);
  }
}

/** A receipt's lists are ordered by score, each score the product of its factors (seed 002). */
function expectReceiptContract(receipt: Receipt): void {
  const scored = (entries: Receipt['chosen']) => entries.filter((entry) => entry.factors !== null);
  for (const list of [scored(receipt.chosen), scored(receipt.leftOut)]) {
    list.forEach((entry, i) => {
      const f = entry.factors!;
      if (i > 0) expect(f.score).toBeLessThanOrEqual(list[i - 1]!.factors!.score);
      expect(close(f.effectiveRelevance, f.relevance * f.cooldown)).toBe(true);
      const product = f.effectiveRelevance * f.scope * f.recency * f.importance * f.novelty * f.repeat * f.exact;
      expect(close(f.score, product), `${entry.id}: score is not the product of its factors`).toBe(true);
      expect(f.importance).toBe(IMPORTANCE_PRIOR[entry.tier]);
    });
  }
}

describe('the ordering contract', () => {
  let embedder: Embedder;
  const temp = makeTempDir();

  beforeAll(() => {
    embedder = createLocalEmbedder();
  });
  afterAll(async () => {
    await embedder.close?.();
    temp.remove();
  });

  it.each([11, 23])('holds in the library over a generated store and its queries (seed %i)', async (seed) => {
    const engram = await openEngram({ path: dbIn(temp.dir, `generated-${seed}.db`), embedder, clock: manualClock(NOW) });
    try {
      await engram.rememberMany(generateStore(seed, 60));
      let fused = 0;
      for (const query of generateQueries(seed + 1, 8)) {
        for (const variant of VARIANTS) {
          const hits = await engram.search({ query, limit: 30, ...variant });
          expectContract(hits, variant, `${query} ${JSON.stringify(variant)}`);
          if (hits.some((hit) => hit.signals.fused !== null)) fused++;
        }
      }
      // The generated questions do reach the fused order, or the test would not test it.
      expect(fused).toBeGreaterThan(5);
    } finally {
      await engram.close();
    }
  });

  describe('on every surface, for one store', () => {
    const file = dbIn(temp.dir, 'surfaces.db');
    const queries = ['who is Caroline', 'what does Alice prefer', 'which database for billing', 'jazz records'];
    let engram: Engram;
    let server: RunningHttpServer;

    beforeAll(async () => {
      engram = await openEngram({ path: file, embedder, clock: manualClock(NOW) });
      await engram.rememberMany(generateStore(5, 60));
      server = await startHttpServer({ openEngine: async () => engram, port: 0, log: () => undefined });
    });
    afterAll(async () => {
      await server.close();
    });

    it('the CLI prints the scores of its --json hits, in order', async () => {
      // Two queries, one naming an entity the graph knows: each CLI process loads the model.
      for (const query of queries.slice(0, 2)) {
        const run = { cwd: temp.dir };
        const json = JSON.parse(await runOk(['search', query, '--db', file, '--json'], run)) as SearchHit[];
        expectContract(json, {}, `engram search ${query} --json`);
        const text = await runOk(['search', query, '--db', file], run);
        const printed = [...text.matchAll(/^ *\d+\. (\d+\.\d\d) /gm)].map((match) => match[1]);
        expect(printed, text).toEqual(json.map((hit) => hit.score.toFixed(2)));
        const numbers = printed.map(Number);
        expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
      }
    });

    it('the HTTP API returns hits in score order, each on the formula', async () => {
      for (const query of queries) {
        const reply = await fetch(`${server.url}/v1/search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, recordRetrieval: false }),
        });
        const { hits } = (await reply.json()) as { hits: SearchHit[] };
        expect(hits.length).toBeGreaterThan(0);
        expectContract(hits, {}, `POST /v1/search ${query}`);
      }
    });

    it('the MCP tool search_memory lists by the score it shows, the library hit behind each', async () => {
      const { client, transport } = await connectHttp(`${server.url}/mcp`);
      try {
        for (const query of queries) {
          // What an MCP session sees: its scopes (the server's default scope), the cooldown on.
          const scopes = engram.session({ id: 'mcp-view', scope: 'global' }).scopes;
          const library = await engram.search({ query, limit: 10, scopes, cooldown: true, recordRetrieval: false });
          const reply = await client.callTool({ name: 'search_memory', arguments: { query } });
          const content = (reply.content as { type: string; text: string }[])[0];
          const { results } = JSON.parse(content?.text ?? '{}') as {
            results: { id: string; score: number; relevance: number }[];
          };
          expect(results.map((r) => r.id)).toEqual(library.map((hit) => hit.memory.id));
          results.forEach((result, i) => {
            if (i > 0) expect(result.score).toBeLessThanOrEqual(results[i - 1]!.score);
            expect(result.score).toBeCloseTo(library[i]!.score, 3);
            expect(result.relevance).toBeCloseTo(library[i]!.relevance, 3);
          });
        }
      } finally {
        await transport.close();
      }
    });

    it("the inspector's search page shows each hit's score, in order", async () => {
      for (const query of queries) {
        const page = await (await fetch(`${server.url}/memories?q=${encodeURIComponent(query)}`)).text();
        const shown = [...page.matchAll(/<td class="num">(\d+\.\d\d)<\/td>/g)].map((match) => match[1]);
        const hits = await engram.search({ query, limit: shown.length, recordRetrieval: false });
        expect(shown.length).toBeGreaterThan(0);
        expect(shown).toEqual(hits.map((hit) => hit.score.toFixed(2)));
      }
    });

    it("active recall's receipts list candidates by score, each the product of its factors", async () => {
      const session = engram.session({ id: 'contract', scope: 'user:alice' });
      for (const query of [...queries, ...queries]) {
        const { receipt } = await session.beforeTurn(query);
        expect(receipt).not.toBeNull();
        expectReceiptContract(receipt!);
      }
      const printed = await runOk(['receipts', '--session', 'contract', '--db', file], { cwd: temp.dir });
      expect(printed).toMatch(/score \d\.\d\d/);
    });
  });
});
