/**
 * Migration 13 against a real file of schema 12: every vector gets its entry in the stored
 * vector index, a new process opens its index from those entries (no vector decoded) and ranks
 * exactly as the index built from the vectors did; writes keep the entries current, and the
 * doctor finds and rewrites a missing or wrong one. Opening a file loads no sqlite-vec.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it, vi } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { clusteredVectors, seededRandom } from '../../../test/fixtures/random.js';
import { halfBlobToVector } from '../vector/half-float.js';
import { int8EntryBlob } from '../vector/int8-entry.js';
import { QuantizedIndex } from '../vector/quantized-index.js';
import { SqliteDoctor } from './doctor.js';
import { LATEST_VERSION } from './migrations.js';
import { VECTOR_ENTRIES_SCHEMA } from './schema-vector-entries.js';
import { SqliteStore } from './sqlite-store.js';
import { EXACT_SCAN_MAX } from './vector-table.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-schema-vector-entries-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const DIMENSIONS = 32;
/** Past the exact scan's limit, so searches go through the index. */
const MEMORIES = EXACT_SCAN_MAX + 300;
const random = seededRandom(13);

/** Clustered unit vectors, as sentence embeddings are. */
const clustered = clusteredVectors(random, DIMENSIONS, 6);

let files = 0;
/** A file of schema 12 holding `MEMORIES` memories with vectors, as the release before wrote it. */
async function writeSchema12File(): Promise<string> {
  const file = path.join(directory, `case-${++files}.db`);
  const old = new SqliteStore(file, { migrateTo: VECTOR_ENTRIES_SCHEMA - 1 });
  await old.setIndexInfo({ model: 'test:clustered-32', dimensions: DIMENSIONS });
  await old.commit({
    insert: Array.from({ length: MEMORIES }, (_, i) => ({
      memory: makeMemory({ id: `m${i}`, tenant: 't', text: `memory ${i}` }),
      vector: clustered(),
    })),
  });
  await old.close();
  return file;
}

/** Each vector's stored entry and the entry its vector gives, by rowid. */
function entriesOf(store: SqliteStore): { stored: Map<number, Buffer>; expected: Map<number, Buffer> } {
  const db = store.connection;
  const stored = new Map(db.prepare(`SELECT rowid, entry FROM memory_embeddings_int8`).raw().all() as [number, Buffer][]);
  const vectors = db.prepare(`SELECT rowid, vector FROM memory_embeddings`).raw().all() as [number, Buffer][];
  return { stored, expected: new Map(vectors.map(([rowid, blob]) => [rowid, int8EntryBlob(halfBlobToVector(blob))])) };
}

const queries = Array.from({ length: 12 }, () => clustered());

