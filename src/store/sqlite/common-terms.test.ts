import { describe, expect, it } from 'vitest';

import { pickParts } from './common-terms.js';
import { SqliteStore } from './sqlite-store.js';

function storeWith(texts: readonly string[]): SqliteStore {
  const store = new SqliteStore(':memory:');
  const insert = store.connection.prepare(
    `INSERT INTO memories (id, tenant, scope, kind, tier, text, source, trust, occurred_at, created_at, updated_at)
     VALUES (?, 't', 'global', 'note', 'unknown', ?, 'user', 1, 0, 0, 0)`,
  );
  store.connection.transaction(() => texts.forEach((text, i) => insert.run(`m${i}`, text)))();
  return store;
}

const withoutCommonParts = (db: Parameters<typeof pickParts>[0], parts: string[]) => pickParts(db, parts).parts;

describe('leaving common words out of the full-text match', () => {
  // 30,000 rows: a part in more than 5% of them (1,500) is common.
  const texts = Array.from({ length: 30_000 }, (_, i) => `note ${i % 10 === 0 ? 'alice' : 'bob'}${i === 7 ? ' zebra' : ''}`);
  const store = storeWith(texts);

  it('drops common parts when a rarer one remains', () => {
    expect(withoutCommonParts(store.connection, ['"note"', '"alice"', '"zebra"'])).toEqual(['"zebra"']);
  });

  it('keeps only the longest part when every part is common', () => {
    expect(withoutCommonParts(store.connection, ['"note"', '"alice"'])).toEqual(['"alice"']);
  });

  it('ignores parts that match nothing', () => {
    expect(withoutCommonParts(store.connection, ['"missing"', '"note"'])).toEqual(['"note"']);
  });

  it('says when only common parts were left to choose from', () => {
    expect(pickParts(store.connection, ['"note"', '"alice"'])).toEqual({ parts: ['"alice"'], onlyCommon: true });
    expect(pickParts(store.connection, ['"note"', '"zebra"'])).toEqual({ parts: ['"zebra"'], onlyCommon: false });
  });

  it('lets a caller with vectors skip a search made only of common words', async () => {
    expect(await store.searchLexical({ tenant: 't' }, 'note alice', 5, { skipIfOnlyCommon: true })).toEqual([]);
    expect(await store.searchLexical({ tenant: 't' }, 'note alice', 5)).toHaveLength(5);
    expect(
      (await store.searchLexical({ tenant: 't' }, 'note zebra', 5, { skipIfOnlyCommon: true })).map((hit) => hit.id),
    ).toEqual(['m7']);
  });

  it('recalls a count until the store has grown by a tenth, then counts again', () => {
    const growing = storeWith(texts);
    const add = (count: number) => {
      const insert = growing.connection.prepare(
        `INSERT INTO memories (id, tenant, scope, kind, tier, text, source, trust, occurred_at, created_at, updated_at)
         VALUES (?, 't', 'global', 'note', 'unknown', 'note zebra', 'user', 1, 0, 0, 0)`,
      );
      const first = growing.connection.prepare(`SELECT count(*) FROM memories`).pluck().get() as number;
      growing.connection.transaction(() => {
        for (let i = 0; i < count; i++) insert.run(`z${first + i}`);
      })();
    };
    expect(pickParts(growing.connection, ['"note"', '"zebra"']).onlyCommon).toBe(false);
    add(1_600); // zebra is now in more than 5% of the rows, but the store grew by less than a tenth
    expect(pickParts(growing.connection, ['"note"', '"zebra"']).onlyCommon).toBe(false);
    add(1_500); // past a tenth: counted again
    expect(pickParts(growing.connection, ['"note"', '"zebra"'])).toEqual({ parts: ['"zebra"'], onlyCommon: true });
  });

  it('applies the 5% share from 5,000 rows up', () => {
    // 6,000 rows: "often" in 600 (10%), "sometimes" in 200, "once" in 1.
    const mid = storeWith(
      Array.from(
        { length: 6_000 },
        (_, i) => `${i < 600 ? 'often' : ''} ${i >= 1_000 && i < 1_200 ? 'sometimes' : ''} ${i === 5 ? 'once' : ''}`,
      ),
    );
    expect(pickParts(mid.connection, ['"often"', '"sometimes"'])).toEqual({ parts: ['"sometimes"'], onlyCommon: false });
    expect(pickParts(mid.connection, ['"often"', '"once"'])).toEqual({ parts: ['"once"'], onlyCommon: false });
    expect(pickParts(mid.connection, ['"often"'])).toEqual({ parts: ['"often"'], onlyCommon: true });
  });

  it('keeps every part in a small store, however common', () => {
    const small = storeWith(['note alice', 'note bob']);
    expect(withoutCommonParts(small.connection, ['"note"', '"alice"'])).toEqual(['"note"', '"alice"']);
    const smallish = storeWith(Array.from({ length: 4_000 }, (_, i) => `note ${i === 3 ? 'zebra' : ''}`));
    expect(withoutCommonParts(smallish.connection, ['"note"', '"zebra"'])).toEqual(['"note"', '"zebra"']);
  });
});
