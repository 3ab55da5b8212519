/**
 * What the hostile-input section stores before the fuzzing starts, and how it checks that none
 * of it was lost or changed afterwards: a snapshot of every seeded memory (the fields an export
 * carries, without the retrieval counters that searches move), taken before and after.
 */
import { type Memory, openEngram } from 'engram';
import { SqliteStore } from 'engram/internal';

import { checkStore } from './check-store.js';
import { recordProblem, type SurfaceFigures } from './hostile-figures.js';

/** Seeds `file` with memories of several kinds, a solution and a session; returns their ids. */
export async function seedDatabase(file: string, tenant = 'default'): Promise<string[]> {
  const engram = await openEngram({ path: file, embedder: null, tenant });
  try {
    const kinds = ['fact', 'preference', 'decision', 'constraint', 'goal', 'note'] as const;
    const memories = await engram.rememberMany(
      Array.from({ length: 30 }, (_, i) => ({
        text: `seeded ${tenant} memory ${i}: billing runs on postgres, deploys go out on Tuesday`,
        kind: kinds[i % kinds.length],
        tier: i % 3 === 0 ? ('must' as const) : ('nice' as const),
        scope: i % 2 === 0 ? 'global' : 'user:alice',
      })),
    );
    const session = engram.session({ id: 'seeded-session' });
    await session.start();
    await session.beforeTurn('which database does billing use?');
    await session.end();
    return memories.map((memory) => memory.id);
  } finally {
    await engram.close();
  }
}

/** The stored fields of `ids`, each as one JSON string. */
export async function snapshotMemories(file: string, ids: readonly string[], tenant = 'default'): Promise<Map<string, string>> {
  const store = new SqliteStore(file);
  try {
    const snapshot = new Map<string, string>();
    for (const memory of await store.getMemories(tenant, ids)) snapshot.set(memory.id, stableFields(memory));
    return snapshot;
  } finally {
    await store.close();
  }
}

function stableFields(memory: Memory): string {
  const { lastRetrievedAt: _at, retrievalCount: _count, supersededBy: _by, ...rest } = memory;
  return JSON.stringify(rest);
}

/**
 * Compares the seeded memories after the run with the snapshot before it; ids in `touched` were
 * changed by an accepted request and are left out. Then runs the doctor on the file.
 */
export async function checkStoredAfter(
  figures: SurfaceFigures,
  file: string,
  before: Map<string, string>,
  touched: ReadonlySet<string>,
  tenant = 'default',
): Promise<void> {
  const after = await snapshotMemories(file, [...before.keys()], tenant);
  for (const [id, fields] of before) {
    if (touched.has(id)) continue;
    const now = after.get(id);
    if (now === undefined) recordProblem(figures, 'storedChanged', `seeded memory ${id} is gone`);
    else if (now !== fields) recordProblem(figures, 'storedChanged', `seeded memory ${id} changed: ${now}`);
  }
  const check = await checkStore(file);
  for (const problem of check.problems) recordProblem(figures, 'doctorProblems', problem);
}

/**
 * Everything a tenant has stored, as one string: every memory (archived and superseded too,
 * without the retrieval counters) and the whole knowledge graph. Unlike SQLite's data_version it
 * ignores what a process does to the file on its own (planner statistics, checkpoints on close),
 * so it is the check for one-shot processes: a refused command leaves it as it was.
 */
export interface StoredFingerprint {
  read(): Promise<string>;
  close(): Promise<void>;
}

export function fingerprintStore(file: string, tenant = 'default'): StoredFingerprint {
  const store = new SqliteStore(file);
  return {
    async read() {
      const memories = await store.listMemories(
        { tenant, includeArchived: true, includeSuperseded: true },
        { limit: 1_000_000, order: 'oldest' },
      );
      const graph = await store.readGraph(tenant, { limit: 100_000, includeInvalidated: true });
      return JSON.stringify([memories.map((memory) => stableFields(memory)), graph]);
    },
    close: () => store.close(),
  };
}