describe('migration 13: the vector index is opened from entries stored beside the vectors', () => {
  it('writes every vector’s entry, and the index opened from them ranks as the one built from the vectors', async () => {
    const file = await writeSchema12File();
    const before = new SqliteStore(file, { migrateTo: VECTOR_ENTRIES_SCHEMA - 1 });
    const ranked = [];
    for (const query of queries) ranked.push(await before.searchVector({ tenant: 't' }, query, 10));
    await before.close();

    const store = new SqliteStore(file);
    expect(store.connection.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    const { stored, expected } = entriesOf(store);
    expect(stored.size).toBe(MEMORIES);
    for (const [rowid, entry] of expected) expect(stored.get(rowid)?.equals(entry)).toBe(true);

    const computed = vi.spyOn(QuantizedIndex.prototype, 'add');
    try {
      for (const [i, query] of queries.entries()) expect(await store.searchVector({ tenant: 't' }, query, 10)).toEqual(ranked[i]);
      expect(computed).not.toHaveBeenCalled(); // opened from the entries: no vector decoded
    } finally {
      computed.mockRestore();
      await store.close();
    }
  });

  it('opens a small tenant’s index from its own entries when a larger tenant’s rows lie between them', async () => {
    const file = path.join(directory, `case-${++files}.db`);
    const store = new SqliteStore(file);
    await store.setIndexInfo({ model: 'test:clustered-32', dimensions: DIMENSIONS });
    const small: string[] = [];
    await store.commit({
      insert: Array.from({ length: MEMORIES * 3 }, (_, i) => {
        const tenant = i % 3 === 0 ? 'small' : 'large';
        if (tenant === 'small') small.push(`m${i}`);
        return { memory: makeMemory({ id: `m${i}`, tenant, text: `memory ${i}` }), vector: clustered() };
      }),
    });
    await store.close();

    // The same file without its entries: the index is computed from the vectors.
    const computedFile = path.join(directory, `case-${files}-computed.db`);
    copyFileSync(file, computedFile);
    const fromVectors = new SqliteStore(computedFile);
    fromVectors.connection.exec('DELETE FROM memory_embeddings_int8');
    const expected = [];
    for (const query of queries) expected.push(await fromVectors.searchVector({ tenant: 'small' }, query, 10));
    await fromVectors.close();

    const reopened = new SqliteStore(file);
    const computed = vi.spyOn(QuantizedIndex.prototype, 'add');
    const opened = vi.spyOn(QuantizedIndex, 'fromPrefixes');
    try {
      for (const [i, query] of queries.entries()) {
        const found = await reopened.searchVector({ tenant: 'small' }, query, 10);
        expect(found.every((hit) => small.includes(hit.id))).toBe(true);
        expect(found).toEqual(expected[i]);
      }
      expect(computed).not.toHaveBeenCalled();
      // The small tenant's rows, once each, and no other tenant's.
      expect(opened.mock.calls.flatMap(([, rowids]) => Array.from(rowids)).length).toBe(small.length);
    } finally {
      computed.mockRestore();
      opened.mockRestore();
      await reopened.close();
    }
  });

  it('keeps the entries current through inserts, replaced vectors and purges', async () => {
    const file = await writeSchema12File();
    const store = new SqliteStore(file);
    await store.searchVector({ tenant: 't' }, clustered(), 5); // an index loaded, kept current in place
    await store.commit({ insert: [{ memory: makeMemory({ id: 'late', tenant: 't' }), vector: clustered() }] });
    await store.commit({ update: [{ memory: makeMemory({ id: 'm5', tenant: 't', text: 'memory 5' }), vector: clustered() }] });
    await store.purgeMemories('t', ['m7']);
    const { stored, expected } = entriesOf(store);
    expect(stored.size).toBe(MEMORIES);
    for (const [rowid, entry] of expected) expect(stored.get(rowid)?.equals(entry)).toBe(true);

    const ranked = [];
    for (const query of queries) ranked.push(await store.searchVector({ tenant: 't' }, query, 10));
    await store.close();
    const reopened = new SqliteStore(file); // a new process's index, opened from the entries
    for (const [i, query] of queries.entries())
      expect(await reopened.searchVector({ tenant: 't' }, query, 10)).toEqual(ranked[i]);
    await reopened.close();
  });

  it('answers from the vectors where an entry is missing or wrong, and the doctor rewrites them', async () => {
    const file = await writeSchema12File();
    const store = new SqliteStore(file);
    const ranked = [];
    for (const query of queries) ranked.push(await store.searchVector({ tenant: 't' }, query, 10));
    store.connection.exec(`DELETE FROM memory_embeddings_int8 WHERE rowid % 10 = 0`);
    store.connection.exec(`UPDATE memory_embeddings_int8 SET entry = zeroblob(${DIMENSIONS + 4}) WHERE rowid % 10 = 1`);
    store.connection.exec(`UPDATE memory_embeddings_int8 SET entry = x'00' WHERE rowid % 10 = 2`);
    await store.close();

    const damaged = new SqliteStore(file);
    for (const [i, query] of queries.entries()) {
      // The missing and short entries are computed from their vectors; a wrong one ranks as it says.
      expect((await damaged.searchVector({ tenant: 't' }, query, 10)).length).toBe(ranked[i]?.length);
    }
    await damaged.close();

    const doctor = SqliteDoctor.open(file);
    try {
      const findings = doctor.examine().findings.filter((finding) => finding.check === 'vectors' && finding.status === 'problem');
      expect(findings.map((finding) => finding.message)).toEqual([
        expect.stringMatching(/^\d+ vectors without an entry in the stored vector index/),
        expect.stringMatching(/^\d+ entries of the stored vector index differ from their vectors/),
      ]);
      doctor.repair();
      expect(doctor.examine().findings.filter((finding) => finding.status === 'problem')).toEqual([]);
    } finally {
      doctor.close();
    }
    const repaired = new SqliteStore(file);
    const { stored, expected } = entriesOf(repaired);
    for (const [rowid, entry] of expected) expect(stored.get(rowid)?.equals(entry)).toBe(true);
    for (const [i, query] of queries.entries())
      expect(await repaired.searchVector({ tenant: 't' }, query, 10)).toEqual(ranked[i]);
    await repaired.close();
  });

  it('leaves out a vector of the wrong length that has no entry, rather than failing every search', async () => {
    const file = await writeSchema12File();
    const store = new SqliteStore(file);
    const rowid = store.connection.prepare(`SELECT rowid FROM memories WHERE id = 'm3'`).pluck().get() as number;
    store.connection.prepare(`DELETE FROM memory_embeddings_int8 WHERE rowid = ?`).run(rowid);
    store.connection.prepare(`UPDATE memory_embeddings SET vector = x'00003c00' WHERE rowid = ?`).run(rowid);
    await store.close();

    const damaged = new SqliteStore(file);
    const m3 = halfBlobToVector(Buffer.from([0, 0, 0, 0x3c]));
    expect(m3).toHaveLength(2); // what is left of m3's vector: two of its 32 components
    for (const query of queries) {
      const hits = await damaged.searchVector({ tenant: 't' }, query, 10);
      expect(hits).toHaveLength(10);
      expect(hits.map((hit) => hit.id)).not.toContain('m3');
    }
    await damaged.close();
  });

  it('opens a file without loading sqlite-vec', async () => {
    const store = new SqliteStore(await writeSchema12File());
    expect(() => store.connection.prepare(`SELECT vec_version()`).get()).toThrow(/no such function/);
    await store.close();
  });
});
