/**
 * What EngramStore adds beyond the shared contract: the text Engram indexes for an item (the
 * store's `index.fields`, a put's `index`), search over several namespaces under a prefix as
 * peers, a query with a filter and pages, listings longer than one read, memories other programs
 * keep in the same scopes, and the scope a namespace lives in for Engram's own recall.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, manualClock, openEngram } from '../src/index.js';
import { EngramStore, type EngramStoreOptions, scopeOfNamespace } from '../src/surfaces/langgraph/index.js';

let directory: string;
const engines: Engram[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-langgraph-search-'));
});
afterEach(async () => {
  for (const engram of engines.splice(0)) await engram.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Omit<EngramStoreOptions, 'engram'> = {}, { embedder = false } = {}) {
  const engram = await openEngram({
    path: path.join(directory, `store-${engines.length}.db`),
    clock: manualClock('2026-03-01T09:00:00Z'),
    ...(embedder ? {} : { embedder: null }),
  });
  engines.push(engram);
  return { engram, store: new EngramStore({ engram, ...options }) };
}

/** The text Engram keeps (and indexes) for the item. */
async function indexedText(engram: Engram, namespace: string[], key: string): Promise<string | undefined> {
  return (await engram.getByKey(key, scopeOfNamespace(namespace)))?.text;
}

const report = {
  title: 'Quarterly report',
  body: 'Revenue grew in every region',
  chapters: [{ content: 'Sales' }, { content: 'Costs' }],
  pages: 12,
};

describe('the text Engram indexes for an item', () => {
  it('is every string of the value by default, the fields the store names, or the fields a put names', async () => {
    const byDefault = await open();
    await byDefault.store.put(['docs'], 'r', report);
    expect(await indexedText(byDefault.engram, ['docs'], 'r')).toBe(
      'Quarterly report\nRevenue grew in every region\nSales\nCosts',
    );

    const titled = await open({ index: { fields: ['title', 'chapters[*].content'] } });
    await titled.store.put(['docs'], 'r', report);
    expect(await indexedText(titled.engram, ['docs'], 'r')).toBe('Quarterly report\nSales\nCosts');
    await titled.store.put(['docs'], 'r2', report, ['body']);
    expect(await indexedText(titled.engram, ['docs'], 'r2')).toBe('Revenue grew in every region');
    await titled.store.put(['docs'], 'r3', report, false);
    expect(await indexedText(titled.engram, ['docs'], 'r3')).toBe('r3');
  });

  it('is what a query finds the item by: words outside the indexed fields find nothing', async () => {
    const { store } = await open({ index: { fields: ['title'] } });
    await store.put(['docs'], 'r', report);
    expect((await store.search(['docs'], { query: 'quarterly' })).map((item) => item.key)).toEqual(['r']);
    expect(await store.search(['docs'], { query: 'revenue region' })).toEqual([]);
    expect((await store.get(['docs'], 'r'))?.value).toEqual(report);
  });

  it('keeps items as memories of the store’s kind, written by the agent', async () => {
    const { engram, store } = await open({ kind: 'fact' });
    await store.put(['docs'], 'r', report);
    expect(await engram.getByKey('r', scopeOfNamespace(['docs']))).toMatchObject({ kind: 'fact', source: 'agent', data: report });
  });
});

