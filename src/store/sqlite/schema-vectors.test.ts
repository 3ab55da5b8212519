/**
 * Migration 12 against a real file of schema 11, written as the release before it wrote one:
 * float32 vectors a page each, and the embedding cache holding every memory's vector again.
 * Every memory, vector and search result is kept, the cache answers from the memories' own
 * vectors, and the file gives back the space.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { clusteredVectors, seededRandom } from '../../../test/fixtures/random.js';
import { contentHash, memoryVectorHash } from '../embedding-cache.js';
import { roundToHalf } from '../vector/half-float.js';
import { SqliteDoctor } from './doctor.js';
import { LATEST_VERSION } from './migrations.js';
import { HALF_VECTORS_SCHEMA } from './schema-vectors.js';
import { SqliteStore } from './sqlite-store.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-schema-vectors-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const MODEL = 'test:clustered-512';
const DIMENSIONS = 512;
const MEMORIES = 600;
const random = seededRandom(12);

/** Clustered unit vectors, as sentence embeddings are. */
const clustered = clusteredVectors(random, DIMENSIONS, 8);

/** The exact float32 cosine: what a search of the old file ranked by. */
function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

interface OldFile {
  file: string;
  vectors: Map<string, Float32Array>;
  texts: Map<string, { text: string; context: string | null }>;
}

/** A schema-11 file: memories (a third with context) with their vectors, and the cache as that release filled it. */
async function writeVersionElevenFile(): Promise<OldFile> {
  const file = path.join(directory, `v11-${Math.floor(random() * 1e9)}.db`);
  const blank = new Database(file);
  blank.pragma('page_size = 4096');
  blank.exec('VACUUM');
  blank.close();
  const old = new SqliteStore(file, { migrateTo: 11 });
  await old.setIndexInfo({ model: MODEL, dimensions: DIMENSIONS });
  const vectors = new Map<string, Float32Array>();
  const texts = new Map<string, { text: string; context: string | null }>();
  const insert = [];
  const cached: { hash: string; vector: Float32Array }[] = [];
  for (let i = 0; i < MEMORIES; i++) {
    const id = `m${String(i).padStart(4, '0')}`;
    const context = i % 3 === 0 ? `the turn before memory ${i}` : null;
    const memory = makeMemory({ id, tenant: i % 5 === 0 ? 'other' : 'acme', text: `memory number ${i}`, context });
    const vector = clustered();
    vectors.set(id, vector);
    texts.set(id, { text: memory.text, context });
    insert.push({ memory, vector });
    // That release cached each text it embedded: the memory's own, and with context, the contextual one too.
    cached.push({ hash: contentHash(memory.text), vector: context === null ? vector : clustered() });
    if (context !== null) cached.push({ hash: contentHash(`${context} ${memory.text}`), vector: clustered() });
  }
  await old.commit({ insert });
  await old.putCachedEmbeddings(MODEL, cached);
  const db = old.connection;
  expect(db.pragma('user_version', { simple: true })).toBe(11);
  // That release wrote pages of 4 KiB: this file is made so, as it would have been.
  expect(db.pragma('page_size', { simple: true })).toBe(4096);
  expect(db.prepare(`SELECT length(vector) FROM memory_embeddings LIMIT 1`).pluck().get()).toBe(DIMENSIONS * 4);
  await old.close();
  return { file, vectors, texts };
}

