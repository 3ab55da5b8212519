/**
 * Session.startTurn: active recall decided, its writing left to the caller. Nothing of the turn
 * is stored until `write()` — the receipt and the injections — and then it is stored as
 * `beforeTurn` stores it.
 */
import { describe, expect, it } from 'vitest';

import { hotIds, openTestEngram } from './activation-helpers.js';

describe('Session.startTurn', () => {
  it('returns the turn before writing it, and write() stores what beforeTurn would', async () => {
    const { engram } = await openTestEngram();
    const fact = await engram.remember('The merge loop can stall when specificity is too strict; 0.4 works.');
    const session = engram.session({ id: 'later' });

    const prepared = await session.startTurn('Why does the merge loop stall?');

    expect(prepared.result.memories.map((memory) => memory.id)).toEqual([fact.id]);
    expect(await engram.receipts({ sessionId: 'later', limit: 5 })).toEqual([]);
    expect(await engram.injections(fact.id)).toEqual([]);

    await prepared.write();

    const [receipt] = await engram.receipts({ sessionId: 'later', limit: 5 });
    expect(receipt?.id).toBe(prepared.result.receipt?.id);
    expect(hotIds(receipt ?? null)).toEqual([fact.id]);
    expect((await engram.injections(fact.id)).map((i) => [i.sessionId, i.turn, i.lane])).toEqual([['later', 1, 'hot']]);
    await engram.close();
  });
});
