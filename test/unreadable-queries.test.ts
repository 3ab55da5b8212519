/**
 * Queries the built-in model cannot read, tried as a new user would, on a real SQLite file with
 * the real local model: emoji and Japanese queries once matched any memory the model could not
 * read either at relevance 0.70 (every unknown character embeds alike, cosine 1.00), above the
 * 0.6 at which active recall injects. Now the cosine counts only as far as the model reads the
 * query, and CJK words and emoji are found by their characters.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Engram, manualClock, openEngram, type SearchHit } from '../src/index.js';
import { runJson, runOk } from './cli/helpers.js';

const JAPANESE = 'ユーザーは日本語での回答を好みます';
const EMOJI = 'Emoji test 🚀🔥 launch day';
const ACTIVE_RECALL_THRESHOLD = 0.6;

describe('queries the local model cannot read', () => {
  let directory: string;
  let engram: Engram;

  beforeAll(async () => {
    directory = mkdtempSync(path.join(tmpdir(), 'engram-unreadable-'));
    engram = await openEngram({
      path: path.join(directory, 'engram.db'),
      config: { embedding: { workers: 0 } },
      clock: manualClock('2026-06-01T00:00:00.000Z'),
    });
    for (const text of [
      JAPANESE,
      EMOJI,
      'We chose PostgreSQL for billing because the team already runs it',
      'The cat sleeps on the sofa every afternoon',
      'Alice prefers green tea in the morning',
    ]) {
      await engram.remember(text);
    }
  });
  afterAll(async () => {
    await engram.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const search = (query: string, mode?: 'hybrid' | 'dense' | 'bm25') =>
    engram.search({ query, recordRetrieval: false, ...(mode ? { mode } : {}) });
  const hitOf = (hits: SearchHit[], text: string) => hits.find((hit) => hit.memory.text === text);

  it.each(['🍕', '🚀', '天気はどうですか'])(
    'keeps %s, which shares no character with the Japanese memory, below active recall’s threshold on it',
    async (query) => {
      for (const mode of ['hybrid', 'dense'] as const) {
        const japanese = hitOf(await search(query, mode), JAPANESE);
        expect(japanese?.relevance ?? 0, mode).toBeLessThan(ACTIVE_RECALL_THRESHOLD);
      }
    },
  );

  it('counts none of the cosine of a query the model reads none of', async () => {
    for (const query of ['🍕', '日本語', '天気はどうですか']) {
      for (const hit of await search(query, 'hybrid')) expect(hit.signals.cosine, query).toBe(0);
      expect(await search(query, 'dense'), query).toEqual([]);
    }
  });

  it('finds the Japanese memory by 日本語, by its characters alone', async () => {
    const [hit, ...rest] = await search('日本語');
    expect(hit?.memory.text).toBe(JAPANESE);
    expect(hit?.signals).toMatchObject({ coverage: 1, cosine: 0, bm25: expect.any(Number) });
    expect(rest).toEqual([]);
    expect((await search('日本語', 'bm25')).map((h) => h.memory.text)).toEqual([JAPANESE]);
  });

  it('finds the emoji memory by 🚀, by lexical search, and nothing by an emoji no memory holds', async () => {
    expect((await search('🚀', 'bm25')).map((hit) => hit.memory.text)).toEqual([EMOJI]);
    expect((await search('🚀')).map((hit) => hit.memory.text)).toEqual([EMOJI]);
    expect(await search('🍕')).toEqual([]);
  });

  it('injects no memory into a turn whose message is 🍕 or 天気はどうですか (active recall)', async () => {
    const session = engram.session({ id: 'unreadable' });
    await session.start();
    for (const message of ['🍕', '天気はどうですか']) {
      const { memories } = await session.beforeTurn(message);
      expect(
        memories.map((memory) => memory.text),
        message,
      ).toEqual([]);
    }
  });

  it('still counts the cosine of a query the model reads, as far as it reads it', async () => {
    const [english] = await search('which database do we use for billing?');
    expect(english?.memory.text).toMatch(/PostgreSQL/);
    expect(english?.relevance).toBeGreaterThan(ACTIVE_RECALL_THRESHOLD);
    const mixed = hitOf(await search('launch day 🚀'), EMOJI);
    expect(mixed?.signals.cosine).toBeGreaterThan(0);
    expect(mixed?.relevance).toBeGreaterThan(ACTIVE_RECALL_THRESHOLD);
  });

  it('says in engram stats, on screen and in JSON, that the built-in model reads English only and how to read others', async () => {
    const db = path.join(directory, 'engram.db');
    const stats = await runJson<{ embedder: string; embedderLanguages: { reads: string; otherLanguages: string } | null }>(
      ['stats', '--db', db],
      { cwd: directory },
    );
    expect(stats.embedder).toBe('local:universal-sentence-encoder-lite');
    expect(stats.embedderLanguages?.reads).toBe('English only');
    expect(stats.embedderLanguages?.otherLanguages).toMatch(/provider = "openai" with a multilingual model/);
    const screen = await runOk(['stats', '--db', db], { cwd: directory });
    expect(screen).toMatch(/^embedder +local:universal-sentence-encoder-lite \(reads English only\); vectors indexed with/m);
    expect(screen).toMatch(/^languages +other languages and emoji are found by their words and characters, not by meaning/m);
    expect(await engram.stats()).toMatchObject({ embedderLanguages: { reads: 'English only' } });
  });
});