describe('migration 12: half-precision vectors, and no vector kept twice', () => {
  it('keeps every memory, vector and search result of a version 11 file, and gives back the space', async () => {
    const { file, vectors, texts } = await writeVersionElevenFile();
    const sizeBefore = statSync(file).size;
    const queries = Array.from({ length: 20 }, () => clustered());

    const store = new SqliteStore(file);
    const db = store.connection;

    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(HALF_VECTORS_SCHEMA);
    expect(db.prepare(`SELECT count(*) FROM memories`).pluck().get()).toBe(MEMORIES);
    expect(db.prepare(`SELECT count(*) FROM memory_embeddings`).pluck().get()).toBe(MEMORIES);
    expect(db.prepare(`SELECT length(vector) FROM memory_embeddings LIMIT 1`).pluck().get()).toBe(DIMENSIONS * 2);
    // Every vector, at half precision.
    for (const tenant of ['acme', 'other']) {
      const ids = [...vectors.keys()].filter((id) => (Number(id.slice(1)) % 5 === 0) === (tenant === 'other'));
      const stored = await store.getVectors(tenant, ids);
      expect(stored.size).toBe(ids.length);
      for (const id of ids) expect(stored.get(id)).toEqual(roundToHalf(vectors.get(id) as Float32Array));
    }
    // Every search finds what the float32 vectors found, with scores a rounding away: only
    // neighbours closer than that may trade places.
    for (const query of queries) {
      const exact = new Map(
        [...vectors.entries()].filter(([id]) => Number(id.slice(1)) % 5 !== 0).map(([id, vector]) => [id, cosine(vector, query)]),
      );
      const ranked = [...exact.entries()].sort((a, b) => b[1] - a[1]);
      const tenth = (ranked[9] as [string, number])[1];
      const hits = await store.searchVector({ tenant: 'acme' }, query, 10);
      expect(hits).toHaveLength(10);
      for (const hit of hits) expect(Math.abs(hit.similarity - (exact.get(hit.id) as number))).toBeLessThan(1e-3);
      const clearlyIn = ranked.slice(0, 10).filter(([, similarity]) => similarity > tenth + 2e-3);
      expect(hits.map((hit) => hit.id)).toEqual(expect.arrayContaining(clearlyIn.map(([id]) => id)));
    }
    // The cache kept no copy: the memories' own vectors answer for their texts.
    expect(db.prepare(`SELECT count(*) FROM embedding_cache`).pluck().get()).toBe(0);
    const plain = texts.get('m0001') as { text: string; context: null };
    const withContext = texts.get('m0003') as { text: string; context: string };
    const answered = await store.getCachedEmbeddings(MODEL, [memoryVectorHash(plain), memoryVectorHash(withContext)]);
    expect(answered.get(memoryVectorHash(plain))).toEqual(roundToHalf(vectors.get('m0001') as Float32Array));
    expect(answered.get(memoryVectorHash(withContext))).toEqual(roundToHalf(vectors.get('m0003') as Float32Array));
    expect((await store.getCachedEmbeddings('another-model', [memoryVectorHash(plain)])).size).toBe(0);
    await store.close();

    // Compacted as it was upgraded, into pages of 8 KiB, still in write-ahead logging.
    expect(statSync(file).size).toBeLessThan(sizeBefore * 0.4);
    const reopened = new SqliteStore(file);
    expect(reopened.connection.pragma('page_size', { simple: true })).toBe(8192);
    expect(reopened.connection.pragma('journal_mode', { simple: true })).toBe('wal');
    await reopened.close();
  });

  it('upgrades a file another process holds open, leaving its page size to the doctor', async () => {
    const { file } = await writeVersionElevenFile();
    const other = new Database(file); // another process's connection, in write-ahead logging
    other.pragma('journal_mode = WAL');
    try {
      const store = new SqliteStore(file);
      expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(store.connection.prepare(`SELECT count(*) FROM memory_embeddings`).pluck().get()).toBe(MEMORIES);
      // Compacted in place, in its 4 KiB pages: leaving write-ahead logging needs the file alone.
      expect(store.connection.pragma('page_size', { simple: true })).toBe(4096);
      expect(store.connection.pragma('freelist_count', { simple: true })).toBe(0);
      await store.close();
    } finally {
      other.close();
    }
    const doctor = SqliteDoctor.open(file);
    try {
      expect(doctor.examine().findings.find((finding) => finding.check === 'space')).toMatchObject({
        status: 'notice',
        message: expect.stringContaining('in pages of 4 KiB, where 8 KiB pages hold vectors closer'),
      });
      expect(doctor.repair().find((repair) => repair.check === 'space')?.message).toMatch(/\(pages of 8 KiB\)$/);
    } finally {
      doctor.close();
    }
  });

  it('keeps the cache of a file that holds no memories (one used only as a cache)', async () => {
    const file = path.join(directory, 'cache-only.db');
    const old = new SqliteStore(file, { migrateTo: 11 });
    const vector = clustered();
    await old.putCachedEmbeddings(MODEL, [{ hash: contentHash('a text'), vector }]);
    await old.close();

    const store = new SqliteStore(file);
    expect((await store.getCachedEmbeddings(MODEL, [contentHash('a text')])).get(contentHash('a text'))).toEqual(vector);
    await store.close();
  });
});
