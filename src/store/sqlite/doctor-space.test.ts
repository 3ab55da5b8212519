/** The doctor's space check on a real file: free pages reported as a notice, and `--repair` compacting them. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { makeMemory } from '../../../test/fixtures/memory.js';
import { SqliteDoctor } from './doctor.js';
import { SqliteStore } from './sqlite-store.js';

const directory = mkdtempSync(path.join(tmpdir(), 'engram-doctor-space-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** A file that held 1,200 memories with 512-d vectors, 1,100 of them deleted for good. */
async function fileWithFreePages(): Promise<string> {
  const file = path.join(directory, 'purged.db');
  const store = new SqliteStore(file);
  await store.setIndexInfo({ model: 'test:512', dimensions: 512 });
  const memories = Array.from({ length: 1_200 }, (_, i) => ({
    memory: makeMemory({ id: `m${i}`, tenant: 'acme', text: `memory ${i} ${'words '.repeat(20)}` }),
    vector: Float32Array.from({ length: 512 }, (_, d) => Math.sin(i + d)),
  }));
  await store.commit({ insert: memories });
  await store.purgeMemories(
    'acme',
    memories.slice(100).map(({ memory }) => memory.id),
  );
  await store.close();
  return file;
}

describe('the doctor’s space check', () => {
  it('reports the free pages a purge left, and compacts them on repair without losing a memory', async () => {
    const file = await fileWithFreePages();
    const sizeBefore = statSync(file).size;
    const doctor = SqliteDoctor.open(file);
    try {
      const space = doctor.examine().findings.filter((finding) => finding.check === 'space');
      expect(space).toEqual([
        expect.objectContaining({
          status: 'notice',
          message: expect.stringMatching(/MB of it free pages left by deleted rows or an upgrade$/),
          fix: expect.stringMatching(/^engram doctor --repair compacts the file/),
        }),
      ]);

      const repairs = doctor.repair().filter((repair) => repair.check === 'space');
      expect(repairs).toEqual([
        { check: 'space', message: expect.stringMatching(/^compacted the file from [\d.]+ MB to [\d.]+ MB$/) },
      ]);
      expect(doctor.examine().findings.filter((finding) => finding.check === 'space')).toEqual([
        expect.objectContaining({ status: 'ok', fix: null }),
      ]);
    } finally {
      doctor.close();
    }
    expect(statSync(file).size).toBeLessThan(sizeBefore / 2);

    const store = new SqliteStore(file);
    expect((await store.stats('acme')).vectors).toBe(100);
    expect((await store.getMemories('acme', ['m0', 'm99'])).map((memory) => memory.id).sort()).toEqual(['m0', 'm99']);
    await store.close();
  });
});
