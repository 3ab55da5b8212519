/**
 * A question that pins a day, through the engine on a real SQLite file with the local model:
 * the turn of that day is found over the same person's turns of other days that name the same
 * place, whichever way the day is written, and the hit says the path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Engram, manualClock, type Memory, openEngram } from '../src/index.js';

const said = (speaker: string, words: string) => `${speaker} said, "${words}"`;

/** Elise's turns over three weeks: Miami in all of them, New Year's Eve in one. */
const DAYS: readonly (readonly [string, string, string])[] = [
  ['2023-12-20T18:00:00.000Z', 'Elise', 'Where was I all week? In Miami, I was in Miami with my cousins the whole week.'],
  ['2023-12-20T18:05:00.000Z', 'Kate', 'Lucky you! I was stuck at home the whole week.'],
  ['2023-12-27T19:00:00.000Z', 'Elise', 'Miami again today, I was at the beach in Miami all afternoon.'],
  ['2024-01-01T17:00:00.000Z', 'Elise', 'We had dinner with family out in Miami and watched the fireworks at midnight.'],
  ['2024-01-01T17:03:00.000Z', 'Kate', 'That sounds like a great way to start the year.'],
  ['2024-01-08T20:00:00.000Z', 'Elise', 'Back in Miami for a week, I was at a friend’s place in Miami.'],
];

describe('a day pinned in the question', () => {
  let dir: string;
  let engram: Engram;
  const turns: Memory[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-pinned-day-'));
    engram = await openEngram({ path: path.join(dir, 'engram.db'), clock: manualClock('2024-01-20T12:00:00.000Z') });
    for (const [occurredAt, speaker, words] of DAYS) {
      turns.push(
        await engram.remember({ text: said(speaker, words), kind: 'episode', sessionId: occurredAt.slice(0, 10), occurredAt }),
      );
    }
  }, 60_000);
  afterAll(async () => {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newYear = () => turns[3]!;

  it.each(['Where was Elise on 31 Dec 2023?', 'Where was Elise on 31.12.2023?', 'Where was Elise on December 31st?'])(
    'finds the turn of the day %j pins over her other days’ turns naming Miami',
    async (query) => {
      const hits = await engram.search({ query, limit: 3, recordRetrieval: false });
      expect(hits[0]?.memory.id).toBe(newYear().id);
      expect(hits[0]?.via).toBe('Elise → Miami; on 2023-12-31');
    },
  );

  it('ranks her other days first when the question pins no day', async () => {
    const hits = await engram.search({ query: 'Where was Elise?', limit: 3, recordRetrieval: false });
    expect(hits[0]?.memory.id).not.toBe(newYear().id);
    expect(hits.every((hit) => !String(hit.via).includes(' on '))).toBe(true);
  });
});
