/**
 * `engram recall` and `engram receipts` as real child processes with the real local model:
 * a recall in one process is explained by the receipt read in the next, the selection mode can
 * be switched back to tier_first_v1 on the same file with no migration, and bad input gets a
 * one-line error.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { Receipt } from '../../src/index.js';
import { calibrate } from '../../src/retrieval/calibration.js';
import { copyDatabase, dbIn, expectOneLineError, makeTempDir, runCli, runJson, runOk } from './helpers.js';

describe('engram recall and engram receipts', () => {
  let dir: string;
  let remove: () => void;
  // Seeded once with the local model; each test gets a copy, so the adds load the model twice per file, not per test.
  let template: ReturnType<typeof makeTempDir>;
  beforeAll(async () => {
    template = makeTempDir();
    await runOk(['add', 'Never deploy to production on Fridays', '--kind', 'constraint', '--tier', 'must'], {
      cwd: template.dir,
    });
    await runOk(['add', 'The billing service stores invoices in PostgreSQL 16', '--kind', 'fact', '--tier', 'nice'], {
      cwd: template.dir,
    });
  });
  afterAll(() => template.remove());
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  /** Two memories, a must constraint and a nice fact, in this test's `.engram/engram.db`. */
  function seed(): void {
    copyDatabase(dbIn(`${template.dir}/.engram`), dbIn(`${dir}/.engram`));
  }

  it('prints the block to inject, and the receipt explains it one screen a decision', async () => {
    seed();

    const block = await runOk(['recall', 'Which database holds the billing invoices?', '--session', 's1'], { cwd: dir });
    const screen = await runOk(['receipts', '--session', 's1', '--turn', '1'], { cwd: dir });
    const [receipt] = await runJson<Receipt[]>(['receipts', '--session', 's1', '--json'], { cwd: dir });

    expect(block).toContain('<engram-memories>');
    expect(block).toContain('- Constraint: Never deploy to production on Fridays');
    expect(block).toContain('The billing service stores invoices in PostgreSQL 16');
    expect(screen).toMatch(/^receipt \S+ {2}active recall {2}session s1 {2}turn 1 /);
    expect(screen).toContain('mode      tier_quota_v1');
    expect(screen).toMatch(/working_set must +pinned/);
    expect(screen).toMatch(/hot +nice +quota/);
    expect(screen).toContain('pinned by the working set (durable constraint)');
    expect(screen.split('\n').length).toBeLessThan(40);
    expect(receipt).toMatchObject({ sessionId: 's1', turn: 1, path: 'active', selectionMode: 'tier_quota_v1' });
    expect(receipt?.chosen.map((entry) => entry.lane)).toEqual(['working_set', 'hot']);
    // The hot memory's score before calibration sits beside the relevance the threshold saw.
    const hot = receipt?.chosen.find((entry) => entry.lane === 'hot')?.factors;
    expect(hot?.relevance).toBeCloseTo(calibrate(hot?.raw ?? -1), 10);
    expect(screen).toContain(`raw ${hot?.raw?.toFixed(2)} rel ${hot?.relevance.toFixed(2)}`);
  });

  it('says in the receipt how the knowledge graph reached a memory', async () => {
    seed();
    await runOk(['recall', 'What do we keep in PostgreSQL?', '--session', 's1'], { cwd: dir });
    const screen = await runOk(['receipts', '--session', 's1', '--turn', '1'], { cwd: dir });
    const [receipt] = await runJson<Receipt[]>(['receipts', '--session', 's1', '--json'], { cwd: dir });

    expect(screen).toMatch(/The billing service stores invoices in PostgreSQL 16\n.*— .*via PostgreSQL/);
    expect(receipt?.chosen.find((entry) => entry.lane === 'hot')?.via).toBe('PostgreSQL');
  });

  it('switches back to tier_first_v1 with one setting on the same database, without a migration', async () => {
    seed();
    await runOk(['recall', 'Which database holds the billing invoices?', '--session', 's1'], { cwd: dir });
    const version = () => {
      const db = new Database(dbIn(`${dir}/.engram`), { readonly: true });
      try {
        return db.pragma('user_version', { simple: true });
      } finally {
        db.close();
      }
    };
    const before = version();

    await runOk(['recall', 'And where are invoices kept?', '--session', 's1'], {
      cwd: dir,
      env: { ENGRAM_AUTO_RECALL__SELECTION_MODE: 'tier_first_v1' },
    });
    const receipts = await runJson<Receipt[]>(['receipts', '--session', 's1', '--json'], { cwd: dir });

    expect(receipts.map((r) => [r.turn, r.selectionMode])).toEqual([
      [2, 'tier_first_v1'],
      [1, 'tier_quota_v1'],
    ]);
    expect(version()).toBe(before);
  });

  it('refuses bad input with one line and leaves the database as it was', async () => {
    seed();

    expectOneLineError(await runCli(['receipts', '--turn', '0'], { cwd: dir }), /--turn must be a whole number/);
    expectOneLineError(await runCli(['receipts', '--limit', 'lots'], { cwd: dir }), /limit/);
    expectOneLineError(await runCli(['recall', '   '], { cwd: dir }), /the message is empty: give one, e\.g\. engram recall "/);
    expectOneLineError(await runCli(['receipts', '--db', `${dir}/missing.db`], { cwd: dir }), /missing\.db/);
    expect(await runOk(['receipts'], { cwd: dir })).toMatch(/^no receipts/);
  });
});