describe('search with a query', () => {
  it('ranks namespaces under a prefix as peers: the same text scores the same in each', async () => {
    const { store } = await open({}, { embedder: true });
    const text = { text: 'The deploy runs every Tuesday at noon' };
    await store.put(['team'], 'deploy', text);
    await store.put(['team', 'ops'], 'deploy', text);
    await store.put(['team', 'ops', 'night'], 'deploy', text);
    await store.put(['team', 'ops'], 'lunch', { text: 'Lunch is served in the canteen' });
    const found = await store.search(['team'], { query: 'when is the deploy?' });
    expect(
      found
        .map((item) => item.namespace.join('/'))
        .slice(0, 3)
        .sort(),
    ).toEqual(['team', 'team/ops', 'team/ops/night']);
    const [a, b, c] = found.map((item) => item.score as number);
    expect(a).toBeCloseTo(b as number, 10);
    expect(b).toBeCloseTo(c as number, 10);
    expect(found[3]?.key).toBe('lunch');
  });

  it('filters the ranked items, and pages through them in rank order', async () => {
    const { store } = await open({}, { embedder: true });
    const notes = [
      ['n1', 'Tea is best brewed at eighty degrees', 'drink'],
      ['n2', 'Green tea has less caffeine than coffee', 'drink'],
      ['n3', 'The cat sleeps on the sofa', 'pet'],
      ['n4', 'Oolong tea comes from Taiwan', 'drink'],
      ['n5', 'Black tea is fully oxidised', 'drink'],
    ] as const;
    for (const [key, text, topic] of notes) await store.put(['notes'], key, { text, topic });
    const query = 'tell me about tea';
    const drinks = await store.search(['notes'], { query, filter: { topic: 'drink' }, limit: 10 });
    expect(drinks.map((item) => item.key).sort()).toEqual(['n1', 'n2', 'n4', 'n5']);
    const pages = [
      await store.search(['notes'], { query, filter: { topic: 'drink' }, limit: 2, offset: 0 }),
      await store.search(['notes'], { query, filter: { topic: 'drink' }, limit: 2, offset: 2 }),
    ];
    expect(pages.flat().map((item) => item.key)).toEqual(drinks.map((item) => item.key));
    expect(await store.search(['notes'], { query, filter: { topic: 'fish' } })).toEqual([]);
  });

  it('reads past Engram’s first answer when the filter keeps few of the best hits', async () => {
    const { engram, store } = await open();
    // 60 items all about tea; only the two least relevant pass the filter.
    await engram.rememberMany(
      Array.from({ length: 60 }, (_, i) => ({
        text: i < 58 ? `tea tea tea note ${i}` : `a note that mentions tea once, number ${i}`,
        scope: scopeOfNamespace(['notes']),
        key: `n${i}`,
        data: { keep: i >= 58 },
      })),
    );
    const found = await store.search(['notes'], { query: 'tea', filter: { keep: true }, limit: 2 });
    expect(found.map((item) => item.key).sort()).toEqual(['n58', 'n59']);
  });
});

describe('search without a query', () => {
  it('reads on, page after page, until the asked page is full', async () => {
    const { engram, store } = await open();
    await engram.rememberMany(
      Array.from({ length: 450 }, (_, i) => ({
        text: `item ${i}`,
        scope: scopeOfNamespace(['many']),
        key: `k${i}`,
        data: { i, wanted: i < 5 },
      })),
    );
    // Newest first: the five wanted ones were written first, so they come last.
    const found = await store.search(['many'], { filter: { wanted: true }, limit: 3, offset: 1 });
    expect(found.map((item) => item.key)).toEqual(['k3', 'k2', 'k1']);
  });

  it('finds items in more namespaces than it names to Engram at once', async () => {
    const { engram, store } = await open();
    await engram.rememberMany(
      Array.from({ length: 520 }, (_, i) => ({
        text: `user ${i}`,
        scope: scopeOfNamespace(['users', `u${i}`]),
        key: 'profile',
        data: { i },
      })),
    );
    await engram.remember({ text: 'not an item', scope: 'user:someone', key: 'profile' });
    await store.put(['teams', 'ops'], 'profile', { i: 999 });
    const found = await store.search(['users'], { limit: 1000 });
    expect(found).toHaveLength(520);
    expect(found.every((item) => item.namespace[0] === 'users')).toBe(true);
    expect(await store.search([], { filter: { i: 519 } })).toMatchObject([{ namespace: ['users', 'u519'], key: 'profile' }]);
    expect(await store.listNamespaces({ limit: 1000 })).toHaveLength(521);
  });
});

describe('memories other programs keep in a namespace’s scope', () => {
  it('shows a keyed one as an item of { text }, and leaves out memories without a key', async () => {
    const { engram, store } = await open();
    const scope = scopeOfNamespace(['users', 'alice']);
    await engram.remember({ text: 'Alice prefers window seats', scope, key: 'seat' });
    await engram.remember({ text: 'A thought without a key', scope, kind: 'thought' });
    expect(await store.search(['users', 'alice'])).toMatchObject([
      { key: 'seat', value: { text: 'Alice prefers window seats' } },
    ]);
    expect((await store.get(['users', 'alice'], 'seat'))?.value).toEqual({ text: 'Alice prefers window seats' });
  });

  it('lets an Engram session in the same scope recall what the graph stored', async () => {
    const { engram, store } = await open({}, { embedder: true });
    await store.put(['users', 'alice'], 'allergy', { text: 'Alice is allergic to peanuts' });
    const session = engram.session({ id: 'chat-1', scope: scopeOfNamespace(['users', 'alice']) });
    const turn = await session.beforeTurn('Which nuts should I avoid in Alice’s cake? She has an allergy.');
    expect(turn.memories.map((memory) => memory.text)).toContain('Alice is allergic to peanuts');
  });
});
