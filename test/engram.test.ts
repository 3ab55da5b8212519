/**
 * The library API against a real SQLite file and the real local embedding model.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createLocalEmbedder, type Embedder, type Engram, EngramError, manualClock, openEngram } from '../src/index.js';

let directory: string;
let file: string;
const open: Engram[] = [];

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'engram-engine-'));
  file = path.join(directory, 'engram.db');
});
afterEach(async () => {
  for (const engram of open.splice(0)) await engram.close();
  rmSync(directory, { recursive: true, force: true });
});

async function engine(options: Parameters<typeof openEngram>[0] = {}): Promise<Engram> {
  const engram = await openEngram({ path: file, ...options });
  open.push(engram);
  return engram;
}

/** Counts how many texts reach the real model. */
function countingEmbedder(): Embedder & { texts: number } {
  const inner = createLocalEmbedder();
  const counter = {
    id: inner.id,
    dimensions: inner.dimensions,
    texts: 0,
    embed: async (texts: readonly string[]) => {
      counter.texts += texts.length;
      return inner.embed(texts);
    },
  };
  return counter;
}

async function errorOf(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(EngramError);
    return error as EngramError;
  }
  throw new Error('expected an EngramError');
}

describe('remember and search', () => {
  it('finds a decision by a question about it, after reopening the file', async () => {
    const first = await engine();
    const memory = await first.remember({ text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must' });
    await first.remember('The office plants need water on Fridays');
    await first.close();

    const second = await engine();
    const [top] = await second.search('which database for billing');
    expect(top?.memory.id).toBe(memory.id);
    expect(top?.memory.kind).toBe('decision');
    expect(top?.score).toBeGreaterThan(0);
    expect(top?.score).toBeLessThanOrEqual(1);
  });

  it('finds a memory by meaning when no word is shared', async () => {
    const engram = await engine();
    const memory = await engram.remember('Alice adopted a puppy last spring');
    await engram.remember('Quarterly revenue grew by four percent');
    const [top] = await engram.search('she got a new dog');
    expect(top?.memory.id).toBe(memory.id);
    expect(top?.signals.bm25).toBeNull();
    expect(top?.signals.cosine).toBeGreaterThan(0.3);
  });

  it('fills defaults and stamps times from the injected clock', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const engram = await engine({ clock, ids: () => 'fixed-id' });
    const memory = await engram.remember('Deploys happen on Tuesdays');
    expect(memory).toMatchObject({
      id: 'fixed-id',
      tenant: 'default',
      scope: 'global',
      kind: 'note',
      tier: 'unknown',
      pinned: false,
      hardRule: false,
      source: 'user',
      trust: 1,
      tags: [],
      occurredAt: '2026-03-01T10:00:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
      supersededBy: null,
      archivedAt: null,
      retrievalCount: 0,
    });
    expect(await engram.get('fixed-id')).toEqual(memory);
  });

  it('accepts the seed spellings must_remember and nice_to_have', async () => {
    const engram = await engine({ embedder: null });
    expect((await engram.remember({ text: 'a', tier: 'must_remember' })).tier).toBe('must');
    expect((await engram.remember({ text: 'b', tier: 'nice_to_have' })).tier).toBe('nice');
  });

  it('filters search by scope, kind and tier', async () => {
    const engram = await engine();
    await engram.remember({ text: 'Alice prefers short answers', kind: 'preference', scope: 'user:alice', tier: 'nice' });
    await engram.remember({ text: 'Bob prefers short answers too', kind: 'preference', scope: 'user:bob', tier: 'must' });
    const alice = await engram.search({ query: 'short answers', scopes: ['user:alice'] });
    expect(alice.map((hit) => hit.memory.scope)).toEqual(['user:alice']);
    const must = await engram.search({ query: 'short answers', tiers: ['must'] });
    expect(must.map((hit) => hit.memory.scope)).toEqual(['user:bob']);
    expect(await engram.search({ query: 'short answers', kinds: ['decision'] })).toEqual([]);
  });

  it('records each search result as retrieved, for cooldown', async () => {
    const clock = manualClock('2026-03-01T10:00:00.000Z');
    const engram = await engine({ clock });
    const memory = await engram.remember('The staging cluster restarts at midnight');
    clock.advance(60_000);
    await engram.search('staging cluster');
    expect(await engram.get(memory.id)).toMatchObject({ retrievalCount: 1, lastRetrievedAt: '2026-03-01T10:01:00.000Z' });
    await engram.search({ query: 'staging cluster', recordRetrieval: false });
    expect((await engram.get(memory.id))?.retrievalCount).toBe(1);
  });

  it('keeps tenants apart', async () => {
    const a = await engine({ tenant: 'a' });
    await a.remember('Tenant A secret: the launch code is blue');
    await a.close();
    const b = await engine({ tenant: 'b' });
    expect(await b.search('launch code')).toEqual([]);
    expect(await b.list()).toEqual([]);
  });

  it('refuses to write a memory into another tenant', async () => {
    const b = await engine({ tenant: 'b', embedder: null });
    const refused = await errorOf(b.rememberMany(['fine', { text: 'planted', tenant: 'a' }]));
    expect(refused.message).toMatch(/memory 2: tenant a is not this engine's tenant \(b\)/);
    expect((await b.stats()).memories).toBe(0);
    expect((await b.remember({ text: 'explicitly mine', tenant: 'b' })).tenant).toBe('b');
  });
});

describe('bad input', () => {
  it('refuses a session with an empty id, scope or scope list, and receipts with a bad turn or limit', async () => {
    const engram = await engine({ embedder: null });
    expect(() => engram.session({ id: ' ' })).toThrow(/session id must be a non-empty string/);
    expect(() => engram.session({ scope: '' })).toThrow(/session scope must be a non-empty string/);
    expect(() => engram.session({ scopes: [] })).toThrow(/session scopes must be a non-empty list/);
    expect(() => engram.session({ scopes: ['project:x', ''] })).toThrow(/session scopes entry must be a non-empty string/);
    expect((await errorOf(engram.receipts({ turn: 0 }))).message).toMatch(/turn must be a whole number of at least 1/);
    expect((await errorOf(engram.receipts({ limit: 0 }))).message).toMatch(/limit must be a whole number/);
    expect(engram.session({ scope: 'project:x' }).scopes).toEqual(['project:x', 'global']);
  });

  it('refuses empty text, unknown kinds and tiers, and stores nothing', async () => {
    const engram = await engine({ embedder: null });
    expect((await errorOf(engram.remember('   '))).message).toMatch(/text is empty/);
    expect((await errorOf(engram.remember({ text: 'x', kind: 'gossip' as never }))).message).toMatch(/kind must be one of: fact/);
    expect((await errorOf(engram.remember({ text: 'x', tier: 'urgent' as never }))).message).toMatch(/tier must be one of/);
    expect((await errorOf(engram.remember({ text: 'x', colour: 'red' } as never))).message).toMatch(/unknown field colour/);
    expect((await engram.stats()).memories).toBe(0);
  });

  it('stores a batch all or nothing', async () => {
    const engram = await engine({ embedder: null });
    const error = await errorOf(engram.rememberMany(['fine', { text: '' }, 'also fine']));
    expect(error.message).toMatch(/^memory 2: text is empty/);
    expect((await engram.stats()).memories).toBe(0);
  });

  it('refuses an empty query and a bad limit', async () => {
    const engram = await engine({ embedder: null });
    expect((await errorOf(engram.search(''))).code).toBe('invalid_input');
    expect((await errorOf(engram.search({ query: 'x', limit: 0 }))).message).toMatch(/limit must be a whole number from 1/);
    expect((await errorOf(engram.search({ query: 'x', kinds: ['gossip' as never] }))).message).toMatch(
      /^unknown kind gossip: choose from fact/,
    );
  });

  it('survives hostile query text', async () => {
    const engram = await engine();
    await engram.remember('Quotes "and" AND parentheses (are) fine * here');
    for (const query of [
      '"',
      'AND',
      'OR NOT',
      '*',
      '(((',
      'NEAR(a b',
      'text:x',
      '🎉',
      'a\u0000b',
      'the of and',
      'x'.repeat(100_000),
    ]) {
      expect(Array.isArray(await engram.search(query))).toBe(true);
    }
  });

  it('says the engine is closed after close', async () => {
    const engram = await engine({ embedder: null });
    await engram.close();
    expect((await errorOf(engram.remember('late'))).code).toBe('closed');
  });
});

describe('changing and forgetting', () => {
  it('supersedes instead of deleting, and hides the old memory from search', async () => {
    const engram = await engine();
    const old = await engram.remember({ text: 'Billing runs on MySQL', kind: 'fact' });
    const next = await engram.remember({ text: 'Billing runs on PostgreSQL since May', kind: 'fact', supersedes: old.id });
    expect((await engram.get(old.id))?.supersededBy).toBe(next.id);
    const hits = await engram.search('billing database');
    expect(hits.map((hit) => hit.memory.id)).toEqual([next.id]);
    expect((await engram.list({ all: true })).map((memory) => memory.id).sort()).toEqual([old.id, next.id].sort());
  });

  it('carries the old memory forward into its new version unless the new one says otherwise', async () => {
    const engram = await engine({ embedder: null });
    const old = await engram.remember({
      text: 'We chose PostgreSQL for billing',
      kind: 'decision',
      tier: 'must',
      scope: 'project:billing',
      tags: ['db'],
      key: 'billing-db',
      pinned: true,
      hardRule: true,
    });
    const next = await engram.remember({ text: 'Billing moved to CockroachDB in May', supersedes: old.id });
    expect(next).toMatchObject({
      kind: 'decision',
      tier: 'must',
      scope: 'project:billing',
      tags: ['db'],
      key: 'billing-db',
      pinned: true,
      hardRule: true,
    });
    // What the new version sets wins; what it leaves out still comes from the old one.
    const third = await engram.remember({
      text: 'Billing is back on PostgreSQL',
      tier: 'nice',
      pinned: false,
      supersedes: next.id,
    });
    expect(third).toMatchObject({ kind: 'decision', tier: 'nice', pinned: false, hardRule: true, scope: 'project:billing' });
    // A keyed note replaced by its key keeps the holder's tier and kind.
    const keyed = await engram.remember({ text: 'Release day is Monday', kind: 'fact', tier: 'must', key: 'release-day' });
    const moved = await engram.remember({ text: 'Release day is Thursday', key: 'release-day' });
    expect((await engram.get(keyed.id))?.supersededBy).toBe(moved.id);
    expect(moved).toMatchObject({ kind: 'fact', tier: 'must' });
  });

  it('replaces a keyed note with a new one of the same key and scope', async () => {
    const engram = await engine({ embedder: null });
    const first = await engram.remember({ text: 'handoff: started the migration', kind: 'handoff', key: 'session-handoff' });
    const second = await engram.remember({
      text: 'handoff: migration done, tests green',
      kind: 'handoff',
      key: 'session-handoff',
    });
    expect((await engram.get(first.id))?.supersededBy).toBe(second.id);
    expect((await engram.list({ kinds: ['handoff'] })).map((memory) => memory.id)).toEqual([second.id]);
  });

  it('keeps only the last of several notes with one key in a single batch', async () => {
    const engram = await engine({ embedder: null });
    const stored = await engram.remember({ text: 'scratch: v0', key: 'scratchpad' });
    const [v1, v2] = await engram.rememberMany([
      { text: 'scratch: v1', key: 'scratchpad' },
      { text: 'scratch: v2', key: 'scratchpad' },
    ]);
    expect((await engram.list()).map((memory) => memory.text)).toEqual(['scratch: v2']);
    expect((await engram.get(stored.id))?.supersededBy).toBe(v2?.id);
    expect((await engram.get(v1?.id ?? ''))?.supersededBy).toBe(v2?.id);
  });

  it('re-embeds changed text so search follows the update', async () => {
    const engram = await engine();
    const memory = await engram.remember('The cafeteria serves soup on Mondays');
    await engram.update(memory.id, { text: 'The deploy freeze starts on December 20', tier: 'must' });
    const [top] = await engram.search('when does the deploy freeze begin');
    expect(top?.memory).toMatchObject({ id: memory.id, tier: 'must', text: 'The deploy freeze starts on December 20' });
  });

  it('archives on forget and deletes for good with hard', async () => {
    const engram = await engine();
    const archived = await engram.remember('Archive me: the old VPN address');
    const deleted = await engram.remember('Delete me: the old VPN password');
    expect(await engram.forget(archived.id)).toEqual({ id: archived.id, outcome: 'archived' });
    expect(await engram.forget(deleted.id, { hard: true })).toEqual({ id: deleted.id, outcome: 'deleted' });
    expect(await engram.search('old VPN')).toEqual([]);
    expect((await engram.get(archived.id))?.archivedAt).not.toBeNull();
    expect(await engram.get(deleted.id)).toBeNull();
    const exported = [];
    for await (const memory of engram.export()) exported.push(memory.id);
    expect(exported).toEqual([archived.id]);
  });

  it('says which id is unknown', async () => {
    const engram = await engine({ embedder: null });
    expect((await errorOf(engram.forget('nope'))).message).toMatch(/no memory with id nope/);
    expect((await errorOf(engram.update('nope', { text: 'x' }))).code).toBe('not_found');
  });
});

describe('embeddings', () => {
  it('embeds the same text only once, across reopenings', async () => {
    const embedder = countingEmbedder();
    const first = await engine({ embedder });
    await first.remember('Lunch is at noon');
    await first.remember('Lunch is at noon');
    await first.close();
    const second = await engine({ embedder });
    await second.remember('Lunch is at noon');
    expect(embedder.texts).toBe(1);
  });

  it('does not cache query embeddings, so searching never grows the database', async () => {
    const engram = await engine();
    await engram.remember('Lunch is at noon');
    const before = (await engram.stats()).cachedEmbeddings;
    await engram.search('when is lunch');
    await engram.search('what time do we eat');
    expect((await engram.stats()).cachedEmbeddings).toBe(before);
  });

  it('refuses a different embedder until reindex, then works with it', async () => {
    const lexical = await engine({ embedder: null });
    await lexical.remember('We chose PostgreSQL for billing');
    await lexical.close();

    const local = await engine();
    const error = await errorOf(local.search('billing database'));
    expect(error.code).toBe('embedder_mismatch');
    expect(error.message).toMatch(/indexed with no embedder .* run `engram reindex`/);
    expect((await errorOf(local.remember('another'))).code).toBe('embedder_mismatch');

    expect(await local.reindex()).toEqual({
      memories: 1,
      embedder: 'local:universal-sentence-encoder-lite',
      dimensions: 512,
      extractionFailures: 0,
    });
    const [top] = await local.search('which database for billing');
    expect(top?.memory.text).toBe('We chose PostgreSQL for billing');
    expect(top?.signals.cosine).toBeGreaterThan(0);
    expect((await local.stats()).vectors).toBe(1);
  });
});

describe('import and export', () => {
  it('round-trips every field into a new database', async () => {
    const source = await engine({ clock: manualClock('2026-02-02T02:02:02.000Z') });
    const kept = await source.remember({
      text: 'Carmen owns the release checklist',
      kind: 'fact',
      tier: 'nice',
      scope: 'project:atlas',
      pinned: true,
      hardRule: true,
      abstract: 'Carmen owns releases.',
      key: 'release-owner',
      sessionId: 's-1',
      source: 'agent',
      trust: 0.5,
      data: { confidence: 90, nested: { ok: true } },
      tags: ['people', 'release'],
      occurredAt: '2025-12-24T08:00:00.000Z',
    });
    const archived = await source.remember('Old: release owner was Dan');
    await source.forget(archived.id);
    const exported = [];
    for await (const memory of source.export()) exported.push(memory);
    await source.close();

    file = path.join(directory, 'copy.db');
    const copy = await engine();
    expect(await copy.import(JSON.parse(JSON.stringify(exported)) as unknown[])).toEqual({
      read: 2,
      imported: 2,
      replaced: 0,
      skipped: 0,
      graph: { entities: 0, relations: 0, newEntities: 0, newRelations: 0 },
    });
    const reread = [];
    for await (const memory of copy.export()) reread.push(memory);
    expect(reread).toEqual(exported);
    expect(reread[0]).toEqual(kept);
    const [top] = await copy.search('who owns the release checklist');
    expect(top?.memory.id).toBe(kept.id);
  });

  it('imports nothing when one record is bad, and names its line', async () => {
    const engram = await engine({ embedder: null });
    const good = { ...(await engram.remember('template')), id: 'new-1' };
    const bad = { ...good, id: 'new-2', tier: 'sometimes' };
    const error = await errorOf(engram.import([good, bad], { lines: [3, 7] }));
    expect(error.message).toMatch(/^line 7: tier must be one of: .*; nothing was imported: fix this line and import again$/);
    expect(await engram.get('new-1')).toBeNull();
  });

  it('skips ids already stored, or replaces them when asked', async () => {
    const engram = await engine({ embedder: null });
    const memory = await engram.remember('Version one');
    expect(await engram.import([{ ...memory, text: 'Version two' }])).toMatchObject({ imported: 0, skipped: 1 });
    expect((await engram.get(memory.id))?.text).toBe('Version one');
    expect(await engram.import([{ ...memory, text: 'Version two' }], { onConflict: 'replace' })).toMatchObject({ replaced: 1 });
    expect((await engram.get(memory.id))?.text).toBe('Version two');
  });

  it('refuses a file that repeats an id', async () => {
    const engram = await engine({ embedder: null });
    const memory = { ...(await engram.remember('template')), id: 'dup' };
    expect((await errorOf(engram.import([memory, memory]))).message).toMatch(/line 2: id dup already appears on line 1/);
  });
});
