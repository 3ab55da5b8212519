/**
 * Engram's internal records — the working set it keeps per scope, handoff notes, scratchpads
 * (`INTERNAL_KINDS`) — stay out of what a person reads as "the memories": lists, search and the
 * counts by kind, tier and scope, on every surface (the library, the CLI as a child process, the
 * HTTP API on a real port, the inspector's pages), unless asked for with `internal`, `--internal`,
 * `?internal=true` or a kinds filter that names them. The session pages tell the memories a
 * turn recalled apart from the ones the working set pinned.
 *
 * One real SQLite file, seeded with the local model so that recall writes a working set and
 * receipts; the readers that search embed with it too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type EngramStats, INTERNAL_KINDS } from '../src/entries/model.js';
import { createLocalEmbedder, type Kind, type Memory, openEngram, type SearchHit } from '../src/index.js';
import { type RunningHttpServer, startHttpServer } from '../src/surfaces/http/index.js';
import { dbIn, LEXICAL, makeTempDir, runJson, runOk } from './cli/helpers.js';
import { expectDocumented, send } from './http/helpers.js';
import { InspectorClient } from './web/helpers.js';

/** Engram's internal kinds, written out: what this file holds the code to. */
const INTERNAL = ['handoff', 'scratchpad', 'working_set'];
const internal = new Set<string>(INTERNAL);
const kindsOf = (memories: readonly Memory[]) => memories.map((memory) => memory.kind).sort();
const hitKinds = (hits: readonly SearchHit[]) => hits.map((hit) => hit.memory.kind).sort();

