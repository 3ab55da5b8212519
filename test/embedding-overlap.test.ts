/**
 * The query's embedding runs alongside the reads that do not need it: while the model embeds a
 * user message, the session record is written, the pinned memories, the graph and the full-text
 * index are read, and the full-text hits' memories are read ahead; only the vector search waits
 * for the vector. Checked with the real local model behind a gate the test opens, on a real
 * SQLite file whose calls are logged.
 */
import { describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embedding/embedder.js';
import { startEmbedding } from '../src/embedding/pending-embedding.js';
import { openEngram } from '../src/engram/engram.js';
import { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { freshDatabase, sharedEmbedder } from './activation-helpers.js';

/** The local model, holding back the answer for `query` until `open()`; every call is counted. */
function gatedEmbedder(query: string) {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let asked: () => void = () => undefined;
  const queried = new Promise<void>((resolve) => (asked = resolve));
  const calls: string[][] = [];
  const embedder: Embedder = {
    id: sharedEmbedder.id,
    dimensions: sharedEmbedder.dimensions,
    async embed(texts) {
      calls.push([...texts]);
      const vectors = await sharedEmbedder.embed(texts);
      if (texts.includes(query)) {
        asked();
        await gate;
      }
      return vectors;
    },
  };
  return { embedder, open: () => open(), queried, calls };
}

/** `store` with the name of every method called on it logged, in order. */
function loggedStore(store: Store, log: string[]): Store {
  return new Proxy(store, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        log.push(String(name));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Lets every read that can run without the held embedding run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('embedding alongside the reads', () => {
  it('writes the turn and reads the graph and the full-text index while the model embeds the message', async () => {
    const question = 'Where does Caroline keep the deploy script?';
    const gated = gatedEmbedder(question);
    const log: string[] = [];
    const engram = await openEngram({ store: loggedStore(new SqliteStore(freshDatabase()), log), embedder: gated.embedder });
    await engram.rememberMany([
      'Caroline keeps the deploy script in scripts/deploy.sh',
      'The office plants are watered on Mondays',
    ]);
    const session = engram.session({ id: 'overlap' });
    await session.start();
    log.length = 0;

    const turn = session.beforeTurn(question);
    await gated.queried;
    await settle();
    // Everything that does not need the vector has run, the full-text hits read ahead with the
    // entities they mention (the query's names read in one statement, for the read layer to keep
    // each); the vector search has not.
    expect(log).toEqual(
      expect.arrayContaining(['saveSession', 'findEntitiesByName', 'searchLexical', 'getMemories', 'listMentionsInMemories']),
    );
    expect(log).not.toContain('searchVector');

    gated.open();
    const result = await turn;
    expect(log).toContain('searchVector');
    expect(result.memories.map((memory) => memory.text)).toEqual(['Caroline keeps the deploy script in scripts/deploy.sh']);
    // The decision's time counts from the embedding's start, so it covers the embedding.
    const latency = result.receipt?.latencyMs;
    expect(latency?.total).toBeGreaterThanOrEqual(latency?.embed ?? Number.POSITIVE_INFINITY);
    await engram.close();
  });

  it('runs a search’s full-text half before the query’s vector answers', async () => {
    const query = 'deploy script location';
    const gated = gatedEmbedder(query);
    const log: string[] = [];
    const engram = await openEngram({ store: loggedStore(new SqliteStore(freshDatabase()), log), embedder: gated.embedder });
    await engram.remember('Caroline keeps the deploy script in scripts/deploy.sh');
    log.length = 0;

    const search = engram.search({ query });
    await gated.queried;
    await settle();
    expect(log).toEqual(expect.arrayContaining(['searchLexical', 'getMemories']));
    expect(log).not.toContain('searchVector');
    gated.open();
    expect((await search).map((hit) => hit.memory.text)).toEqual(['Caroline keeps the deploy script in scripts/deploy.sh']);
    await engram.close();
  });

  it('loads no model for a turn when the store has no embeddings yet', async () => {
    const gated = gatedEmbedder('anything');
    const engram = await openEngram({ path: freshDatabase(), embedder: gated.embedder });
    const result = await engram.session({ id: 'empty' }).beforeTurn('How do I deploy?');
    expect(result).toMatchObject({ message: null, receipt: null });
    expect(gated.calls).toEqual([]);
    await engram.close();
  });
});

describe('startEmbedding', () => {
  const failing = (error: Error, synchronous: boolean): Embedder => ({
    id: 'failing',
    dimensions: 3,
    embed: synchronous
      ? () => {
          throw error;
        }
      : () => Promise.reject(error),
  });

  it('hands a failure to whoever awaits the vector, thrown or rejected', async () => {
    const error = new Error('model missing');
    await expect(startEmbedding(failing(error, true), 'q').vector).rejects.toBe(error);
    await expect(startEmbedding(failing(error, false), 'q').vector).rejects.toBe(error);
  });

  it('leaves no unhandled rejection behind when nobody awaits the vector', async () => {
    const unhandled: unknown[] = [];
    const listen = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listen);
    try {
      startEmbedding(failing(new Error('model missing'), false), 'q');
      await settle();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listen);
    }
  });

  it('stops its clock when the vector answers', async () => {
    let answer: (vectors: Float32Array[]) => void = () => undefined;
    const pending = startEmbedding(
      { id: 'held', dimensions: 3, embed: () => new Promise<Float32Array[]>((resolve) => (answer = resolve)) },
      'q',
    );
    await settle();
    answer([new Float32Array([1, 0, 0])]);
    await pending.vector;
    const answered = pending.elapsedMs();
    await settle();
    expect(pending.elapsedMs()).toBe(answered);
    expect(answered).toBeGreaterThan(0);
  });
});
