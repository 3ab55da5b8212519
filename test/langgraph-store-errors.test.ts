/**
 * EngramStore's errors, in LangGraph's conventions: a bad namespace is LangGraph's
 * InvalidNamespaceError, any other bad input Engram's InvalidInputError saying what to change, and
 * nothing of a refused batch is written. A failing Engram — a closed engine, a database file that
 * can no longer be read, an embedding service that does not answer — is an EngramError naming the
 * operation and what to do; a failing search logs one line and finds nothing, so a graph's turn
 * goes on without recall.
 */
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { InvalidNamespaceError } from '@langchain/langgraph-checkpoint';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createOpenAiEmbedder, type Engram, EngramError, InvalidInputError, isEngramError, openEngram } from '../src/index.js';
import { EngramStore, type EngramStoreOptions } from '../src/surfaces/langgraph/index.js';

let directory: string;
const engines: Engram[] = [];
beforeEach(() => {
  directory = mkdtempSync(path.join(tmpdir(), 'engram-langgraph-errors-'));
});
afterEach(async () => {
  for (const engram of engines.splice(0)) await engram.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Omit<EngramStoreOptions, 'engram'> = {}, engramOptions: Parameters<typeof openEngram>[0] = {}) {
  const file = path.join(directory, `store-${engines.length}.db`);
  const engram = await openEngram({ path: file, embedder: null, ...engramOptions });
  engines.push(engram);
  const lines: string[] = [];
  const store = new EngramStore({ engram, log: (line) => lines.push(line), ...options });
  return { store, engram, file, lines };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected the operation to fail');
}

/** Overwrites the database and its journal with bytes that are no SQLite file, while it is open. */
function spoil(file: string): void {
  const folder = path.dirname(file);
  for (const name of readdirSync(folder).filter((name) => name.startsWith(path.basename(file)))) {
    const target = path.join(folder, name);
    const size = statSync(target).size;
    const fd = openSync(target, 'r+');
    writeSync(fd, Buffer.alloc(size, 7), 0, size, 0);
    closeSync(fd);
  }
}

/**
 * An OpenAI-compatible embedding service on a real port, answering every text with the same small
 * vector, until it is stopped.
 */
async function embeddingService(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      const data = input.map((_text, index) => ({ index, embedding: [1, 0.5, 0.25, 0.125] }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('bad namespaces', () => {
  it.each([
    ['an empty label', ['users', ''], 'Namespace labels cannot be empty strings'],
    ['a label holding the separator', ['users', 'alice:bob'], "labels cannot contain colons (':')"],
    ['a label with a period', ['users', 'alice.b'], "labels cannot contain periods ('.')"],
    ['an empty namespace', [], 'Namespace cannot be empty'],
  ])('%s is refused by put, get, delete and batch with InvalidNamespaceError', async (_case, namespace, message) => {
    const { store } = await open();
    for (const attempt of [
      store.put(namespace, 'k', { v: 1 }),
      store.get(namespace, 'k'),
      store.delete(namespace, 'k'),
      store.batch([{ namespace, key: 'k', value: { v: 1 } }]),
    ]) {
      const error = await rejection(attempt);
      expect(error).toBeInstanceOf(InvalidNamespaceError);
      expect(error.message).toContain(message);
    }
    expect(await store.search([])).toEqual([]);
  });

  it('a bad search prefix or listing condition is refused the same way', async () => {
    const { store } = await open();
    await expect(store.search(['users', ''])).rejects.toThrow(InvalidNamespaceError);
    await expect(store.batch([{ namespacePrefix: ['a:b'], limit: 10, offset: 0 }])).rejects.toThrow(InvalidNamespaceError);
    await expect(store.listNamespaces({ prefix: ['a.b'] })).rejects.toThrow(InvalidNamespaceError);
  });

  it('a node that puts under a bad namespace fails the graph run with InvalidNamespaceError', async () => {
    const { store } = await open();
    const State = Annotation.Root({ done: Annotation<boolean> });
    const app = new StateGraph(State)
      .addNode('write', async (_state, config) => {
        await config.store?.put(['users', ''], 'k', { v: 1 });
        return { done: true };
      })
      .addEdge(START, 'write')
      .addEdge('write', END)
      .compile({ store });
    await expect(app.invoke({ done: false })).rejects.toThrow(InvalidNamespaceError);
  });
});

describe('other bad input', () => {
  it.each([
    ['a value that is not JSON', () => ({ namespace: ['a'], key: 'k', value: { size: 10n } }), 'is not JSON'],
    [
      'a value that is a list',
      () => ({ namespace: ['a'], key: 'k', value: [1, 2] }),
      'must be an object (or null to delete the item)',
    ],
    [
      'an unreadable index path',
      () => ({ namespace: ['a'], key: 'k', value: { t: 'x' }, index: ['t[x]'] }),
      '[x] is not a list index',
    ],
    ['a key that is not a string', () => ({ namespace: ['a'], key: 7, value: { t: 'x' } }), 'an item key must be a string'],
    [
      'an unknown filter operator',
      () => ({ namespacePrefix: ['a'], filter: { t: { $like: 'x' } } }),
      'unknown filter operator $like',
    ],
    ['a negative limit', () => ({ namespacePrefix: ['a'], limit: -1, offset: 0 }), 'limit must be a whole number of at least 0'],
    ['a fractional offset', () => ({ namespacePrefix: ['a'], limit: 5, offset: 1.5 }), 'offset must be a whole number'],
    ['a depth of 0', () => ({ limit: 10, offset: 0, maxDepth: 0 }), 'maxDepth must be a whole number of at least 1'],
    ['an unknown operation', () => ({ something: true }), 'unknown store operation with fields something'],
  ])(
    '%s is an InvalidInputError saying what to change, and nothing of the batch is written',
    async (_case, operation, message) => {
      const { store } = await open();
      const error = await rejection(store.batch([{ namespace: ['a'], key: 'first', value: { t: 'x' } }, operation() as never]));
      expect(error).toBeInstanceOf(InvalidInputError);
      expect(error.message).toContain(message);
      expect(await store.get(['a'], 'first')).toBeNull();
    },
  );

  it.each([
    ['no engine', {}, 'EngramStore needs { engram }: the engine from openEngram()'],
    ['an unknown kind', { kind: 'memo' }, 'unknown kind memo: choose from fact, preference'],
    ['an unknown failure mode', { searchFailures: 'ignore' }, 'searchFailures must be "log" or "throw"'],
    ['an unreadable index field', { index: { fields: ['{a,b}'] } }, 'a {a,b} group is not supported'],
  ])('creating a store with %s is refused', async (_case, options, message) => {
    const engram = (await open()).engram;
    const given = _case === 'no engine' ? options : { engram, ...options };
    expect(() => new EngramStore(given as EngramStoreOptions)).toThrow(message);
  });
});

describe('a failing Engram', () => {
  it('a closed engine: every operation says to open one and create a new store', async () => {
    const { store, engram } = await open();
    await store.put(['a'], 'k', { t: 'x' });
    await engram.close();
    for (const attempt of [
      store.put(['a'], 'k2', { t: 'y' }),
      store.get(['a'], 'k'),
      store.delete(['a'], 'k'),
      store.search(['a']),
      store.search(['a'], { query: 'x' }),
      store.listNamespaces(),
    ]) {
      const error = await rejection(attempt);
      expect(isEngramError(error) && error.code).toBe('closed');
      expect(error.message).toMatch(
        /^Engram store: cannot .+: the Engram engine it was given is closed\. Open one with openEngram\(\) and create a new EngramStore with it\.$/,
      );
    }
  });

  it('an unreadable database file: writes and reads throw what is wrong; a search logs one line and finds nothing', async () => {
    const { store, file, lines } = await open();
    await store.put(['users', 'alice'], 'home', { text: 'Alice lives in Lisbon' });
    spoil(file);

    const put = await rejection(store.put(['users', 'alice'], 'pet', { text: 'Alice has a cat' }));
    expect(put).toBeInstanceOf(EngramError);
    expect((put as EngramError).code).toBe('database_invalid');
    expect(put.message).toBe(
      `Engram store: cannot put ["users","alice"] / "pet": ${file} is not an Engram database (file is not a database): choose another --db path`,
    );
    expect(put.message).not.toMatch(/\n\s+at /);
    await expect(store.get(['users', 'alice'], 'home')).rejects.toThrow(
      /^Engram store: cannot get \["users","alice"\] \/ "home": /,
    );
    await expect(store.listNamespaces()).rejects.toThrow(/^Engram store: cannot list namespaces: /);

    expect(await store.search(['users', 'alice'], { query: 'where does Alice live?' })).toEqual([]);
    expect(await store.search(['users', 'alice'])).toEqual([]);
    expect(lines).toEqual([
      `Engram store: search ["users","alice"] failed, going on without its results: ${file} is not an Engram database (file is not a database): choose another --db path`,
      `Engram store: search ["users","alice"] failed, going on without its results: ${file} is not an Engram database (file is not a database): choose another --db path`,
    ]);
  });

  it('with searchFailures "throw", a failing search throws like every other operation', async () => {
    const { store, file } = await open({ searchFailures: 'throw' });
    await store.put(['a'], 'k', { t: 'x' });
    spoil(file);
    const error = await rejection(store.search(['a'], { query: 'x' }));
    expect((error as EngramError).code).toBe('database_invalid');
    expect(error.message).toMatch(/^Engram store: cannot search \["a"\]: /);
  });

  it('an embedding service that stops answering: a put throws; a node’s search logs one line and the turn goes on without recall', async () => {
    const service = await embeddingService();
    const embedder = createOpenAiEmbedder({ baseUrl: service.url, model: 'small', timeoutMs: 5000 });
    const { store, lines } = await open({}, { embedder });
    await store.put(['users', 'alice'], 'home', { text: 'Alice lives in Lisbon' });
    await service.stop();

    const put = await rejection(store.put(['users', 'alice'], 'pet', { text: 'Alice has a cat' }));
    expect(put.message).toMatch(/^Engram store: cannot put \["users","alice"\] \/ "pet": /);
    expect(isEngramError(put)).toBe(true);
    expect((await store.get(['users', 'alice'], 'home'))?.value).toEqual({ text: 'Alice lives in Lisbon' });

    const State = Annotation.Root({ message: Annotation<string>, recalled: Annotation<number>, answered: Annotation<boolean> });
    const app = new StateGraph(State)
      .addNode('recall', async (state, config) => {
        const found = (await config.store?.search(['users', 'alice'], { query: state.message })) ?? [];
        return { recalled: found.length };
      })
      .addNode('answer', async () => ({ answered: true }))
      .addEdge(START, 'recall')
      .addEdge('recall', 'answer')
      .addEdge('answer', END)
      .compile({ store });
    const final = await app.invoke({ message: 'where does Alice live?', recalled: -1, answered: false });
    expect(final).toEqual({ message: 'where does Alice live?', recalled: 0, answered: true });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Engram store: search \["users","alice"\] failed, going on without its results: .+/);
  });
});