describe('Engram’s internal records in what a person reads', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let db: string;
  let ids: { workingSet: string; handoff: string; scratchpad: string; fact: string; rule: string };

  beforeAll(async () => {
    temp = makeTempDir();
    db = dbIn(temp.dir);
    const engram = await openEngram({ path: db, embedder: createLocalEmbedder() });
    try {
      const fact = await engram.remember({
        text: 'The billing service stores invoices in PostgreSQL 16',
        kind: 'fact',
        tier: 'nice',
      });
      const rule = await engram.remember({
        text: 'Never deploy the invoice service on Fridays',
        kind: 'constraint',
        tier: 'must',
        hardRule: true,
      });
      const session = engram.session({ id: 's1' });
      const tools = new Map(session.tools().map((tool) => [tool.name, tool]));
      await tools.get('write_session_handoff')?.execute({ content: 'Pick up the invoice export where it stopped' });
      await tools.get('scratch_note')?.execute({ mode: 'replace', content: 'invoice export: step 1, parse the rows' });
      await session.beforeTurn('Which database stores the billing invoices?');
      // A question nothing answers: the working set is still pinned, nothing is recalled.
      await session.beforeTurn('What colour is the office kettle?');
      const all = await engram.list({ internal: true });
      const idOf = (kind: Kind) => (all.find((memory) => memory.kind === kind) as Memory).id;
      ids = {
        workingSet: idOf('working_set'),
        handoff: idOf('handoff'),
        scratchpad: idOf('scratchpad'),
        fact: fact.id,
        rule: rule.id,
      };
    } finally {
      await engram.close();
    }
  }, 120_000);
  afterAll(() => temp?.remove());

  describe('the library', () => {
    it('names the internal kinds in one list', () => {
      expect([...INTERNAL_KINDS].sort()).toEqual(INTERNAL);
    });

    it('lists memories without the internal records, and with them when asked or named', async () => {
      const engram = await openEngram({ path: db, embedder: null });
      try {
        expect(kindsOf(await engram.list())).toEqual(['constraint', 'fact']);
        expect(kindsOf(await engram.list({ internal: true }))).toEqual([
          'constraint',
          'fact',
          'handoff',
          'scratchpad',
          'working_set',
        ]);
        expect((await engram.list({ kinds: ['handoff'] })).map((memory) => memory.id)).toEqual([ids.handoff]);
        expect(kindsOf(await engram.list({ kinds: ['fact', 'working_set'] }))).toEqual(['fact', 'working_set']);
      } finally {
        await engram.close();
      }
    });

    it('searches without the internal records, and with them when asked', async () => {
      // Search embeds the query with the model the file was indexed with.
      const engram = await openEngram({ path: db, embedder: createLocalEmbedder() });
      try {
        const plain = await engram.search({ query: 'invoice export', recordRetrieval: false });
        expect(plain.length).toBeGreaterThan(0);
        expect(plain.some((hit) => internal.has(hit.memory.kind))).toBe(false);
        const asked = await engram.search({ query: 'invoice export', internal: true, recordRetrieval: false });
        expect(hitKinds(asked)).toEqual(expect.arrayContaining(['handoff', 'scratchpad']));
        const named = await engram.search({ query: 'invoice export', kinds: ['scratchpad'], recordRetrieval: false });
        expect(named.map((hit) => hit.memory.id)).toEqual([ids.scratchpad]);
      } finally {
        await engram.close();
      }
    });

    it('counts by state, kind, tier and scope without the internal records, and says how many there are', async () => {
      const engram = await openEngram({ path: db, embedder: null });
      try {
        const stats = await engram.stats();
        expect(stats).toMatchObject({ live: 2, byKind: { fact: 1, constraint: 1 }, byTier: { must: 1, nice: 1 } });
        expect(Object.keys(stats.byKind).sort()).toEqual(['constraint', 'fact']);
        expect(stats.internal).toEqual({ live: 3, counted: false });

        const counted = await engram.stats({ internal: true });
        expect(counted).toMatchObject({
          live: 5,
          byKind: { fact: 1, constraint: 1, working_set: 1, handoff: 1, scratchpad: 1 },
          internal: { live: 3, counted: true },
        });
      } finally {
        await engram.close();
      }
    });
  });

  describe('the CLI', () => {
    // Search embeds the query with the local model the file was indexed with; the rest reads without it.
    const run = (args: string[]) => ({ cwd: temp.dir, env: args[0] === 'search' ? {} : LEXICAL, args: [...args, '--db', db] });
    const json = <T>(...args: string[]) => {
      const { cwd, env, args: full } = run(args);
      return runJson<T>(full, { cwd, env });
    };
    const text = (...args: string[]) => {
      const { cwd, env, args: full } = run(args);
      return runOk(full, { cwd, env });
    };

    it('engram list leaves the internal records out; --internal lists them; --kind names one', async () => {
      expect(kindsOf(await json<Memory[]>('list'))).toEqual(['constraint', 'fact']);
      const listed = await text('list');
      for (const id of [ids.workingSet, ids.handoff, ids.scratchpad]) expect(listed).not.toContain(id);
      expect(kindsOf(await json<Memory[]>('list', '--internal'))).toEqual([
        'constraint',
        'fact',
        'handoff',
        'scratchpad',
        'working_set',
      ]);
      expect((await json<Memory[]>('list', '--kind', 'working_set')).map((memory) => memory.id)).toEqual([ids.workingSet]);
    });

    it('engram search leaves the internal records out; --internal finds them', async () => {
      const plain = await json<SearchHit[]>('search', 'invoice', 'export');
      expect(plain.some((hit) => internal.has(hit.memory.kind))).toBe(false);
      expect(hitKinds(await json<SearchHit[]>('search', 'invoice', 'export', '--internal'))).toEqual(
        expect.arrayContaining(['handoff', 'scratchpad']),
      );
    });

    it('engram stats counts kinds without the internal records and says so; --internal counts them', async () => {
      const stats = await json<EngramStats>('stats');
      expect(Object.keys(stats.byKind).sort()).toEqual(['constraint', 'fact']);
      const screen = await text('stats');
      expect(screen).not.toMatch(/working_set|scratchpad \d|handoff \d/);
      // The memories' own vectors answer the embedding cache: it holds no second copy of them.
      expect(screen).toMatch(/vectors +\d+ indexed, which the embedding cache reads first; 0 other texts cached/);
      expect(screen).toMatch(
        /internal +3 live internal records \(working sets, handoff notes, scratchpads\), left out of the counts: --internal counts them/,
      );
      expect((await json<EngramStats>('stats', '--internal')).byKind).toMatchObject({
        working_set: 1,
        handoff: 1,
        scratchpad: 1,
      });
      expect(await text('stats', '--internal')).toMatch(/by kind +.*working_set 1/);
    });
  });

  describe('the HTTP API and the inspector', () => {
    let server: RunningHttpServer;
    let browser: InspectorClient;
    beforeAll(async () => {
      server = await startHttpServer({
        openEngine: (tenant) => openEngram({ path: db, tenant, embedder: createLocalEmbedder() }),
        port: 0,
        log: () => undefined,
      });
      browser = new InspectorClient(server.url);
    });
    afterAll(() => server?.close());

    it('GET /v1/memories leaves the internal records out unless ?internal=true or ?kind= names them', async () => {
      const plain = expectDocumented<{ memories: Memory[] }>(
        await send(server.url, 'GET', '/v1/memories'),
        'get',
        '/v1/memories',
      );
      expect(kindsOf(plain.memories)).toEqual(['constraint', 'fact']);
      const asked = expectDocumented<{ memories: Memory[] }>(
        await send(server.url, 'GET', '/v1/memories?internal=true'),
        'get',
        '/v1/memories',
      );
      expect(kindsOf(asked.memories)).toEqual(['constraint', 'fact', 'handoff', 'scratchpad', 'working_set']);
      const named = await send<{ memories: Memory[] }>(server.url, 'GET', '/v1/memories?kind=handoff');
      expect(named.body.memories.map((memory) => memory.id)).toEqual([ids.handoff]);
    });

    it('POST /v1/search leaves them out unless the body says internal: true', async () => {
      const query = { query: 'invoice export', recordRetrieval: false };
      const plain = await send<{ hits: SearchHit[] }>(server.url, 'POST', '/v1/search', { body: query });
      expect(plain.status).toBe(200);
      expect(plain.body.hits.some((hit) => internal.has(hit.memory.kind))).toBe(false);
      const asked = await send<{ hits: SearchHit[] }>(server.url, 'POST', '/v1/search', { body: { ...query, internal: true } });
      expect(hitKinds(asked.body.hits)).toEqual(expect.arrayContaining(['handoff', 'scratchpad']));
    });

    it('GET /v1/stats counts without them, says how many there are, and counts them with ?internal=true', async () => {
      const plain = expectDocumented<EngramStats>(await send(server.url, 'GET', '/v1/stats'), 'get', '/v1/stats');
      expect(Object.keys(plain.byKind).sort()).toEqual(['constraint', 'fact']);
      expect(plain.internal).toEqual({ live: 3, counted: false });
      const asked = expectDocumented<EngramStats>(await send(server.url, 'GET', '/v1/stats?internal=true'), 'get', '/v1/stats');
      expect(asked.byKind).toMatchObject({ working_set: 1, handoff: 1, scratchpad: 1 });
      expect(asked.internal).toEqual({ live: 3, counted: true });
    });

    it('the memories page lists and searches without them, and the Internal records filter shows them', async () => {
      const listed = (await browser.get('/memories')).text;
      expect(listed).toContain(ids.fact);
      for (const id of [ids.workingSet, ids.handoff, ids.scratchpad]) expect(listed).not.toContain(`href="/memories/${id}"`);
      expect(listed).toContain('Engram’s internal records (working sets, handoff notes, scratchpads) are not listed');
      const shown = (await browser.get('/memories?internal=true')).text;
      for (const id of [ids.workingSet, ids.handoff, ids.scratchpad]) expect(shown).toContain(`href="/memories/${id}"`);
      const searched = (await browser.get('/memories?q=invoice+export')).text;
      for (const id of [ids.handoff, ids.scratchpad]) expect(searched).not.toContain(`href="/memories/${id}"`);
      const searchedAll = (await browser.get('/memories?q=invoice+export&internal=true')).text;
      for (const id of [ids.handoff, ids.scratchpad]) expect(searchedAll).toContain(`href="/memories/${id}"`);
      // Their own pages still show them.
      expect((await browser.get('/working-set')).text).toContain(ids.workingSet);
      const notes = (await browser.get('/notes')).text;
      expect(notes).toContain('Pick up the invoice export where it stopped');
      expect(notes).toContain('invoice export: step 1, parse the rows');
    });

    it('the stats page counts kinds without them, and counts them on request', async () => {
      const plain = (await browser.get('/stats')).text;
      expect(plain).not.toContain('working_set: 1');
      expect(plain).toContain('<title>fact: 1</title>');
      expect(plain).toMatch(/3 live \(working sets, handoff notes, scratchpads\), not counted here/);
      const counted = (await browser.get('/stats?internal=true')).text;
      expect(counted).toContain('<title>working_set: 1</title>');
      expect(counted).toMatch(/counted here/);
    });

    it('a session page tells the memories a turn recalled from the ones the working set pinned', async () => {
      const page = (await browser.get('/sessions/s1')).text;
      expect(page).not.toMatch(/>Injected</);
      const cells = (turn: number) => {
        const row = new RegExp(`<tr><td class="num"><a href="[^"]+turn=${turn}">${turn}</a></td>(.*?)</tr>`).exec(page);
        return [...(row?.[1] ?? '').matchAll(/<td class="num">([^<]*)<\/td>/g)].map((match) => match[1]);
      };
      // Recalled, pinned, left out: the first turn recalled the invoice fact beside the pinned rule.
      expect(cells(1).slice(0, 2)).toEqual(['1', '1']);
      expect(cells(2).slice(0, 2)).toEqual(['0', '1']);
      expect(page).toContain('title="Memories carried by the working set');
      const sessions = (await browser.get('/sessions')).text;
      expect(sessions).toMatch(/<td class="num">1<\/td><td class="num">2<\/td>/);
    });
  });
});
