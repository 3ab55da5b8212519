/**
 * A real file of the current schema that lost an index and a trigger by hand: searches still
 * answer (the vector index is computed from the vectors where the tenant's prefix index is
 * gone), the doctor names what is missing and what drifted, and its repair makes both again and
 * drops the drift, so the next process opens its index from the prefixes as before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { clusteredVectors, seededRandom } from '../../../test/fixtures/random.js';
import { REPAIR_COMMAND } from '../doctor-wording.js';
import { QuantizedIndex } from '../vector/quantized-index.js';
import { SqliteDoctor } from './doctor.js';
import { missingSchemaObjects } from './doctor-schema-objects.js';
import { CODE_PREFIX_INDEX } from './schema-code-prefixes.js';
import { SqliteStore } from './sqlite-store.js';
import { EXACT_SCAN_MAX } from './vector-table.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-doctor-schema-objects-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const DIMENSIONS = 32;
/** Past the exact scan's limit, so searches go through the vector index. */
const MEMORIES = EXACT_SCAN_MAX + 300;
const ENTRY_TRIGGER = 'memory_embeddings_int8_follow_delete';
const clustered = clusteredVectors(seededRandom(44), DIMENSIONS, 6);
const queries = Array.from({ length: 8 }, () => clustered());

let files = 0;
async function writeFile(): Promise<string> {
  const file = path.join(directory, `case-${++files}.db`);
  const store = new SqliteStore(file);
  await store.setIndexInfo({ model: 'test:clustered-32', dimensions: DIMENSIONS });
  await store.commit({
    insert: Array.from({ length: MEMORIES }, (_, i) => ({
      memory: makeMemory({ id: `m${i}`, tenant: 't', text: `memory ${i}` }),
      vector: clustered(),
    })),
  });
  await store.close();
  return file;
}

async function rankings(file: string): Promise<unknown[]> {
  const store = new SqliteStore(file);
  try {
    const ranked = [];
    for (const query of queries) ranked.push(await store.searchVector({ tenant: 't' }, query, 10));
    return ranked;
  } finally {
    await store.close();
  }
}

function objectNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger')`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

function schemaProblems(doctor: SqliteDoctor): string[] {
  return doctor
    .examine()
    .findings.filter((finding) => finding.check === 'schema' && finding.status === 'problem')
    .map((finding) => `${finding.message} | ${finding.fix}`);
}

describe('the doctor checks that a file has every index and trigger of its schema', () => {
  it('finds nothing missing in a file Engram made', async () => {
    const file = await writeFile();
    const doctor = SqliteDoctor.open(file);
    try {
      expect(schemaProblems(doctor)).toEqual([]);
      expect(doctor.examine().findings.filter((finding) => finding.status === 'problem')).toEqual([]);
    } finally {
      doctor.close();
    }
  });

  it('answers searches without the prefix index, and the repair makes both objects again and drops the drift', async () => {
    const file = await writeFile();
    const before = await rankings(file);
    const db = new Database(file);
    db.exec(`DROP INDEX ${CODE_PREFIX_INDEX}; DROP TRIGGER ${ENTRY_TRIGGER}; DELETE FROM memories WHERE id IN ('m1', 'm2')`);
    // The vectors go with their memories (their own trigger is there); their entries stay behind.
    expect(db.prepare(`SELECT count(*) FROM memory_embeddings_int8`).pluck().get()).toBe(MEMORIES);
    db.close();

    // A search computes the index from the vectors instead of failing on the missing index.
    const fromPrefixes = vi.spyOn(QuantizedIndex, 'fromPrefixes');
    const without = await rankings(file);
    expect(fromPrefixes).not.toHaveBeenCalled();
    const gone = (ranked: unknown[]) =>
      (ranked as { id: string }[][]).map((hits) => hits.filter((hit) => hit.id !== 'm1' && hit.id !== 'm2'));
    for (const [i, hits] of (without as { id: string }[][]).entries()) {
      expect(hits.map((hit) => hit.id)).not.toContain('m1');
      expect(hits.slice(0, gone(before)[i]?.length)).toEqual(gone(before)[i]);
    }

    const doctor = SqliteDoctor.open(file);
    try {
      expect(schemaProblems(doctor)).toEqual([
        `2 indexes and triggers of the schema missing (memory_embeddings_int8_follow_delete, ${CODE_PREFIX_INDEX}): searches that use them fail or read whole tables, and derived tables can drift from the memories | ${REPAIR_COMMAND} creates them again`,
      ]);
      const vectorProblems = doctor
        .examine()
        .findings.filter((finding) => finding.check === 'vectors' && finding.status === 'problem');
      expect(vectorProblems.map((finding) => finding.message)).toEqual([
        '2 entries of the stored vector index without a vector: nothing reads them, but they take space',
      ]);
      const repairs = doctor.repair().map((repair) => repair.message);
      expect(repairs).toContain(
        `created 2 missing indexes and triggers again (memory_embeddings_int8_follow_delete, ${CODE_PREFIX_INDEX})`,
      );
      expect(repairs).toContain("dropped the vector index's entries without a vector (2)");
      expect(doctor.examine().findings.filter((finding) => finding.status === 'problem')).toEqual([]);
    } finally {
      doctor.close();
    }
    expect(objectNames(file)).toEqual(expect.arrayContaining([CODE_PREFIX_INDEX, ENTRY_TRIGGER]));

    // The next process opens its index from the prefixes again, and ranks as before.
    fromPrefixes.mockClear();
    expect(await rankings(file)).toEqual(without);
    expect(fromPrefixes).toHaveBeenCalled();
    // And the trigger works again: a deleted memory's entry goes with its vector.
    const store = new SqliteStore(file);
    store.connection.exec(`DELETE FROM memories WHERE id = 'm3'`);
    expect(store.connection.prepare(`SELECT count(*) FROM memory_embeddings_int8`).pluck().get()).toBe(MEMORIES - 3);
    await store.close();
  });

  it('leaves a file of an older schema to the upgrade, which makes every object', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 3');
    expect(missingSchemaObjects(db)).toEqual([]);
    db.close();
  });
});
