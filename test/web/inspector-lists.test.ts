/**
 * The inspector's lists over a real port, without a browser: the memory filters and cursor
 * pages the engine answers (`engram.list`), the sessions list (`engram.sessions`), a memory's
 * injections (`engram.injections`) and stored mentions (`engram.mentions`), and restore in
 * place (`engram.restore`), which keeps the memory's id and vector.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createLocalEmbedder, type Engram, manualClock, type Memory, openEngram } from '../../src/index.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { type RunningHttpServer, startHttpServer } from '../../src/surfaces/http/index.js';
import { dbIn, makeTempDir } from '../cli/helpers.js';
import { send } from '../http/helpers.js';
import { csrfTokenIn, InspectorClient } from './helpers.js';

/** The memory ids a page lists, in order. */
function listedIds(page: string): string[] {
  return [...page.matchAll(/class="id" href="\/memories\/([^"]+)"/g)].map((match) => match[1] as string);
}

/** The href of the link whose text is `text` (HTML-decoded). */
function linkTo(page: string, text: string): string {
  const match = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(page);
  if (!match) throw new Error(`no link "${text}" on the page`);
  return (match[1] as string).replaceAll('&amp;', '&');
}

describe('the inspector’s lists, from the engine', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let server: RunningHttpServer;
  let browser: InspectorClient;
  let engram: Engram | undefined;
  const clock = manualClock(new Date('2026-03-01T09:00:00.000Z'));
  const tick = () => clock.advance(1000);

  /**
   * The engine that writes a test's memories, in this process: lexical, or with the local model
   * where recall must write receipts (active recall needs vectors). The server reads the file.
   */
  async function seeder(options: { model: boolean }): Promise<Engram> {
    engram = await openEngram({ path: dbIn(temp.dir), embedder: options.model ? createLocalEmbedder() : null, clock });
    return engram;
  }

  beforeEach(async () => {
    temp = makeTempDir();
    server = await startHttpServer({
      openEngine: (tenant) => openEngram({ path: dbIn(temp.dir), tenant, embedder: null, clock }),
      port: 0,
      log: () => undefined,
    });
    browser = new InspectorClient(server.url);
  });
  afterEach(async () => {
    await server.close();
    await engram?.close();
    engram = undefined;
    temp.remove();
  });

  /** The engine that wrote this test's memories. */
  const writer = (): Engram => engram as Engram;

  /** Stores `count` memories, one second apart, and returns them oldest first. */
  async function rememberRun(count: number, fields: (i: number) => Record<string, unknown> = () => ({})): Promise<Memory[]> {
    const writer = engram ?? (await seeder({ model: false }));
    const stored: Memory[] = [];
    for (let i = 0; i < count; i++) {
      tick();
      stored.push(await writer.remember({ text: `routine note number ${i}`, ...fields(i) }));
    }
    return stored;
  }

  it('lists only pinned, hard-rule, archived or superseded memories, however far back they are', async () => {
    const stored = await rememberRun(120, (i) => ({ pinned: i % 40 === 0, hardRule: i === 7 }));
    const first = stored[0] as Memory;
    await writer().forget((stored[1] as Memory).id);
    const replaced = await writer().remember({ text: 'the newer note', supersedes: (stored[2] as Memory).id });
    const newestFirst = (memories: Memory[]) => memories.map((memory) => memory.id).reverse();

    expect(listedIds((await browser.get('/memories?flag=pinned')).text)).toEqual(
      newestFirst(stored.filter((_, i) => i % 40 === 0)),
    );
    expect(listedIds((await browser.get('/memories?flag=hard_rule')).text)).toEqual([(stored[7] as Memory).id]);
    expect(listedIds((await browser.get('/memories?status=archived')).text)).toEqual([(stored[1] as Memory).id]);
    expect(listedIds((await browser.get('/memories?status=superseded')).text)).toEqual([(stored[2] as Memory).id]);
    expect(listedIds((await browser.get('/memories?flag=pinned&status=archived')).text)).toEqual([]);
    expect(listedIds((await browser.get('/memories')).text)[0]).toBe(replaced.id);
    expect(listedIds((await browser.get('/memories?status=all&flag=pinned')).text).at(-1)).toBe(first.id);
  });

  it('pages 50 at a time from the last memory shown, and back from the first', async () => {
    const stored = (await rememberRun(120)).map((memory) => memory.id).reverse();

    const first = (await browser.get('/memories')).text;
    expect(listedIds(first)).toEqual(stored.slice(0, 50));
    expect(first).not.toContain('← newer');
    const olderHref = linkTo(first, 'older →');
    expect(olderHref).toBe(`/memories?after=${stored[49]}`);

    const second = (await browser.get(olderHref)).text;
    expect(listedIds(second)).toEqual(stored.slice(50, 100));
    const third = (await browser.get(linkTo(second, 'older →'))).text;
    expect(listedIds(third)).toEqual(stored.slice(100));
    expect(third).not.toContain('older →');

    const backToSecond = (await browser.get(linkTo(third, '← newer'))).text;
    expect(listedIds(backToSecond)).toEqual(stored.slice(50, 100));
    const backToFirst = (await browser.get(linkTo(backToSecond, '← newer'))).text;
    expect(listedIds(backToFirst)).toEqual(stored.slice(0, 50));
    expect(backToFirst).not.toContain('← newer');
    expect(listedIds((await browser.get(linkTo(third, '« first'))).text)).toEqual(stored.slice(0, 50));
  });

  it('keeps the filters on the next page', async () => {
    const stored = await rememberRun(130, (i) => ({ pinned: i % 2 === 0 }));
    const pinned = stored
      .filter((_, i) => i % 2 === 0)
      .map((memory) => memory.id)
      .reverse();

    const first = (await browser.get('/memories?flag=pinned')).text;
    expect(listedIds(first)).toEqual(pinned.slice(0, 50));
    const second = (await browser.get(linkTo(first, 'older →'))).text;
    expect(listedIds(second)).toEqual(pinned.slice(50));
  });

  it('answers a page from a memory that no longer exists with a 400 that says to start again', async () => {
    const [gone] = await rememberRun(3);
    await writer().forget((gone as Memory).id, { hard: true });
    const reply = await browser.get(`/memories?after=${(gone as Memory).id}`);
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('start again from the first page');
  });

  it('lists sessions most recently active first, with their turns counted, 50 to a page', async () => {
    const engram = await seeder({ model: true });
    const [note] = await rememberRun(1, () => ({ text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must' }));
    for (let i = 0; i < 52; i++) {
      tick();
      await engram.session({ id: `s${String(i).padStart(2, '0')}` }).start();
    }
    tick();
    const busy = engram.session({ id: 's00' });
    await busy.beforeTurn('Which database holds the billing invoices?');
    tick();
    await busy.beforeTurn('And the billing database again?');

    const first = (await browser.get('/sessions')).text;
    const sessionIds = (page: string) => [...page.matchAll(/<a href="\/sessions\/([^"]+)">/g)].map((match) => match[1]);
    expect(sessionIds(first).slice(0, 3)).toEqual(['s00', 's51', 's50']);
    expect(sessionIds(first)).toHaveLength(50);
    expect(first).toMatch(/s00<\/a><\/td><td>global<\/td><td class="num">2<\/td><td class="num">2<\/td>/);
    const second = (await browser.get(linkTo(first, 'older →'))).text;
    expect(sessionIds(second)).toEqual(['s02', 's01']);
    expect(second).not.toContain('older →');

    const memoryPage = (await browser.get(`/memories/${(note as Memory).id}`)).text;
    expect(memoryPage).toContain('<a href="/receipts?session=s00&amp;turn=2">2</a>');
    expect(memoryPage).toContain('<a href="/receipts?session=s00&amp;turn=1">1</a>');
    expect(memoryPage.indexOf('turn=2')).toBeLessThan(memoryPage.indexOf('turn=1"'));
  });

  it('pages a memory’s injections, the latest first', async () => {
    const engram = await seeder({ model: true });
    const [note] = await rememberRun(1, () => ({ text: 'The deploy freeze starts on December 20', pinned: true }));
    const session = engram.session({ id: 'long' });
    for (let turn = 1; turn <= 25; turn++) {
      tick();
      await session.beforeTurn(`turn ${turn}: when does the deploy freeze start?`);
    }
    const turnsOn = (page: string) => [...page.matchAll(/session=long&amp;turn=(\d+)/g)].map((match) => Number(match[1]));

    const first = (await browser.get(`/memories/${(note as Memory).id}`)).text;
    expect(turnsOn(first)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
    const second = (await browser.get(linkTo(first, 'earlier →'))).text;
    expect(turnsOn(second)).toEqual([5, 4, 3, 2, 1]);
    expect(second).toContain('← later');
  });

  it('shows the entities a memory’s stored mentions name, none once forgotten, and them again once restored', async () => {
    const engram = await seeder({ model: false });
    const memory = await engram.remember('Alice Cooper joined Acme Corporation in Paris');
    const mentions = async () => (await browser.get(`/memories/${memory.id}`)).text.split('<h2>Mentions</h2>')[1] ?? '';
    const named = await engram.mentions(memory.id);
    expect(named.map((entity) => entity.name)).toEqual(expect.arrayContaining(['Alice Cooper', 'Paris']));
    for (const entity of named) expect(await mentions()).toContain(`>${entity.name}</a>`);

    await engram.forget(memory.id);
    expect(await engram.mentions(memory.id)).toEqual([]);
    expect(await mentions()).toContain('It names no entity');

    const _csrf = csrfTokenIn((await browser.get(`/memories/${memory.id}`)).text);
    expect((await browser.post(`/memories/${memory.id}/restore`, { _csrf })).status).toBe(303);
    expect((await engram.mentions(memory.id)).map((entity) => entity.name).sort()).toEqual(
      named.map((entity) => entity.name).sort(),
    );
  });
});

describe('restoring a memory in place', () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeEach(() => {
    temp = makeTempDir();
  });
  afterEach(() => temp.remove());

  it('keeps its id and its vector through a server without an embedder, and is found by meaning again', async () => {
    const model = createLocalEmbedder();
    let embedded = 0;
    const counting = {
      ...model,
      id: model.id,
      dimensions: model.dimensions,
      embed: (texts: readonly string[]) => {
        embedded += texts.length;
        return model.embed(texts);
      },
    };
    const store = new SqliteStore(dbIn(temp.dir));
    const engram = await openEngram({ store, embedder: counting });
    const server = await startHttpServer({
      // The server has no embedder at all: restoring needs none.
      openEngine: (tenant) => openEngram({ path: dbIn(temp.dir), tenant, embedder: null }),
      port: 0,
      log: () => undefined,
    });
    try {
      const memory = await engram.remember('Our invoices are stored in PostgreSQL');
      await engram.remember('The office plants are watered on Mondays');
      const vector = (await store.getVectors(memory.tenant, [memory.id])).get(memory.id);
      expect(vector).toBeDefined();
      const before = await engram.search({ query: 'which database keeps the bills', recordRetrieval: false });
      expect(before[0]?.memory.id).toBe(memory.id);

      expect((await send(server.url, 'DELETE', `/v1/memories/${memory.id}`)).status).toBe(200);
      expect((await engram.search('which database keeps the bills')).map((hit) => hit.memory.id)).not.toContain(memory.id);
      const calls = embedded;
      const restored = await send<{ memory: Memory }>(server.url, 'POST', `/v1/memories/${memory.id}/restore`);

      expect(restored.status).toBe(200);
      expect(restored.body.memory).toEqual({ ...memory, updatedAt: expect.any(String) });
      expect(embedded).toBe(calls);
      expect((await store.getVectors(memory.tenant, [memory.id])).get(memory.id)).toEqual(vector);
      const after = await engram.search({ query: 'which database keeps the bills', recordRetrieval: false });
      expect(after[0]?.memory.id).toBe(memory.id);
      expect(after[0]?.relevance).toBeCloseTo(before[0]?.relevance as number, 6);
    } finally {
      await server.close();
      await engram.close();
    }
  });

  it('refuses over HTTP to restore a memory whose key a live memory now holds, and says which', async () => {
    const engram = await openEngram({ path: dbIn(temp.dir), embedder: null });
    const server = await startHttpServer({
      openEngine: (tenant) => openEngram({ path: dbIn(temp.dir), tenant, embedder: null }),
      port: 0,
      log: () => undefined,
    });
    try {
      const first = await engram.remember({ text: 'Deploys go out on Tuesdays', key: 'deploy-day' });
      await engram.forget(first.id);
      const second = await engram.remember({ text: 'Deploys go out on Wednesdays', key: 'deploy-day' });
      const refused = await send<{ error: { code: string; message: string } }>(
        server.url,
        'POST',
        `/v1/memories/${first.id}/restore`,
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toContain(`memory ${second.id} now holds the key deploy-day in global`);
      expect((await engram.get(first.id))?.archivedAt).not.toBeNull();
      expect((await send(server.url, 'POST', '/v1/memories/01NOSUCHMEMORY/restore')).status).toBe(404);
    } finally {
      await server.close();
      await engram.close();
    }
  });
});
