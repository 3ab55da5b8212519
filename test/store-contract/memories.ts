/**
 * The memories part of the Store contract: writing memories and reading them back by id, by
 * key, listed, counted and iterated, deleting them, and stamping their retrieval. It needs only a
 * `MemoryStore`; what a write does to the search indexes is in `memory-indexing.ts`.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { MemoryEntry, MemoryFilter, MemoryStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT, TENANT } from '../fixtures/memory.js';
import { EAST, NORTH } from '../fixtures/vectors.js';
import { ALL, entry } from './fixtures.js';
import { attempt, collect, idsOf } from './helpers.js';
import { memorySpreadContract } from './memory-spread.js';
import { sessionTurnsContract } from './session-turns.js';

/** Runs the memories contract against the store of the current test (see `freshStoreForEachTest`). */
export function memoryStoreContract(current: () => MemoryStore): void {
  let store: MemoryStore;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

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

    it('reports a refused change as a rejected promise, never as a synchronous throw', async () => {
      await insert(entry(makeMemory({ id: 'existing' })));
      let outcome: Promise<void> | undefined;

      expect(() => {
        outcome = insert(entry(makeMemory({ id: 'existing' })));
      }).not.toThrow();
      await expect(outcome).rejects.toThrow();
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

    it('with replaceKeyHolders, supersedes a holder of the key that another writer committed since this one looked', async () => {
      // Both writers saw no holder; the other committed first.
      await insert(entry(makeMemory({ id: 'theirs', key: 'editor', createdAt: minutesAfterEpoch(1) })));

      await store.commit({
        insert: [entry(makeMemory({ id: 'mine', key: 'editor', createdAt: minutesAfterEpoch(2) }))],
        replaceKeyHolders: true,
      });

      expect((await store.findByKey(TENANT, 'user:alice', 'editor'))?.id).toBe('mine');
      expect(await store.getMemory(TENANT, 'theirs')).toMatchObject({ supersededBy: 'mine', updatedAt: minutesAfterEpoch(2) });
    });

    it('with replaceKeyHolders, keeps the pointer of a holder another writer superseded first, in one chain', async () => {
      const first = makeMemory({ id: 'first', key: 'editor' });
      await insert(entry(first));
      // Both writers read `first` as the holder; the other committed first.
      await store.commit({
        insert: [entry(makeMemory({ id: 'theirs', key: 'editor' }))],
        update: [{ memory: { ...first, supersededBy: 'theirs' } }],
        replaceKeyHolders: true,
      });

      await store.commit({
        insert: [entry(makeMemory({ id: 'mine', key: 'editor' }))],
        update: [{ memory: { ...first, supersededBy: 'mine' } }],
        replaceKeyHolders: true,
      });

      expect((await store.getMemory(TENANT, 'first'))?.supersededBy).toBe('theirs');
      expect((await store.getMemory(TENANT, 'theirs'))?.supersededBy).toBe('mine');
      expect((await store.findByKey(TENANT, 'user:alice', 'editor'))?.id).toBe('mine');
    });
  });

  describe('purging memories', () => {
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

  describe('listing by flag and state', () => {
    async function insertFlagged() {
      await insert(
        entry(makeMemory({ id: 'pinned', createdAt: minutesAfterEpoch(0), pinned: true })),
        entry(makeMemory({ id: 'rule', createdAt: minutesAfterEpoch(1), hardRule: true })),
        entry(makeMemory({ id: 'both', createdAt: minutesAfterEpoch(2), pinned: true, hardRule: true, kind: 'decision' })),
        entry(makeMemory({ id: 'plain', createdAt: minutesAfterEpoch(3) })),
        entry(makeMemory({ id: 'archived', createdAt: minutesAfterEpoch(4), pinned: true, archivedAt: minutesAfterEpoch(9) })),
        entry(makeMemory({ id: 'superseded', createdAt: minutesAfterEpoch(5), supersededBy: 'plain' })),
        entry(
          makeMemory({ id: 'gone', createdAt: minutesAfterEpoch(6), supersededBy: 'plain', archivedAt: minutesAfterEpoch(9) }),
        ),
        entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, pinned: true, archivedAt: minutesAfterEpoch(9) })),
      );
    }
    const oldest = { limit: 10, order: 'oldest' } as const;

    it('lists only pinned or only hard-rule memories, live ones unless asked otherwise', async () => {
      await insertFlagged();

      expect(idsOf(await store.listMemories({ ...ALL, onlyPinned: true }, oldest))).toEqual(['pinned', 'both']);
      expect(idsOf(await store.listMemories({ ...ALL, onlyHardRule: true }, oldest))).toEqual(['rule', 'both']);
      expect(idsOf(await store.listMemories({ ...ALL, onlyPinned: true, onlyHardRule: true }, oldest))).toEqual(['both']);
      expect(idsOf(await store.listMemories({ ...ALL, onlyPinned: true, includeArchived: true }, oldest))).toEqual([
        'pinned',
        'both',
        'archived',
      ]);
      expect(idsOf(await store.listMemories({ ...ALL, onlyPinned: true, kinds: ['decision'] }, oldest))).toEqual(['both']);
    });

    it('lists only archived or only superseded memories, with or without the other state', async () => {
      await insertFlagged();

      expect(idsOf(await store.listMemories({ ...ALL, onlyArchived: true }, oldest))).toEqual(['archived']);
      expect(idsOf(await store.listMemories({ ...ALL, onlyArchived: true, includeSuperseded: true }, oldest))).toEqual([
        'archived',
        'gone',
      ]);
      expect(idsOf(await store.listMemories({ ...ALL, onlySuperseded: true }, oldest))).toEqual(['superseded']);
      expect(idsOf(await store.listMemories({ ...ALL, onlySuperseded: true, includeArchived: true }, oldest))).toEqual([
        'superseded',
        'gone',
      ]);
      expect(idsOf(await store.listMemories({ ...ALL, onlyArchived: true, onlySuperseded: true }, oldest))).toEqual(['gone']);
      expect(idsOf(await store.listMemories({ ...ALL, onlyArchived: true, onlyPinned: true }, oldest))).toEqual(['archived']);
    });

    it('counts exactly the memories each flag and state lists', async () => {
      await insertFlagged();
      const filters: MemoryFilter[] = [
        { ...ALL, onlyPinned: true },
        { ...ALL, onlyHardRule: true, includeArchived: true, includeSuperseded: true },
        { ...ALL, onlyArchived: true, includeSuperseded: true },
        { ...ALL, onlySuperseded: true },
        { tenant: OTHER_TENANT, onlyArchived: true, onlyPinned: true },
      ];

      for (const filter of filters) {
        const listed = await store.listMemories(filter, { limit: 100 });
        expect(await store.countMemories(filter), JSON.stringify(filter)).toBe(listed.length);
      }
    });
  });

  describe('paging from a memory', () => {
    async function insertRun(count: number) {
      // Two memories share each minute, so ties are broken the same way on every page.
      for (let i = 0; i < count; i++) {
        await insert(entry(makeMemory({ id: `m${i}`, createdAt: minutesAfterEpoch(Math.floor(i / 2)), pinned: i % 3 === 0 })));
      }
    }

    it('reads on after the last memory of a page, to the end, in both orders', async () => {
      await insertRun(7);
      const all = idsOf(await store.listMemories(ALL, { limit: 100 }));

      const pages: string[][] = [];
      let after: string | undefined;
      for (;;) {
        const page = idsOf(await store.listMemories(ALL, { limit: 3, after }));
        if (page.length === 0) break;
        pages.push(page);
        after = page.at(-1);
      }
      expect(pages.flat()).toEqual(all);
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);

      const fromOldest = idsOf(await store.listMemories(ALL, { limit: 3, after: 'm2', order: 'oldest' }));
      expect(fromOldest).toEqual(all.slice().reverse().slice(3, 6));
    });

    it('reads back the page just before a memory, still in the list’s order', async () => {
      await insertRun(7);
      const all = idsOf(await store.listMemories(ALL, { limit: 100 }));
      const at = all.indexOf('m1');

      expect(idsOf(await store.listMemories(ALL, { limit: 3, before: 'm1' }))).toEqual(all.slice(at - 3, at));
      expect(idsOf(await store.listMemories(ALL, { limit: 10, before: all[1] as string }))).toEqual(all.slice(0, 1));
      expect(await store.listMemories(ALL, { limit: 3, before: all[0] as string })).toEqual([]);
      const oldestFirst = all.slice().reverse();
      expect(idsOf(await store.listMemories(ALL, { limit: 2, before: 'm4', order: 'oldest' }))).toEqual(
        oldestFirst.slice(oldestFirst.indexOf('m4') - 2, oldestFirst.indexOf('m4')),
      );
    });

    it('pages a filtered list from a memory the filter leaves out', async () => {
      await insertRun(9);
      const pinned = { ...ALL, onlyPinned: true };

      expect(idsOf(await store.listMemories(pinned, { limit: 10 }))).toEqual(['m6', 'm3', 'm0']);
      expect(idsOf(await store.listMemories(pinned, { limit: 10, after: 'm5' }))).toEqual(['m3', 'm0']);
      expect(idsOf(await store.listMemories(pinned, { limit: 10, before: 'm5' }))).toEqual(['m6']);
    });

    it('refuses to page from a memory it does not have, or from two places at once', async () => {
      await insertRun(3);
      await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT })));

      await expect(store.listMemories(ALL, { limit: 2, after: 'nothing' })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.listMemories(ALL, { limit: 2, before: 'theirs' })).rejects.toMatchObject({ code: 'invalid_input' });
      await expect(store.listMemories(ALL, { limit: 2, after: 'm0', before: 'm2' })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    });
  });

  describe('activation filters', () => {
    it('filters pinned or hard-rule memories and leaves out excluded kinds', async () => {
      await store.commit({
        insert: [
          entry(makeMemory({ id: 'pinned', pinned: true })),
          entry(makeMemory({ id: 'rule', hardRule: true, kind: 'constraint' })),
          entry(makeMemory({ id: 'plain' })),
          entry(makeMemory({ id: 'ws', kind: 'working_set' })),
        ],
      });

      const pinned = await store.listMemories({ tenant: TENANT, pinnedOrHardRule: true }, { limit: 10, order: 'oldest' });
      const notWorkingSet = await store.listMemories(
        { tenant: TENANT, excludeKinds: ['working_set', 'constraint'] },
        { limit: 10, order: 'oldest' },
      );

      expect(pinned.map((m) => m.id)).toEqual(['pinned', 'rule']);
      expect(notWorkingSet.map((m) => m.id)).toEqual(['pinned', 'plain']);
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

  describe('session neighbours', () => {
    /** Turns t0…t5 of session s1, stored in order; t2 and t3 share a timestamp, as turns often do. */
    const conversation = () =>
      insert(
        ...[0, 1, 2, 2, 3, 4].map((minute, i) =>
          entry(
            makeMemory({ id: `t${i}`, sessionId: 's1', occurredAt: minutesAfterEpoch(minute), createdAt: minutesAfterEpoch(i) }),
          ),
        ),
      );

    it('lists the turns before and after each memory in its session, nearest first, up to the radius', async () => {
      await conversation();
      await insert(entry(makeMemory({ id: 'other-session', sessionId: 's2', occurredAt: minutesAfterEpoch(2) })));

      expect(await store.listSessionNeighbours(ALL, ['t2'], 2)).toEqual([
        { memoryId: 't1', of: 't2', distance: 1 },
        { memoryId: 't3', of: 't2', distance: 1 },
        { memoryId: 't0', of: 't2', distance: 2 },
        { memoryId: 't4', of: 't2', distance: 2 },
      ]);
      // One side runs out at the session's edge; each memory asked for is answered in order.
      expect(await store.listSessionNeighbours(ALL, ['t5', 't0'], 1)).toEqual([
        { memoryId: 't4', of: 't5', distance: 1 },
        { memoryId: 't1', of: 't0', distance: 1 },
      ]);
    });

    it('orders turns by when they occurred, then by storing order, whatever the ids', async () => {
      await insert(
        entry(makeMemory({ id: 'z-first', sessionId: 's', occurredAt: minutesAfterEpoch(1) })),
        entry(makeMemory({ id: 'a-second', sessionId: 's', occurredAt: minutesAfterEpoch(1) })),
        entry(makeMemory({ id: 'm-earlier', sessionId: 's', occurredAt: minutesAfterEpoch(0) })),
      );

      expect(idsOfNeighbours(await store.listSessionNeighbours(ALL, ['z-first'], 1))).toEqual(['m-earlier', 'a-second']);
    });

    it('skips turns the filter does not admit and answers nothing for a memory without a session', async () => {
      await conversation();
      await store.commit({
        update: [
          {
            memory: makeMemory({ id: 't3', sessionId: 's1', occurredAt: minutesAfterEpoch(2), archivedAt: minutesAfterEpoch(9) }),
          },
        ],
      });
      await insert(entry(makeMemory({ id: 'loose' })));

      expect(idsOfNeighbours(await store.listSessionNeighbours(ALL, ['t2'], 1))).toEqual(['t1', 't4']);
      expect(await store.listSessionNeighbours(ALL, ['loose', 'missing'], 3)).toEqual([]);
      expect(await store.listSessionNeighbours(ALL, ['t2'], 0)).toEqual([]);
    });

    it('answers for a memory the filter does not admit from its place among the turns it does', async () => {
      await conversation();
      await store.commit({
        update: [
          {
            memory: makeMemory({ id: 't3', sessionId: 's1', occurredAt: minutesAfterEpoch(2), archivedAt: minutesAfterEpoch(9) }),
          },
        ],
      });

      for (let i = 0; i < 3; i++) {
        expect(await store.listSessionNeighbours(ALL, ['t3', 't2'], 2)).toEqual([
          { memoryId: 't2', of: 't3', distance: 1 },
          { memoryId: 't4', of: 't3', distance: 1 },
          { memoryId: 't1', of: 't3', distance: 2 },
          { memoryId: 't5', of: 't3', distance: 2 },
          { memoryId: 't1', of: 't2', distance: 1 },
          { memoryId: 't4', of: 't2', distance: 1 },
          { memoryId: 't0', of: 't2', distance: 2 },
          { memoryId: 't5', of: 't2', distance: 2 },
        ]);
      }
    });

    it('answers anew after a turn is archived, restored, added or purged', async () => {
      await conversation();
      /** The turns beside t2 and t4, asked three times: the same each time (a store may keep what it read). */
      const beside = async () => {
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push(idsOfNeighbours(await store.listSessionNeighbours(ALL, ['t2', 't4'], 1)));
        expect(new Set(answers.map((answer) => answer.join()))).toHaveLength(1);
        return answers[0];
      };
      const t3 = makeMemory({ id: 't3', sessionId: 's1', occurredAt: minutesAfterEpoch(2), createdAt: minutesAfterEpoch(3) });
      expect(await beside()).toEqual(['t1', 't3', 't3', 't5']);

      await store.commit({ update: [{ memory: { ...t3, archivedAt: minutesAfterEpoch(9) } }] });
      expect(await beside()).toEqual(['t1', 't4', 't2', 't5']);

      await store.commit({ update: [{ memory: t3 }] });
      // Late occurs with t4 and is stored after it: it comes right after t4.
      await insert(entry(makeMemory({ id: 'late', sessionId: 's1', occurredAt: minutesAfterEpoch(3) })));
      expect(await beside()).toEqual(['t1', 't3', 't3', 'late']);

      await store.purgeMemories(TENANT, ['t3', 'late']);
      expect(await beside()).toEqual(['t1', 't4', 't2', 't5']);
    });

    it('answers each filter with the turns it admits', async () => {
      await conversation();
      await store.commit({
        update: [
          {
            memory: makeMemory({
              id: 't3',
              sessionId: 's1',
              occurredAt: minutesAfterEpoch(2),
              createdAt: minutesAfterEpoch(3),
              tier: 'must',
            }),
          },
        ],
      });

      for (let i = 0; i < 3; i++) {
        expect(idsOfNeighbours(await store.listSessionNeighbours(ALL, ['t2'], 1))).toEqual(['t1', 't3']);
        expect(idsOfNeighbours(await store.listSessionNeighbours({ ...ALL, tiers: ['unknown'] }, ['t2'], 1))).toEqual([
          't1',
          't4',
        ]);
      }
    });

    it('stays within the tenant', async () => {
      await conversation();
      await insert(entry(makeMemory({ id: 'theirs', tenant: OTHER_TENANT, sessionId: 's1', occurredAt: minutesAfterEpoch(2) })));

      expect(await store.listSessionNeighbours({ tenant: OTHER_TENANT }, ['t2'], 2)).toEqual([]);
      expect(idsOfNeighbours(await store.listSessionNeighbours(ALL, ['t2'], 5))).not.toContain('theirs');
    });
  });

  sessionTurnsContract(current);
  memorySpreadContract(current);

  describe('the change mark', () => {
    const a = makeMemory({ id: 'a', updatedAt: minutesAfterEpoch(1) });

    it('stays while nothing is written, and through retrieval stamps', async () => {
      await insert(entry(a, EAST));
      const mark = await store.memoryChangeMark(TENANT);

      expect(await store.memoryChangeMark(TENANT)).toBe(mark);
      await store.recordRetrieval(TENANT, ['a'], minutesAfterEpoch(10));
      expect(await store.memoryChangeMark(TENANT)).toBe(mark);
    });

    it('moves when a memory is added, changed, archived, given another vector or purged', async () => {
      await insert(entry(a, EAST));
      const marks = [await store.memoryChangeMark(TENANT)];
      const moved = async () => {
        const mark = await store.memoryChangeMark(TENANT);
        expect(marks).not.toContain(mark);
        marks.push(mark);
      };

      await insert(entry(makeMemory({ id: 'b' })));
      await moved();
      await store.commit({ update: [{ memory: { ...a, text: 'changed', updatedAt: minutesAfterEpoch(2) } }] });
      await moved();
      await store.commit({ update: [{ memory: { ...a, archivedAt: minutesAfterEpoch(3), updatedAt: minutesAfterEpoch(3) } }] });
      await moved();
      await store.commit({ update: [{ memory: a, vector: NORTH }] });
      await moved();
      await store.purgeMemories(TENANT, ['b']);
      await moved();
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
}

const idsOfNeighbours = (neighbours: readonly { memoryId: string }[]) => neighbours.map((n) => n.memoryId);
