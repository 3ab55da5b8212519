/**
 * The lexical search part of the Store contract: stemming, ranking, the fields searched,
 * filters, tenants, limits, and hostile query text that must never throw. It writes its memories
 * through the memories part.
 */
import { beforeEach, describe, expect, it } from 'vitest';

import type { LexicalSearch, MemoryEntry, MemoryFilter, MemoryStore } from '../../src/store/store.js';
import { makeMemory, minutesAfterEpoch, OTHER_TENANT } from '../fixtures/memory.js';
import { ALL, entry } from './fixtures.js';
import { idsOf } from './helpers.js';

/** Runs the lexical search contract against the store of the current test (see `freshStoreForEachTest`). */
export function lexicalSearchContract(current: () => MemoryStore & LexicalSearch): void {
  let store: MemoryStore & LexicalSearch;
  beforeEach(() => {
    store = current();
  });
  const insert = (...entries: MemoryEntry[]) => store.commit({ insert: entries });

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

    it('finds a memory by an emoji it holds, and not by one it does not', async () => {
      await insert(
        entry(makeMemory({ id: 'launch', text: 'Emoji test 🚀🔥 launch day' })),
        entry(makeMemory({ id: 'pizza', text: 'Friday is 🍕 night' })),
        entry(makeMemory({ id: 'plain', text: 'The rocket launch is on Monday' })),
      );

      expect(idsOf(await store.searchLexical(ALL, '🚀', 10))).toEqual(['launch']);
      expect(idsOf(await store.searchLexical(ALL, '🍕', 10))).toEqual(['pizza']);
      expect(await store.searchLexical(ALL, '🦄', 10)).toEqual([]);
    });

    it('finds Chinese, Japanese and Korean text by a word inside a run of characters', async () => {
      await insert(
        entry(makeMemory({ id: 'ja', text: 'ユーザーは日本語での回答を好みます' })),
        entry(makeMemory({ id: 'zh', text: '我们下周去北京开会' })),
        entry(makeMemory({ id: 'ko', text: '사용자는 한국어로 답변을 선호합니다' })),
        entry(makeMemory({ id: 'en', text: 'The user prefers answers in English' })),
      );

      expect(idsOf(await store.searchLexical(ALL, '日本語', 10))).toEqual(['ja']);
      expect(idsOf(await store.searchLexical(ALL, '北京', 10))).toEqual(['zh']);
      expect(idsOf(await store.searchLexical(ALL, '한국어', 10))).toEqual(['ko']);
      expect(idsOf(await store.searchLexical(ALL, '"日本語で"', 10))).toEqual(['ja']);
      expect(await store.searchLexical(ALL, '天気はどうですか', 10)).toEqual([]);
    });

    it('finds CJK words and emoji in the abstract, tags and context too', async () => {
      await insert(
        entry(makeMemory({ id: 'by-abstract', text: 'a note', abstract: '東京の天気' })),
        entry(makeMemory({ id: 'by-tag', text: 'another note', tags: ['🎉'] })),
        entry(makeMemory({ id: 'by-context', text: 'a third note', context: '大阪で会議' })),
      );

      expect(idsOf(await store.searchLexical(ALL, '東京', 10))).toEqual(['by-abstract']);
      expect(idsOf(await store.searchLexical(ALL, '🎉', 10))).toEqual(['by-tag']);
      expect(idsOf(await store.searchLexical(ALL, '大阪', 10))).toEqual(['by-context']);
    });

    it('finds a memory by its new CJK words after its text changes, and no longer by the old', async () => {
      await insert(entry(makeMemory({ id: 'edited', text: '明日は京都に行きます' })));
      const memory = makeMemory({ id: 'edited', text: '明日は奈良に行きます 🦌' });
      await store.commit({ update: [{ memory }] });

      expect(idsOf(await store.searchLexical(ALL, '奈良', 10))).toEqual(['edited']);
      expect(idsOf(await store.searchLexical(ALL, '🦌', 10))).toEqual(['edited']);
      expect(await store.searchLexical(ALL, '京都', 10)).toEqual([]);
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
}
