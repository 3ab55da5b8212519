/**
 * EngramStore against LangGraph's own InMemoryStore: the cases LangGraph's store tests check
 * (get, put, delete, namespaces and prefixes, filters, pagination, namespace listing, invalid
 * namespaces) run on both, and both must give the same results. Where the two differ by design
 * — the order of a search without a query, relevance ranking, what a deleted namespace leaves
 * behind — the last block says how, store by store (docs/integrations.md lists the same).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { type BaseStore, InMemoryStore, InvalidNamespaceError, type Item } from '@langchain/langgraph-checkpoint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, InvalidInputError, manualClock, openEngram } from '../src/index.js';
import { EngramStore } from '../src/surfaces/langgraph/index.js';

let directory: string;
const engines: Engram[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-langgraph-contract-'));
});
afterEach(async () => {
  for (const engram of engines.splice(0)) await engram.close();
  rmSync(directory, { recursive: true, force: true });
});

/** An EngramStore over a new SQLite file; words only unless `embedder` is asked for. */
async function engramStore(options: { embedder?: boolean; clock?: ReturnType<typeof manualClock> } = {}): Promise<EngramStore> {
  const engram = await openEngram({
    path: path.join(directory, `engram-${engines.length}.db`),
    ...(options.embedder ? {} : { embedder: null }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  engines.push(engram);
  return new EngramStore({ engram });
}

const STORES: [string, () => Promise<BaseStore>][] = [
  ['InMemoryStore', async () => new InMemoryStore()],
  ['EngramStore', () => engramStore()],
];

const keysOf = (items: readonly Item[]) => items.map((item) => `${item.namespace.join('/')}#${item.key}`).sort();

/** The documents LangGraph's PostgresStore search tests put, with a recipe beside them. */
async function putDocuments(store: BaseStore): Promise<void> {
  await store.put(['docs'], 'doc1', {
    title: 'JavaScript Guide',
    category: 'programming',
    difficulty: 'beginner',
    pages: 120,
    tags: ['javascript', 'web'],
  });
  await store.put(['docs'], 'doc2', {
    title: 'TypeScript Handbook',
    category: 'programming',
    difficulty: 'intermediate',
    pages: 300,
    tags: ['typescript'],
  });
  await store.put(['docs', 'python'], 'doc3', {
    title: 'Python Basics',
    category: 'programming',
    difficulty: 'beginner',
    pages: 80,
  });
  await store.put(['recipes'], 'recipe1', { title: 'Chocolate Cake', category: 'dessert', difficulty: 'easy', pages: 2 });
  await store.put(['docsets'], 'set1', { title: 'A set of docs', category: 'programming', difficulty: 'advanced', pages: 9 });
}

describe.each(STORES)('the BaseStore contract: %s', (_name, open) => {
  it('gets what was put: value, key, namespace and both dates', async () => {
    const store = await open();
    await store.put(['test'], '123', { value: 1 });
    expect(await store.get(['test'], '123')).toEqual({
      value: { value: 1 },
      key: '123',
      namespace: ['test'],
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
  });

  it('gets null for a key or a namespace that holds nothing', async () => {
    const store = await open();
    await store.put(['test'], '123', { value: 1 });
    expect(await store.get(['test'], 'nope')).toBeNull();
    expect(await store.get(['elsewhere'], '123')).toBeNull();
    expect(await store.get(['test', 'deeper'], '123')).toBeNull();
  });

  it('keeps complex JSON values as they were put', async () => {
    const store = await open();
    const value = {
      string: 'test',
      number: 42.5,
      boolean: true,
      null: null,
      array: [1, 2, 3, 'four', { five: [5] }],
      nested: { deep: { value: 'nested data', empty: {} } },
      unicode: 'café ☕ 東京',
    };
    await store.put(['crud', 'complex'], 'item4', value);
    expect((await store.get(['crud', 'complex'], 'item4'))?.value).toEqual(value);
  });

  it('replaces an item put again under the same key: new value, same creation time, later or equal update time', async () => {
    const store = await open();
    await store.put(['crud', 'update'], 'item2', { foo: 'bar' });
    const original = (await store.get(['crud', 'update'], 'item2')) as Item;
    await store.put(['crud', 'update'], 'item2', { foo: 'baz', extra: 123 });
    const updated = (await store.get(['crud', 'update'], 'item2')) as Item;
    expect(updated.value).toEqual({ foo: 'baz', extra: 123 });
    expect(updated.createdAt.getTime()).toBe(original.createdAt.getTime());
    expect(updated.updatedAt.getTime()).toBeGreaterThanOrEqual(original.updatedAt.getTime());
    expect(keysOf(await store.search(['crud']))).toEqual(['crud/update#item2']);
  });

  it('deletes an item; deleting one that is not there does nothing', async () => {
    const store = await open();
    await store.put(['test'], '123', { value: 1 });
    await store.put(['test'], '456', { value: 2 });
    await store.delete(['test'], '123');
    await store.delete(['test'], 'never-put');
    expect(await store.get(['test'], '123')).toBeNull();
    expect(keysOf(await store.search(['test']))).toEqual(['test#456']);
    await store.put(['test'], '123', { value: 3 });
    expect((await store.get(['test'], '123'))?.value).toEqual({ value: 3 });
  });

  it('keeps labels and keys exactly, spaces and percent signs included', async () => {
    const store = await open();
    await store.put([' padded ', '100%', 'tab\t'], ' key ', { n: 1 });
    await store.put([' padded ', '100%', 'tab'], 'key', { n: 2 });
    expect((await store.get([' padded ', '100%', 'tab\t'], ' key '))?.value).toEqual({ n: 1 });
    expect((await store.get([' padded ', '100%', 'tab'], 'key'))?.value).toEqual({ n: 2 });
    expect(await store.get([' padded ', '100%', 'tab'], ' key ')).toBeNull();
    expect(await store.listNamespaces({ prefix: [' padded '] })).toEqual([
      [' padded ', '100%', 'tab'],
      [' padded ', '100%', 'tab\t'],
    ]);
  });

  it('searches a prefix: its namespace and every one below it, not a sibling whose label only starts the same', async () => {
    const store = await open();
    await putDocuments(store);
    expect(keysOf(await store.search(['docs']))).toEqual(['docs#doc1', 'docs#doc2', 'docs/python#doc3']);
    expect(keysOf(await store.search(['docs', 'python']))).toEqual(['docs/python#doc3']);
    expect(keysOf(await store.search([]))).toEqual([
      'docs#doc1',
      'docs#doc2',
      'docs/python#doc3',
      'docsets#set1',
      'recipes#recipe1',
    ]);
    expect(await store.search(['nonexistent'])).toEqual([]);
    expect(await store.search(['docs', 'python', 'deeper'])).toEqual([]);
  });

  it('gives search results as items with no score when there is no query', async () => {
    const store = await open();
    await store.put(['test'], '123', { value: 1 });
    expect(await store.search(['test'])).toEqual([
      { value: { value: 1 }, key: '123', namespace: ['test'], createdAt: expect.any(Date), updatedAt: expect.any(Date) },
    ]);
    expect((await store.search(['test']))[0]?.score).toBeUndefined();
  });

  it.each([
    ['equality', { category: 'programming' }, ['docs#doc1', 'docs#doc2', 'docs/python#doc3']],
    ['$eq', { difficulty: { $eq: 'beginner' } }, ['docs#doc1', 'docs/python#doc3']],
    ['$ne', { difficulty: { $ne: 'beginner' } }, ['docs#doc2']],
    ['$gt', { pages: { $gt: 100 } }, ['docs#doc1', 'docs#doc2']],
    ['$gte', { pages: { $gte: 120 } }, ['docs#doc1', 'docs#doc2']],
    ['$lt', { pages: { $lt: 120 } }, ['docs/python#doc3']],
    ['$lte', { pages: { $lte: 120 } }, ['docs#doc1', 'docs/python#doc3']],
    ['$gt and $lt together', { pages: { $gt: 100, $lt: 200 } }, ['docs#doc1']],
    ['$in', { difficulty: { $in: ['beginner', 'intermediate'] } }, ['docs#doc1', 'docs#doc2', 'docs/python#doc3']],
    ['$nin', { difficulty: { $nin: ['beginner'] } }, ['docs#doc2']],
    [
      'several fields',
      { category: 'programming', difficulty: { $ne: 'advanced' }, pages: { $gte: 100 } },
      ['docs#doc1', 'docs#doc2'],
    ],
    ['a field no item has', { author: 'nobody' }, []],
    ['$ne on a field no item has', { author: { $ne: 'nobody' } }, ['docs#doc1', 'docs#doc2', 'docs/python#doc3']],
    ['a number compared as text', { pages: '120' }, []],
  ])('filters on value fields: %s', async (_case, filter, expected) => {
    const store = await open();
    await putDocuments(store);
    expect(keysOf(await store.search(['docs'], { filter }))).toEqual(expected);
  });

  it('pages with limit and offset: pages of the asked size, none overlapping, together the whole result', async () => {
    const store = await open();
    for (let i = 0; i < 7; i++) await store.put(['paged'], `item${i}`, { i, even: i % 2 === 0 });
    const all = await store.search(['paged'], { limit: 100 });
    const pages = [
      await store.search(['paged'], { limit: 3, offset: 0 }),
      await store.search(['paged'], { limit: 3, offset: 3 }),
      await store.search(['paged'], { limit: 3, offset: 6 }),
    ];
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat().map((item) => item.key)).toEqual(all.map((item) => item.key));
    expect(await store.search(['paged'], { limit: 3, offset: 7 })).toEqual([]);
    expect(await store.search(['paged'], { limit: 0 })).toEqual([]);
    expect(await store.search(['paged'])).toHaveLength(7); // the default limit is 10
    const evens = await store.search(['paged'], { filter: { even: true }, limit: 2, offset: 1 });
    expect(evens.map((item) => item.key)).toEqual(
      all
        .filter((item) => item.value.even)
        .map((item) => item.key)
        .slice(1, 3),
    );
  });

  describe('listNamespaces', () => {
    async function putNamespaces(store: BaseStore): Promise<void> {
      await store.put(['a', 'b', 'c'], '1', { value: 1 });
      await store.put(['a', 'b', 'd'], '2', { value: 2 });
      await store.put(['a', 'c', 'e'], '3', { value: 3 });
      await store.put(['x', 'y', 'z'], '4', { value: 4 });
      await store.put(['x', 'y', 'z'], '5', { value: 5 });
    }

    it.each([
      [
        'every namespace, sorted',
        {},
        [
          ['a', 'b', 'c'],
          ['a', 'b', 'd'],
          ['a', 'c', 'e'],
          ['x', 'y', 'z'],
        ],
      ],
      [
        'by prefix',
        { prefix: ['a'] },
        [
          ['a', 'b', 'c'],
          ['a', 'b', 'd'],
          ['a', 'c', 'e'],
        ],
      ],
      ['by suffix', { suffix: ['d'] }, [['a', 'b', 'd']]],
      ['by a prefix with a wildcard', { prefix: ['a', '*', 'c'] }, [['a', 'b', 'c']]],
      ['by a suffix with a wildcard', { suffix: ['*', 'z'] }, [['x', 'y', 'z']]],
      [
        'cut to a depth, each cut once',
        { maxDepth: 2 },
        [
          ['a', 'b'],
          ['a', 'c'],
          ['x', 'y'],
        ],
      ],
      ['by prefix, suffix and depth together', { prefix: ['a'], suffix: ['c'], maxDepth: 2 }, [['a', 'b']]],
      [
        'paged',
        { limit: 2, offset: 1 },
        [
          ['a', 'b', 'd'],
          ['a', 'c', 'e'],
        ],
      ],
      ['none matching', { prefix: ['non', 'existent'] }, []],
      ['a prefix longer than every namespace', { prefix: ['a', 'b', 'c', 'd'] }, []],
    ])('lists namespaces %s', async (_case, options, expected) => {
      const store = await open();
      await putNamespaces(store);
      expect(await store.listNamespaces(options)).toEqual(expected);
    });
  });

  describe('invalid namespaces', () => {
    it.each([
      ['an empty namespace', []],
      ['a label with a period', ['the', 'thing.about']],
      ['an empty label', ['some', 'fun', '']],
      ['a label with a colon', ['users', 'alice:bob']],
      ['the reserved root label', ['langgraph', 'foo']],
    ])('put refuses %s with InvalidNamespaceError', async (_case, namespace) => {
      const store = await open();
      await expect(store.put(namespace, 'foo', { foo: 'bar' })).rejects.toThrow(InvalidNamespaceError);
      expect(await store.search([])).toEqual([]);
    });

    it('accepts "langgraph" below the root, and at the root through batch, as LangGraph does', async () => {
      const store = await open();
      const doc = { foo: 'bar' };
      await store.put(['foo', 'langgraph', 'foo'], 'bar', doc);
      expect((await store.get(['foo', 'langgraph', 'foo'], 'bar'))?.value).toEqual(doc);
      expect((await store.search(['foo', 'langgraph', 'foo']))[0]?.value).toEqual(doc);
      await store.delete(['foo', 'langgraph', 'foo'], 'bar');
      expect(await store.get(['foo', 'langgraph', 'foo'], 'bar')).toBeNull();

      await store.batch([{ namespace: ['langgraph', 'foo'], key: 'bar', value: doc }]);
      expect((await store.get(['langgraph', 'foo'], 'bar'))?.value).toEqual(doc);
      expect((await store.search(['langgraph', 'foo']))[0]?.value).toEqual(doc);
      await store.delete(['langgraph', 'foo'], 'bar');
      expect(await store.get(['langgraph', 'foo'], 'bar')).toBeNull();
    });

    it('refuses a whole batch with an invalid namespace in it before writing any of it', async () => {
      const store = await open();
      await expect(
        store.batch([
          { namespace: ['batch'], key: 'item1', value: { data: 'first' } },
          { namespace: [], key: 'item2', value: { data: 'invalid' } },
        ]),
      ).rejects.toThrow('Namespace cannot be empty');
      expect(await store.get(['batch'], 'item1')).toBeNull();
    });
  });

  it('answers a batch in the order of its operations', async () => {
    const store = await open();
    await store.put(['batch'], 'old', { data: 'zero' });
    const results = await store.batch([
      { namespace: ['batch'], key: 'item1', value: { data: 'first' } },
      { namespace: ['batch'], key: 'old' },
      { namespacePrefix: ['batch'], limit: 10, offset: 0 },
      { matchConditions: [{ matchType: 'prefix', path: ['batch'] }], limit: 10, offset: 0 },
    ]);
    expect(results[0] ?? undefined).toBeUndefined(); // a put answers nothing (InMemoryStore: null)
    expect((results[1] as unknown as Item).value).toEqual({ data: 'zero' });
    expect(Array.isArray(results[2])).toBe(true);
    expect(results[3]).toEqual([['batch']]);
  });
});

describe('where EngramStore differs from InMemoryStore, on purpose', () => {
  it('lists a search without a query most recently written first (InMemoryStore: in the order first put)', async () => {
    const clock = manualClock();
    const stores: [BaseStore, string[]][] = [
      [new InMemoryStore(), ['a', 'b', 'c']],
      [await engramStore({ clock }), ['a', 'c', 'b']],
    ];
    for (const [store, order] of stores) {
      for (const key of ['a', 'b', 'c']) {
        await store.put(['ordered'], key, { key });
        clock.advance(1000);
      }
      await store.put(['ordered'], 'a', { key: 'a', again: true });
      expect(
        (await store.search(['ordered'])).map((item) => item.key),
        store.constructor.name,
      ).toEqual(order);
    }
  });

  it('forgets a namespace whose last item was deleted (InMemoryStore keeps listing it)', async () => {
    for (const [store, expected] of [
      [new InMemoryStore(), [['kept'], ['once']]],
      [await engramStore(), [['kept']]],
    ] as const) {
      await store.put(['once'], 'k', { v: 1 });
      await store.put(['kept'], 'k', { v: 1 });
      await store.delete(['once'], 'k');
      expect(await store.listNamespaces({}), store.constructor.name).toEqual(expected);
    }
  });

  it('sees the puts earlier in the same batch (InMemoryStore writes a batch’s puts after its reads)', async () => {
    const stores: [BaseStore, unknown][] = [
      [new InMemoryStore(), null],
      [await engramStore(), { data: 'first' }],
    ];
    for (const [store, seen] of stores) {
      const [, got] = await store.batch([
        { namespace: ['batch'], key: 'item1', value: { data: 'first' } },
        { namespace: ['batch'], key: 'item1' },
      ]);
      expect((got as Item | null)?.value ?? null, store.constructor.name).toEqual(seen);
    }
  });

  it('hands out copies of values: changing one changes nothing stored (InMemoryStore hands out the stored object)', async () => {
    for (const [store, after] of [
      [new InMemoryStore(), 'changed'],
      [await engramStore(), 'kept'],
    ] as const) {
      const value = { state: 'kept', list: [1] };
      await store.put(['copies'], 'k', value);
      const item = (await store.get(['copies'], 'k')) as Item;
      item.value.state = 'changed';
      expect((await store.get(['copies'], 'k'))?.value.state, store.constructor.name).toBe(after);
    }
  });

  it('matches an object or list in a filter by its JSON (InMemoryStore compares references, so never)', async () => {
    for (const [store, expected] of [
      [new InMemoryStore(), []],
      [await engramStore(), ['k']],
    ] as const) {
      await store.put(['objects'], 'k', { owner: { name: 'Alice' }, tags: ['a', 'b'] });
      const found = await store.search(['objects'], { filter: { owner: { name: 'Alice' }, tags: ['a', 'b'] } });
      expect(
        found.map((item) => item.key),
        store.constructor.name,
      ).toEqual(expected);
    }
  });

  it('refuses an empty key, which Engram cannot hold (InMemoryStore keeps it); getting or deleting one finds nothing', async () => {
    const store = await engramStore();
    await expect(store.put(['keys'], '', { v: 1 })).rejects.toThrow(InvalidInputError);
    await expect(store.put(['keys'], '', { v: 1 })).rejects.toThrow('an item key cannot be empty');
    expect(await store.get(['keys'], '')).toBeNull();
    await store.delete(['keys'], '');
    const inMemory = new InMemoryStore();
    await inMemory.put(['keys'], '', { v: 1 });
    expect((await inMemory.get(['keys'], ''))?.value).toEqual({ v: 1 });
  });

  it('ranks a query by Engram’s relevance, best first, with a score on each item (InMemoryStore without embeddings: no score, put order)', async () => {
    const facts = [
      ['job', 'Alice works as a nurse at the hospital in Leeds'],
      ['tea', 'Alice drinks green tea every morning before work'],
      ['car', 'The blue car in the garage needs new tyres'],
    ] as const;
    const inMemory = new InMemoryStore();
    const store = await engramStore({ embedder: true });
    for (const target of [inMemory, store]) {
      for (const [key, text] of facts) await target.put(['users', 'alice'], key, { text });
    }
    const query = 'what does Alice like to drink in the morning?';

    const unranked = await inMemory.search(['users', 'alice'], { query });
    expect(unranked.map((item) => [item.key, item.score])).toEqual([
      ['job', undefined],
      ['tea', undefined],
      ['car', undefined],
    ]);

    const ranked = await store.search(['users', 'alice'], { query });
    expect(ranked.map((item) => item.key)).toEqual(['tea', 'job', 'car']);
    const scores = ranked.map((item) => item.score as number);
    expect(scores.every((score) => score > 0 && score <= 1.15)).toBe(true);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect((await store.search(['users', 'alice'], { query, limit: 1, offset: 1 })).map((item) => item.key)).toEqual(['job']);
  });
});
