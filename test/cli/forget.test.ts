/**
 * Forgetting: archiving hides a memory from search and lists but keeps it in `list --all` and
 * exports; `--hard` deletes it for good; `restore` brings an archived one back; a list of ids
 * is checked before anything changes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  copyDatabase,
  dbIn,
  expectOneLineError,
  type ExportedMemory,
  exportMemories,
  LEXICAL,
  makeTempDir,
  readDatabase,
  runCli,
  runJson,
  runOk,
} from './helpers.js';

describe('engram forget', () => {
  let dir: string;
  let remove: () => void;
  let billing: ExportedMemory;
  let deploys: ExportedMemory;
  const run = () => ({ cwd: dir, env: LEXICAL });
  const ids = (memories: { id: string }[]) => memories.map((memory) => memory.id);
  const hitIds = (hits: { memory: { id: string } }[]) => hits.map((hit) => hit.memory.id);

  // Two memories added once; each test forgets in its own copy of that database.
  let template: ReturnType<typeof makeTempDir>;
  beforeAll(async () => {
    template = makeTempDir();
    const seeding = { cwd: template.dir, env: LEXICAL };
    billing = await runJson<ExportedMemory>(['add', 'We chose PostgreSQL for billing', '--kind', 'decision'], seeding);
    deploys = await runJson<ExportedMemory>(['add', 'Billing deploys happen on Tuesdays', '--kind', 'fact'], seeding);
  });
  afterAll(() => template.remove());
  beforeEach(() => {
    ({ dir, remove } = makeTempDir());
    copyDatabase(dbIn(template.dir, '.engram/engram.db'), dbIn(dir, '.engram/engram.db'));
  });
  afterEach(() => remove());

  it('archives: hidden from search and list, still in list --all and export', async () => {
    expect(await runOk(['forget', billing.id], run())).toBe(`archived ${billing.id}\n`);

    expect(hitIds(await runJson(['search', 'billing'], run()))).toEqual([deploys.id]);
    expect(ids(await runJson(['list'], run()))).toEqual([deploys.id]);
    expect(ids(await runJson(['list', '--all'], run())).sort()).toEqual([billing.id, deploys.id].sort());
    expect(await runOk(['list', '--all'], run())).toMatch(new RegExp(`^${billing.id} .*\\[archived\\]`, 'm'));

    const exported = await exportMemories(run());
    expect(ids(exported).sort()).toEqual([billing.id, deploys.id].sort());
    expect(exported.find((memory) => memory.id === billing.id)?.archivedAt).toEqual(expect.any(String));
  });

  it('deletes for good with --hard: gone from list --all and export', async () => {
    expect(await runJson(['forget', billing.id, '--hard'], run())).toEqual([{ id: billing.id, outcome: 'deleted' }]);

    expect(ids(await runJson(['list', '--all'], run()))).toEqual([deploys.id]);
    expect(ids(await exportMemories(run()))).toEqual([deploys.id]);
    expectOneLineError(await runCli(['show', billing.id], run()), /no memory with id/);
  });

  it('changes nothing when one of several ids is unknown', async () => {
    const database = dbIn(dir, '.engram/engram.db');
    const before = readDatabase(database);
    const unknown = '01JDNOSUCHMEMORY000000000';
    expectOneLineError(
      await runCli(['forget', billing.id, unknown, deploys.id], run()),
      new RegExp(`no memory with id ${unknown}: nothing was forgotten`),
    );
    expectOneLineError(await runCli(['forget', billing.id, unknown, '--hard'], run()), new RegExp(unknown));
    expect(readDatabase(database)).toEqual(before);
  });

  it('forgets several ids at once', async () => {
    expect(await runOk(['forget', billing.id, deploys.id], run())).toBe(`archived ${billing.id}\narchived ${deploys.id}\n`);
    expect(await runOk(['list'], run())).toBe('no memories\n');
    expect(await runOk(['search', 'billing'], run())).toBe('no memories match\n');
  });

  it('restores forgotten memories in place with engram restore, and checks every id first', async () => {
    await runOk(['forget', billing.id, deploys.id], run());
    const database = dbIn(dir, '.engram/engram.db');
    const before = readDatabase(database);
    const unknown = '01JDNOSUCHMEMORY000000000';
    expectOneLineError(
      await runCli(['restore', billing.id, unknown], run()),
      new RegExp(`no memory with id ${unknown}: nothing was restored`),
    );
    expect(readDatabase(database)).toEqual(before);

    expect(await runOk(['restore', billing.id], run())).toBe(`restored ${billing.id}\n`);
    expect(await runJson(['restore', deploys.id], run())).toEqual([{ id: deploys.id, outcome: 'restored' }]);
    expect(ids(await runJson(['list'], run())).sort()).toEqual([billing.id, deploys.id].sort());
    expect(hitIds(await runJson(['search', 'billing'], run())).sort()).toEqual([billing.id, deploys.id].sort());
  });
});
