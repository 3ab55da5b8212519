/**
 * Seed 001's retrieval cooldown end to end, with an injected clock: retrieval times survive a
 * restart, an explicit search cools a memory down for the next intrusive and active recall,
 * and the receipt says "cooled down" rather than "below threshold".
 */
import { describe, expect, it } from 'vitest';

import { activate } from '../src/activation/activate.js';
import { intrusiveRecallSettings } from '../src/activation/settings.js';
import { parseConfig } from '../src/config/load.js';
import { retrievalSettings } from '../src/engram/search-request.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { entryFor, hotIds, openTestEngram, sharedEmbedder } from './activation-helpers.js';

const MINUTE = 60_000;
const FACT = 'The merge loop can stall when the specificity setting is too strict';
const QUERY = 'Why does the merge loop stall?';

/** Runs intrusive recall (seed 001) for `query` directly on the database at `file`. */
async function intrusiveRecall(file: string, query: string, now: Date, config = parseConfig({})) {
  const store = new SqliteStore(file);
  try {
    return await activate({
      store,
      embedder: sharedEmbedder,
      tenant: config.store.tenant,
      sessionId: null,
      turn: 1,
      path: 'intrusive',
      query,
      scopes: ['global'],
      now,
      settings: intrusiveRecallSettings(config),
      retrieval: retrievalSettings(config),
      receiptId: 'receipt-1',
    });
  } finally {
    await store.close();
  }
}

describe('retrieval cooldown', () => {
  it('penalises a memory just retrieved by an explicit search on the next intrusive recall, across a restart', async () => {
    const { engram, clock, file } = await openTestEngram();
    const fact = await engram.remember(FACT);
    const before = await intrusiveRecall(file, QUERY, clock.now());
    expect(hotIds(before.receipt)).toEqual([fact.id]);

    await engram.search({ query: 'merge loop stall', cooldown: true });
    await engram.close();
    clock.advance(5 * MINUTE);
    const after = await intrusiveRecall(file, QUERY, clock.now());

    const entry = entryFor(after.receipt, fact.id);
    expect(hotIds(after.receipt)).toEqual([]);
    expect(entry?.outcome).toBe('cooled_down');
    expect(after.receipt.cooledDown).toEqual([fact.id]);
    // seed 001: effective = raw × (1 − e^(−t/τ)), t = 300 s, τ = 1800 s
    expect(entry?.factors?.cooldown).toBeCloseTo(1 - Math.exp(-300 / 1800), 10);
    expect(entry?.factors?.effectiveRelevance).toBeCloseTo((entry?.factors?.relevance ?? 0) * (1 - Math.exp(-300 / 1800)), 10);
  });

  it('lets the memory back once it has recovered', async () => {
    const { engram, clock, file } = await openTestEngram({ memory: { cooldown: { decay: 'binary', seconds: 600 } } });
    const fact = await engram.remember(FACT);
    await engram.search({ query: 'merge loop stall' });
    await engram.close();

    clock.advance(9 * MINUTE);
    const cooling = await intrusiveRecall(
      file,
      QUERY,
      clock.now(),
      parseConfig({ memory: { cooldown: { decay: 'binary', seconds: 600 } } }),
    );
    clock.advance(2 * MINUTE);
    const recovered = await intrusiveRecall(
      file,
      QUERY,
      clock.now(),
      parseConfig({ memory: { cooldown: { decay: 'binary', seconds: 600 } } }),
    );

    expect(entryFor(cooling.receipt, fact.id)).toMatchObject({ outcome: 'cooled_down', factors: { cooldown: 0 } });
    expect(hotIds(recovered.receipt)).toEqual([fact.id]);
  });

  it('cools down active recall when its path is listed, and leaves it alone by default', async () => {
    for (const [paths, expected] of [
      [['explicit', 'active', 'intrusive'], 'cooled_down'],
      [undefined, 'quota'],
    ] as const) {
      const { engram, clock } = await openTestEngram({ memory: { cooldown: paths ? { paths: [...paths] } : {} } });
      const fact = await engram.remember({ text: FACT, tier: 'nice' });
      await engram.search({ query: 'merge loop stall' });
      clock.advance(MINUTE);

      const { receipt } = await engram.session().beforeTurn(QUERY);

      expect(entryFor(receipt, fact.id)?.outcome).toBe(expected);
      await engram.close();
    }
  });

  it('penalises explicit recall only when asked, as the agent’s search tool does', async () => {
    const { engram, clock } = await openTestEngram({ memory: { cooldown: { decay: 'linear', seconds: 600 } } });
    await engram.remember(FACT);
    const [first] = await engram.search('merge loop stall');
    clock.advance(3 * MINUTE);

    const [plain] = await engram.search({ query: 'merge loop stall', recordRetrieval: false });
    const [cooled] = await engram.search({ query: 'merge loop stall', cooldown: true });

    expect(plain?.relevance).toBeCloseTo(first?.relevance ?? 0, 10);
    expect(cooled?.factors.cooldown).toBeCloseTo(0.3, 10);
    expect(cooled?.relevance).toBeCloseTo((first?.relevance ?? 0) * 0.3, 10);
    await engram.close();
  });
});
