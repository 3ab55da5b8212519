/**
 * The Store contract (STYLE.md 2): one behavioural suite that every Store backend must pass.
 * A backend's test file is one call, e.g.
 * `storeContract('SqliteStore in memory', () => new SqliteStore(':memory:'))`.
 * It speaks only through the Store interface, so it holds no SQL and no backend detail.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryFilter, Store } from '../src/store/store.js';
import { sessionStoreContract } from './store-contract-sessions.js';
import {
  ALL,
  cosine,
  EAST,
  entry,
  makeMemory,
  minutesAfterEpoch,
  MOSTLY_EAST,
  NORTH,
  NORTH_EAST,
  OTHER_TENANT,
  TENANT,
  unitVector,
  UP,
} from './store-fixtures.js';

/**
 * Runs `write` so that a synchronous throw also becomes a rejection; tests of what a failed write
 * leaves behind use it, and one test checks on its own that failures arrive as rejections.
 */
function attempt(write: () => Promise<unknown>): Promise<unknown> {
  return (async () => write())();
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Runs the Store contract against the backend `makeStore` builds; each test gets a fresh, empty store. */
export function storeContract(name: string, makeStore: () => Promise<Store> | Store): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close();
    });

    const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

    sessionStoreContract(() => store);
    const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id);

    describe('writing and reading memories', () => {
      it('returns every field of a committed memory exactly as it was written', async () => {
        const full = makeMemory({
          id: 'full',
          scope: 'project:engram',
          kind: 'solution',
          tier: 'must',
          pinned: true,
          hardRule: true,
          text: 'Fixed the flaky upload test by awaiting the stream — naïve retry did not help 🙂',
          abstract: 'Awaiting the stream fixed the flaky upload test.',
          key: 'flaky-upload',
          sessionId: 'session-42',
          source: 'agent',
          trust: 0.8,
          data: { goal: 'fix test', approach: ['await', 'retry'], outcome: { ok: true, runs: 3 }, confidence: 0.75, note: null },
          tags: ['ci', 'tests', 'ünïcode'],
          occurredAt: minutesAfterEpoch(-90),
          createdAt: minutesAfterEpoch(1),
          updatedAt: minutesAfterEpoch(2),
          lastRetrievedAt: '2025-01-15T09:03:04.567Z',
          retrievalCount: 3,
        });
        const sparse = makeMemory({
          id: 'sparse',
          source: 'tool',
          trust: 0.6,
          archivedAt: minutesAfterEpoch(5),
          supersededBy: 'full',
        });
        await insert(entry(full, EAST), entry(sparse));

        expect(await store.getMemory(TENANT, 'full')).toEqual(full);
        expect(await store.getMemory(TENANT, 'sparse')).toEqual(sparse);
      });

      it('returns null for an unknown id and for a memory of another tenant', async () => {
        await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT })));

        expect(await store.getMemory(TENANT, 'missing')).toBeNull();
        expect(await store.getMemory(TENANT, 'theirs')).toBeNull();
      });

      it('returns several memories in the order asked for, leaving out unknown ids and other tenants', async () => {
        await insert(
          entry(makeMemory({ id: 'a' })),
          entry(makeMemory({ id: 'b' })),
          entry(makeMemory({ id: 'c' })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT })),
        );

        const found = await store.getMemories(TENANT, ['c', 'missing', 'a', 'theirs', 'b']);

        expect(idsOf(found)).toEqual(['c', 'a', 'b']);
        expect(await store.getMemories(TENANT, [])).toEqual([]);
      });

      it('applies a change atomically: a duplicate id in the second insert leaves nothing of the first', async () => {
        await insert(entry(makeMemory({ id: 'existing', text: 'already here' }), NORTH));

        await expect(
          attempt(() =>
            insert(
              entry(makeMemory({ id: 'fresh', text: 'zanzibar harbour' }), EAST),
              entry(makeMemory({ id: 'existing', text: 'duplicate' })),
            ),
          ),
        ).rejects.toThrow();

        expect(await store.getMemory(TENANT, 'fresh')).toBeNull();
        expect((await store.getMemory(TENANT, 'existing'))?.text).toBe('already here');
        expect(await store.countMemories(ALL)).toBe(1);
        expect(await store.searchLexical(ALL, 'zanzibar', 10)).toEqual([]);
        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['existing']);
      });

      it('keeps working after a failed change that carried the very first vector', async () => {
        await insert(entry(makeMemory({ id: 'existing' })));
        await expect(
          attempt(() => insert(entry(makeMemory({ id: 'fresh' }), EAST), entry(makeMemory({ id: 'existing' })))),
        ).rejects.toThrow();

        await insert(entry(makeMemory({ id: 'later' }), EAST));

        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['later']);
      });

      it('reports a refused change as a rejected promise, never as a synchronous throw', async () => {
        await insert(entry(makeMemory({ id: 'existing' })));
        let outcome: Promise<void> | undefined;

        expect(() => {
          outcome = insert(entry(makeMemory({ id: 'existing' })));
        }).not.toThrow();
        await expect(outcome).rejects.toThrow();
      });
    });

    describe('updating memories', () => {
      it('keeps the old vector when an update leaves the vector out', async () => {
        const memory = makeMemory({ id: 'a', text: 'old words' });
        await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH));

        await store.commit({ update: [{ memory: { ...memory, text: 'new words', updatedAt: minutesAfterEpoch(1) } }] });

        const [first] = await store.searchVector(ALL, EAST, 1);
        expect(first?.id).toBe('a');
        expect(first?.similarity).toBeCloseTo(1, 5);
        expect((await store.getMemory(TENANT, 'a'))?.text).toBe('new words');
      });

      it('moves a memory in vector search when an update gives it a new vector', async () => {
        const memory = makeMemory({ id: 'a' });
        await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH_EAST));

        await store.commit({ update: [{ memory, vector: UP }] });

        expect(idsOf(await store.searchVector(ALL, EAST, 2))).toEqual(['b', 'a']);
        expect(idsOf(await store.searchVector(ALL, UP, 1))).toEqual(['a']);
      });

      it('removes a memory from vector search when an update sets its vector to null', async () => {
        const memory = makeMemory({ id: 'a' });
        await insert(entry(memory, EAST), entry(makeMemory({ id: 'b' }), NORTH));

        await store.commit({ update: [{ memory, vector: null }] });

        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['b']);
        expect(await store.getMemory(TENANT, 'a')).toEqual(memory);
      });

      it('indexes the new text of an updated memory for lexical search and forgets the old text', async () => {
        const memory = makeMemory({ id: 'a', text: 'the walrus sleeps' });
        await insert(entry(memory));

        await store.commit({ update: [{ memory: { ...memory, text: 'the pelican flies', tags: ['birds'] } }] });

        expect(await store.searchLexical(ALL, 'walrus', 10)).toEqual([]);
        expect(idsOf(await store.searchLexical(ALL, 'pelican', 10))).toEqual(['a']);
        expect(idsOf(await store.searchLexical(ALL, 'birds', 10))).toEqual(['a']);
      });
    });

    describe('keyed memories', () => {
      it('finds the live memory with a tenant, scope and key', async () => {
        await insert(
          entry(makeMemory({ id: 'old', key: 'editor', text: 'vim', supersededBy: 'live' })),
          entry(makeMemory({ id: 'gone', key: 'editor', text: 'nano', archivedAt: minutesAfterEpoch(1) })),
          entry(makeMemory({ id: 'live', key: 'editor', text: 'helix' })),
          entry(makeMemory({ id: 'elsewhere', key: 'editor', scope: 'project:x', text: 'emacs' })),
          entry(makeMemory({ id: 'theirs', key: 'editor', tenant: OTHER_TENANT, text: 'vscode' })),
        );

        expect((await store.findByKey(TENANT, 'user:alice', 'editor'))?.id).toBe('live');
        expect((await store.findByKey(TENANT, 'project:x', 'editor'))?.id).toBe('elsewhere');
        expect((await store.findByKey(OTHER_TENANT, 'user:alice', 'editor'))?.id).toBe('theirs');
        expect(await store.findByKey(TENANT, 'user:alice', 'shell')).toBeNull();
      });

      it('finds nothing by key when the only memory with it is superseded or archived', async () => {
        await insert(
          entry(makeMemory({ id: 'old', key: 'editor', supersededBy: 'x' })),
          entry(makeMemory({ id: 'gone', key: 'editor', archivedAt: minutesAfterEpoch(1) })),
        );

        expect(await store.findByKey(TENANT, 'user:alice', 'editor')).toBeNull();
      });

      it('refuses a second live memory with the same tenant, scope and key', async () => {
        await insert(entry(makeMemory({ id: 'first', key: 'editor' })));

        await expect(attempt(() => insert(entry(makeMemory({ id: 'second', key: 'editor' }))))).rejects.toThrow();

        expect(await store.getMemory(TENANT, 'second')).toBeNull();
      });

      it('allows a new live memory with a key once the old one is superseded', async () => {
        const first = makeMemory({ id: 'first', key: 'editor' });
        await insert(entry(first));

        await store.commit({ update: [{ memory: { ...first, supersededBy: 'second' } }] });
        await insert(entry(makeMemory({ id: 'second', key: 'editor' })));

        expect((await store.findByKey(TENANT, 'user:alice', 'editor'))?.id).toBe('second');
      });

      it('replaces a keyed memory in one change that supersedes the old one and inserts the new one', async () => {
        const first = makeMemory({ id: 'first', key: 'editor' });
        await insert(entry(first));

        await store.commit({
          insert: [entry(makeMemory({ id: 'second', key: 'editor' }))],
          update: [{ memory: { ...first, supersededBy: 'second' } }],
        });

        expect((await store.findByKey(TENANT, 'user:alice', 'editor'))?.id).toBe('second');
        expect((await store.getMemory(TENANT, 'first'))?.supersededBy).toBe('second');
      });
    });

    describe('purging memories', () => {
      it('deletes memories for good with their lexical and vector entries, and says how many', async () => {
        await insert(
          entry(makeMemory({ id: 'doomed', text: 'the zebra crossing' }), EAST),
          entry(makeMemory({ id: 'kept', text: 'the zebra finch' }), MOSTLY_EAST),
        );

        expect(await store.purgeMemories(TENANT, ['doomed', 'missing'])).toBe(1);

        expect(await store.getMemory(TENANT, 'doomed')).toBeNull();
        expect(await store.countMemories({ ...ALL, includeArchived: true, includeSuperseded: true })).toBe(1);
        expect(idsOf(await store.searchLexical(ALL, 'zebra', 10))).toEqual(['kept']);
        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['kept']);
        expect((await store.stats(TENANT)).vectors).toBe(1);
      });

      it('purges nothing of another tenant', async () => {
        await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, text: 'zebra' }), EAST));

        expect(await store.purgeMemories(TENANT, ['theirs'])).toBe(0);

        expect(await store.getMemory(OTHER_TENANT, 'theirs')).not.toBeNull();
        expect(idsOf(await store.searchLexical({ tenant: OTHER_TENANT }, 'zebra', 10))).toEqual(['theirs']);
        expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, EAST, 10))).toEqual(['theirs']);
      });

      it('purges nothing when given no ids', async () => {
        await insert(entry(makeMemory({ id: 'a' })));

        expect(await store.purgeMemories(TENANT, [])).toBe(0);
        expect(await store.countMemories(ALL)).toBe(1);
      });
    });

    describe('listing and counting', () => {
      /** Six memories of this tenant, one a minute, plus one of another tenant. */
      async function insertListingFixtures(): Promise<void> {
        await insert(
          entry(makeMemory({ id: 'm0', createdAt: minutesAfterEpoch(0), scope: 'user:alice', kind: 'fact', tier: 'must' })),
          entry(makeMemory({ id: 'm1', createdAt: minutesAfterEpoch(1), scope: 'project:x', kind: 'decision', tier: 'nice' })),
          entry(makeMemory({ id: 'm2', createdAt: minutesAfterEpoch(2), scope: 'session:s1', kind: 'note', sessionId: 's1' })),
          entry(makeMemory({ id: 'm3', createdAt: minutesAfterEpoch(3), scope: 'user:alice', kind: 'preference', tier: 'nice' })),
          entry(makeMemory({ id: 'archived', createdAt: minutesAfterEpoch(4), archivedAt: minutesAfterEpoch(10) })),
          entry(makeMemory({ id: 'superseded', createdAt: minutesAfterEpoch(5), supersededBy: 'm3' })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, createdAt: minutesAfterEpoch(6) })),
        );
      }

      it('lists live memories newest first by default and oldest first on request', async () => {
        await insertListingFixtures();

        expect(idsOf(await store.listMemories(ALL, { limit: 10 }))).toEqual(['m3', 'm2', 'm1', 'm0']);
        expect(idsOf(await store.listMemories(ALL, { limit: 10, order: 'newest' }))).toEqual(['m3', 'm2', 'm1', 'm0']);
        expect(idsOf(await store.listMemories(ALL, { limit: 10, order: 'oldest' }))).toEqual(['m0', 'm1', 'm2', 'm3']);
      });

      it('pages a listing with limit and offset', async () => {
        await insertListingFixtures();

        expect(idsOf(await store.listMemories(ALL, { limit: 2 }))).toEqual(['m3', 'm2']);
        expect(idsOf(await store.listMemories(ALL, { limit: 2, offset: 2 }))).toEqual(['m1', 'm0']);
        expect(idsOf(await store.listMemories(ALL, { limit: 2, offset: 1, order: 'oldest' }))).toEqual(['m1', 'm2']);
        expect(await store.listMemories(ALL, { limit: 2, offset: 4 })).toEqual([]);
      });

      it('filters a listing by scopes, kinds, tiers and session', async () => {
        await insertListingFixtures();
        const oldest = { limit: 10, order: 'oldest' } as const;

        expect(idsOf(await store.listMemories({ ...ALL, scopes: ['user:alice'] }, oldest))).toEqual(['m0', 'm3']);
        expect(idsOf(await store.listMemories({ ...ALL, scopes: ['project:x', 'session:s1'] }, oldest))).toEqual(['m1', 'm2']);
        expect(idsOf(await store.listMemories({ ...ALL, kinds: ['decision', 'preference'] }, oldest))).toEqual(['m1', 'm3']);
        expect(idsOf(await store.listMemories({ ...ALL, tiers: ['nice'] }, oldest))).toEqual(['m1', 'm3']);
        expect(idsOf(await store.listMemories({ ...ALL, sessionId: 's1' }, oldest))).toEqual(['m2']);
        expect(idsOf(await store.listMemories({ ...ALL, scopes: ['user:alice'], tiers: ['must'] }, oldest))).toEqual(['m0']);
      });

      it('matches nothing when a filter names an empty list of scopes or kinds', async () => {
        await insertListingFixtures();

        expect(await store.listMemories({ ...ALL, scopes: [] }, { limit: 10 })).toEqual([]);
        expect(await store.listMemories({ ...ALL, kinds: [] }, { limit: 10 })).toEqual([]);
        expect(await store.countMemories({ ...ALL, scopes: [] })).toBe(0);
      });

      it('hides archived and superseded memories unless asked to include them', async () => {
        await insertListingFixtures();
        const oldest = { limit: 10, order: 'oldest' } as const;

        expect(idsOf(await store.listMemories({ ...ALL, includeArchived: true }, oldest))).toEqual([
          'm0',
          'm1',
          'm2',
          'm3',
          'archived',
        ]);
        expect(idsOf(await store.listMemories({ ...ALL, includeSuperseded: true }, oldest))).toEqual([
          'm0',
          'm1',
          'm2',
          'm3',
          'superseded',
        ]);
        expect(await store.listMemories({ ...ALL, includeArchived: true, includeSuperseded: true }, oldest)).toHaveLength(6);
      });

      it('keeps one tenant’s memories out of another tenant’s listing', async () => {
        await insertListingFixtures();

        expect(idsOf(await store.listMemories({ tenant: OTHER_TENANT }, { limit: 10 }))).toEqual(['theirs']);
        expect(await store.listMemories({ tenant: 'nobody' }, { limit: 10 })).toEqual([]);
      });

      it('counts exactly the memories it would list', async () => {
        await insertListingFixtures();
        const filters: MemoryFilter[] = [
          ALL,
          { ...ALL, scopes: ['user:alice'] },
          { ...ALL, kinds: ['note', 'fact'] },
          { ...ALL, tiers: ['nice', 'unknown'] },
          { ...ALL, sessionId: 's1' },
          { ...ALL, includeArchived: true },
          { ...ALL, includeArchived: true, includeSuperseded: true },
          { ...ALL, scopes: [] },
          { tenant: OTHER_TENANT },
        ];

        for (const filter of filters) {
          const listed = await store.listMemories(filter, { limit: 100 });
          expect(await store.countMemories(filter), JSON.stringify(filter)).toBe(listed.length);
        }
      });
    });

    describe('iterating', () => {
      it('visits every memory of a filter once, oldest first, in pages', async () => {
        for (let i = 0; i < 5; i++) await insert(entry(makeMemory({ id: `m${i}`, createdAt: minutesAfterEpoch(i) })));
        await insert(
          entry(makeMemory({ id: 'archived', createdAt: minutesAfterEpoch(6), archivedAt: minutesAfterEpoch(7) })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, createdAt: minutesAfterEpoch(8) })),
        );

        expect(idsOf(await collect(store.iterateMemories(ALL, 2)))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
        expect(idsOf(await collect(store.iterateMemories({ ...ALL, includeArchived: true }, 2)))).toEqual([
          'm0',
          'm1',
          'm2',
          'm3',
          'm4',
          'archived',
        ]);
        expect(idsOf(await collect(store.iterateMemories({ ...ALL, scopes: [] }, 2)))).toEqual([]);
      });

      it('visits every memory of every tenant once, oldest first, in pages', async () => {
        const tenants = [TENANT, OTHER_TENANT, TENANT, OTHER_TENANT, TENANT, TENANT];
        for (const [i, tenant] of tenants.entries()) {
          await insert(
            entry(
              makeMemory({
                id: `m${i}`,
                tenant,
                createdAt: minutesAfterEpoch(i),
                archivedAt: i === 3 ? minutesAfterEpoch(9) : null,
              }),
            ),
          );
        }

        const visited = await collect(store.iterateAllMemories(2));

        expect(idsOf(visited)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
        expect(visited.map((memory) => memory.tenant)).toEqual(tenants);
      });

      it('visits nothing in an empty store', async () => {
        expect(await collect(store.iterateAllMemories(2))).toEqual([]);
        expect(await collect(store.iterateMemories(ALL))).toEqual([]);
      });
    });

    describe('lexical search', () => {
      it('matches a word by its stem', async () => {
        await insert(
          entry(makeMemory({ id: 'runner', text: 'Alice runs every morning before work' })),
          entry(makeMemory({ id: 'invoices', text: 'The bills are paid on the first of the month' })),
        );

        expect(idsOf(await store.searchLexical(ALL, 'running', 10))).toEqual(['runner']);
        expect(idsOf(await store.searchLexical(ALL, 'billing', 10))).toEqual(['invoices']);
      });

      it('ranks the memory that matches more of the query first, with a higher score', async () => {
        await insert(
          entry(makeMemory({ id: 'partial', text: 'Postgres is the main database' })),
          entry(makeMemory({ id: 'full', text: 'The postgres connection pool holds twenty connections' })),
          entry(makeMemory({ id: 'unrelated', text: 'Lunch is at noon' })),
        );

        const hits = await store.searchLexical(ALL, 'postgres connection pool', 10);

        expect(idsOf(hits)).toEqual(['full', 'partial']);
        expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Infinity);
      });

      it('searches the abstract and the tags as well as the text', async () => {
        await insert(
          entry(makeMemory({ id: 'by-abstract', text: 'long story', abstract: 'The deploy uses kubernetes' })),
          entry(makeMemory({ id: 'by-tag', text: 'another story', tags: ['terraform'] })),
        );

        expect(idsOf(await store.searchLexical(ALL, 'kubernetes', 10))).toEqual(['by-abstract']);
        expect(idsOf(await store.searchLexical(ALL, 'terraform', 10))).toEqual(['by-tag']);
      });

      it('keeps one tenant’s memories out of another tenant’s lexical search', async () => {
        await insert(
          entry(makeMemory({ id: 'ours', text: 'the secret launch date' })),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, text: 'the secret launch date' })),
        );

        expect(idsOf(await store.searchLexical(ALL, 'secret launch', 10))).toEqual(['ours']);
        expect(idsOf(await store.searchLexical({ tenant: OTHER_TENANT }, 'secret launch', 10))).toEqual(['theirs']);
      });

      it('applies scope, kind, tier, session and state filters to lexical search', async () => {
        await insert(
          entry(makeMemory({ id: 'fact', text: 'coffee order', kind: 'fact', scope: 'user:alice', tier: 'must' })),
          entry(makeMemory({ id: 'note', text: 'coffee order', kind: 'note', scope: 'project:x', sessionId: 's1' })),
          entry(makeMemory({ id: 'archived', text: 'coffee order', archivedAt: minutesAfterEpoch(1) })),
          entry(makeMemory({ id: 'superseded', text: 'coffee order', supersededBy: 'fact' })),
        );
        const search = async (filter: MemoryFilter) => idsOf(await store.searchLexical(filter, 'coffee', 10)).sort();

        expect(await search(ALL)).toEqual(['fact', 'note']);
        expect(await search({ ...ALL, scopes: ['project:x'] })).toEqual(['note']);
        expect(await search({ ...ALL, kinds: ['fact'] })).toEqual(['fact']);
        expect(await search({ ...ALL, tiers: ['must'] })).toEqual(['fact']);
        expect(await search({ ...ALL, sessionId: 's1' })).toEqual(['note']);
        expect(await search({ ...ALL, scopes: [] })).toEqual([]);
        expect(await search({ ...ALL, includeArchived: true, includeSuperseded: true })).toEqual([
          'archived',
          'fact',
          'note',
          'superseded',
        ]);
      });

      it('returns at most the limit', async () => {
        for (let i = 0; i < 5; i++) await insert(entry(makeMemory({ id: `m${i}`, text: `apples number ${i}` })));

        expect(await store.searchLexical(ALL, 'apples', 3)).toHaveLength(3);
      });

      const hostileQueries: [string, string][] = [
        ['a lone double quote', '"'],
        ['an unbalanced quote', '"billing'],
        ['a bare AND', 'AND'],
        ['OR NOT', 'OR NOT'],
        ['NOT before a word', 'NOT billing'],
        ['a star', '*'],
        ['a prefix star', 'bill*'],
        ['an opening parenthesis', '('],
        ['a closing parenthesis', ')'],
        ['an unclosed NEAR', 'NEAR('],
        ['a NEAR group', 'NEAR(billing invoice, 2)'],
        ['a column filter', 'col:val'],
        ['a real column filter', 'text:billing'],
        ['a column set', '{text abstract}: billing'],
        ['a caret', '^'],
        ['a caret before a word', '^billing'],
        ['a minus and a plus', '-billing +invoice'],
        ['emoji', '🦄🔥💸'],
        ['a NUL byte', '\u0000'],
        ['NUL bytes inside words', 'bil\u0000ling in\u0000voice'],
        ['SQL', "'; DROP TABLE memories; --"],
        ['a 100 kB string', 'billing invoice '.repeat(6_250)],
        ['a 100 kB word', 'b'.repeat(100_000)],
        ['an empty string', ''],
        ['only whitespace', ' \t\n '],
        ['only stop words', 'the of and'],
      ];

      it.each(hostileQueries)('never throws on hostile query text: %s', async (_label, query) => {
        await insert(entry(makeMemory({ id: 'bills', text: 'The billing invoice for the NEAR project, column: value' })));

        const hits = await store.searchLexical(ALL, query, 10);

        expect(Array.isArray(hits)).toBe(true);
      });

      it('finds nothing for an empty query', async () => {
        await insert(entry(makeMemory({ id: 'a', text: 'anything at all' })));

        expect(await store.searchLexical(ALL, '', 10)).toEqual([]);
      });
    });

    describe('vector search', () => {
      it('finds nothing before any vector is stored', async () => {
        await insert(entry(makeMemory({ id: 'no-vector' })));

        expect(await store.searchVector(ALL, EAST, 10)).toEqual([]);
      });

      it('ranks the nearest vector first with its cosine similarity', async () => {
        await insert(
          entry(makeMemory({ id: 'north' }), NORTH),
          entry(makeMemory({ id: 'east' }), EAST),
          entry(makeMemory({ id: 'north-east' }), NORTH_EAST),
        );

        const hits = await store.searchVector(ALL, MOSTLY_EAST, 10);

        expect(idsOf(hits)).toEqual(['east', 'north-east', 'north']);
        expect(hits[0]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, EAST), 5);
        expect(hits[1]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, NORTH_EAST), 5);
        expect(hits[2]?.similarity).toBeCloseTo(cosine(MOSTLY_EAST, NORTH), 5);
        expect(idsOf(await store.searchVector(ALL, MOSTLY_EAST, 2))).toEqual(['east', 'north-east']);
      });

      it('reports similarity -1 for an opposite vector', async () => {
        await insert(entry(makeMemory({ id: 'west' }), unitVector(-1, 0, 0, 0)));

        const [hit] = await store.searchVector(ALL, EAST, 1);

        expect(hit?.similarity).toBeCloseTo(-1, 5);
      });

      it('keeps one tenant’s memories out of another tenant’s vector search', async () => {
        await insert(entry(makeMemory({ id: 'ours' }), NORTH), entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), EAST));

        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['ours']);
        expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, EAST, 10))).toEqual(['theirs']);
        expect(await store.searchVector({ tenant: 'nobody' }, EAST, 10)).toEqual([]);
      });

      it('applies scope, kind, tier, session and state filters to vector search', async () => {
        await insert(
          entry(makeMemory({ id: 'fact', kind: 'fact', scope: 'user:alice', tier: 'must' }), EAST),
          entry(makeMemory({ id: 'note', kind: 'note', scope: 'project:x', sessionId: 's1' }), MOSTLY_EAST),
          entry(makeMemory({ id: 'archived', archivedAt: minutesAfterEpoch(1) }), EAST),
          entry(makeMemory({ id: 'superseded', supersededBy: 'fact' }), EAST),
        );
        const search = async (filter: MemoryFilter) => idsOf(await store.searchVector(filter, EAST, 10)).sort();

        expect(await search(ALL)).toEqual(['fact', 'note']);
        expect(await search({ ...ALL, scopes: ['project:x'] })).toEqual(['note']);
        expect(await search({ ...ALL, kinds: ['fact'] })).toEqual(['fact']);
        expect(await search({ ...ALL, tiers: ['must'] })).toEqual(['fact']);
        expect(await search({ ...ALL, sessionId: 's1' })).toEqual(['note']);
        expect(await search({ ...ALL, scopes: [] })).toEqual([]);
        expect(await search({ ...ALL, includeArchived: true, includeSuperseded: true })).toEqual([
          'archived',
          'fact',
          'note',
          'superseded',
        ]);
      });

      it('finds the nearest memory in a scope even when a hundred nearer ones sit in another scope', async () => {
        const crowd = Array.from({ length: 100 }, (_, i) =>
          entry(makeMemory({ id: `crowd-${i}`, scope: 'user:alice' }), unitVector(1, i / 1000, 0, 0)),
        );
        await insert(...crowd, entry(makeMemory({ id: 'target', scope: 'session:s1' }), UP));

        expect(idsOf(await store.searchVector({ ...ALL, scopes: ['session:s1'] }, EAST, 3))).toEqual(['target']);
      });
    });

    describe('retrieval statistics', () => {
      it('counts each retrieval and remembers when the last one happened', async () => {
        await insert(entry(makeMemory({ id: 'a' })), entry(makeMemory({ id: 'b' })));

        await store.recordRetrieval(TENANT, ['a', 'b'], minutesAfterEpoch(10));
        await store.recordRetrieval(TENANT, ['a'], minutesAfterEpoch(20));

        expect(await store.getMemory(TENANT, 'a')).toMatchObject({ retrievalCount: 2, lastRetrievedAt: minutesAfterEpoch(20) });
        expect(await store.getMemory(TENANT, 'b')).toMatchObject({ retrievalCount: 1, lastRetrievedAt: minutesAfterEpoch(10) });
      });

      it('records retrievals only within the tenant and ignores unknown ids', async () => {
        await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT })));

        await store.recordRetrieval(TENANT, ['theirs', 'missing'], minutesAfterEpoch(10));

        expect(await store.getMemory(OTHER_TENANT, 'theirs')).toMatchObject({ retrievalCount: 0, lastRetrievedAt: null });
      });
    });

    describe('the vector index', () => {
      it('has no index info before one is recorded', async () => {
        expect(await store.getIndexInfo()).toBeNull();
      });

      it('records the embedder of an empty database', async () => {
        await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });

        expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4', dimensions: 4 });

        await store.setIndexInfo({ model: 'tiny-4b', dimensions: 4 });
        expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4b', dimensions: 4 });
      });

      it('replaces every vector with ones of a new dimension and records the new embedder', async () => {
        await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
        await insert(
          entry(makeMemory({ id: 'a' }), EAST),
          entry(makeMemory({ id: 'b' }), NORTH),
          entry(makeMemory({ id: 'c' }), UP),
          entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT }), EAST),
        );

        await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [
          { id: 'a', vector: unitVector(0, 0, 0, 0, 0, 1) },
          { id: 'b', vector: unitVector(0, 0, 0, 0, 1, 1) },
          { id: 'theirs', vector: unitVector(0, 0, 0, 0, 0, 1) },
        ]);

        expect(await store.getIndexInfo()).toEqual({ model: 'tiny-6', dimensions: 6 });
        const hits = await store.searchVector(ALL, unitVector(0, 0, 0, 0, 0, 1), 10);
        expect(idsOf(hits)).toEqual(['a', 'b']);
        expect(hits[0]?.similarity).toBeCloseTo(1, 5);
        expect(idsOf(await store.searchVector({ tenant: OTHER_TENANT }, unitVector(0, 0, 0, 0, 0, 1), 10))).toEqual(['theirs']);
        expect((await store.stats(TENANT)).vectors).toBe(2);
      });

      it('accepts new memories with vectors of the new dimension after a replacement', async () => {
        await insert(entry(makeMemory({ id: 'a' }), EAST));
        await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [{ id: 'a', vector: unitVector(1, 0, 0, 0, 0, 0) }]);

        await insert(entry(makeMemory({ id: 'b' }), unitVector(0, 0, 0, 0, 0, 1)));

        expect(idsOf(await store.searchVector(ALL, unitVector(0, 0, 0, 0, 0, 1), 1))).toEqual(['b']);
      });

      it('keeps the old vectors and embedder when a replacement fails part-way', async () => {
        await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
        await insert(entry(makeMemory({ id: 'a' }), EAST), entry(makeMemory({ id: 'b' }), NORTH));

        // The second vector does not fit the first one's dimension, so the replacement cannot finish.
        await expect(
          attempt(() =>
            store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, [
              { id: 'a', vector: unitVector(1, 0, 0, 0, 0, 0) },
              { id: 'b', vector: NORTH },
            ]),
          ),
        ).rejects.toThrow();

        expect(await store.getIndexInfo()).toEqual({ model: 'tiny-4', dimensions: 4 });
        expect(idsOf(await store.searchVector(ALL, EAST, 10))).toEqual(['a', 'b']);
      });

      it('records the embedder even when the replacement holds no vectors', async () => {
        await insert(entry(makeMemory({ id: 'a' }), EAST));

        await store.replaceVectorIndex({ model: 'tiny-6', dimensions: 6 }, []);

        expect(await store.getIndexInfo()).toEqual({ model: 'tiny-6', dimensions: 6 });
        expect(await store.searchVector(ALL, unitVector(1, 0, 0, 0, 0, 0), 10)).toEqual([]);
      });
    });

    describe('the embedding cache', () => {
      it('returns cached embeddings by model and hash, leaving out misses', async () => {
        await store.putCachedEmbeddings('tiny-4', [
          { hash: 'h1', vector: EAST },
          { hash: 'h2', vector: NORTH_EAST },
        ]);

        const found = await store.getCachedEmbeddings('tiny-4', ['h1', 'h2', 'h3']);

        expect([...found.keys()].sort()).toEqual(['h1', 'h2']);
        expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(EAST));
        expect(Array.from(found.get('h2') ?? [])).toEqual(Array.from(NORTH_EAST));
      });

      it('misses for a different model name', async () => {
        await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);

        expect((await store.getCachedEmbeddings('tiny-4-v2', ['h1'])).size).toBe(0);
      });

      it('overwrites a cached embedding with the same model and hash', async () => {
        await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);
        await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: NORTH }]);

        const found = await store.getCachedEmbeddings('tiny-4', ['h1']);

        expect(Array.from(found.get('h1') ?? [])).toEqual(Array.from(NORTH));
      });
    });

    describe('statistics', () => {
      it('counts one tenant’s memories by state, kind, tier and scope, and its vectors', async () => {
        await store.setIndexInfo({ model: 'tiny-4', dimensions: 4 });
        await insert(
          entry(makeMemory({ id: 'a', kind: 'fact', tier: 'must', scope: 'user:alice' }), EAST),
          entry(makeMemory({ id: 'b', kind: 'preference', tier: 'nice', scope: 'user:alice' }), NORTH),
          entry(makeMemory({ id: 'c', kind: 'fact', tier: 'unknown', scope: 'project:x' })),
          entry(makeMemory({ id: 'archived', kind: 'note', archivedAt: minutesAfterEpoch(1) }), UP),
          entry(makeMemory({ id: 'superseded', kind: 'note', supersededBy: 'a' })),
          entry(makeMemory({ id: 'theirs-1', tenant: OTHER_TENANT, kind: 'goal' }), EAST),
          entry(makeMemory({ id: 'theirs-2', tenant: OTHER_TENANT, kind: 'goal' }), NORTH),
        );
        await store.putCachedEmbeddings('tiny-4', [{ hash: 'h1', vector: EAST }]);

        const stats = await store.stats(TENANT);

        expect(stats).toMatchObject({
          memories: 5,
          live: 3,
          archived: 1,
          superseded: 1,
          byKind: { fact: 2, preference: 1 },
          byTier: { must: 1, nice: 1, unknown: 1 },
          byScope: { 'user:alice': 2, 'project:x': 1 },
          vectors: 3,
          cachedEmbeddings: 1,
          index: { model: 'tiny-4', dimensions: 4 },
        });
        expect(Object.keys(stats.byKind).sort()).toEqual(['fact', 'preference']);
        expect(stats.schemaVersion).toBeGreaterThan(0);
      });

      it('counts nothing for an empty store', async () => {
        const { memories, live, archived, superseded, byKind, byTier, byScope, vectors, cachedEmbeddings, index } =
          await store.stats(TENANT);

        expect({ memories, live, archived, superseded, byKind, byTier, byScope, vectors, cachedEmbeddings, index }).toEqual({
          memories: 0,
          live: 0,
          archived: 0,
          superseded: 0,
          byKind: {},
          byTier: {},
          byScope: {},
          vectors: 0,
          cachedEmbeddings: 0,
          index: null,
        });
      });
    });
  });
}
