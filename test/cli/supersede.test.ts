/**
 * Replacing a memory keeps history: `--supersedes ID` or a repeated `--key` marks the old one
 * superseded (kept, shown by `show` and `list --all`) and hides it from search.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, type ExportedMemory, LEXICAL, makeTempDir, runCli, runJson } from './helpers.js';

describe('replacing a memory', () => {
  let dir: string;
  let remove: () => void;
  const run = () => ({ cwd: dir, env: LEXICAL });
  const hitIds = (hits: { memory: { id: string } }[]) => hits.map((hit) => hit.memory.id);

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('with --supersedes keeps the old memory, marked superseded and hidden from search', async () => {
    const old = await runJson<ExportedMemory>(['add', 'The billing database is MySQL', '--kind', 'decision'], run());
    const next = await runJson<ExportedMemory>(
      ['add', 'The billing database is PostgreSQL', '--kind', 'decision', '--supersedes', old.id],
      run(),
    );

    const kept = await runJson<ExportedMemory>(['show', old.id], run());
    expect(kept).toMatchObject({ id: old.id, text: 'The billing database is MySQL', supersededBy: next.id, archivedAt: null });
    expect(hitIds(await runJson(['search', 'billing database'], run()))).toEqual([next.id]);
    expect(hitIds(await runJson(['search', 'MySQL'], run()))).toEqual([]);
    expect((await runJson<ExportedMemory[]>(['list'], run())).map((memory) => memory.id)).toEqual([next.id]);
    expect((await runJson<ExportedMemory[]>(['list', '--all'], run())).map((memory) => memory.id).sort()).toEqual(
      [old.id, next.id].sort(),
    );

    // Only a live memory can be superseded.
    expectOneLineError(
      await runCli(['add', 'The billing database is SQLite', '--supersedes', old.id], run()),
      /already superseded/,
    );
  });

  it('keeps the tier, scope and tags of the memory a new version replaces', async () => {
    const old = await runJson<ExportedMemory>(
      ['add', 'We chose PostgreSQL for billing', '--kind', 'decision', '--tier', 'must', '--scope', 'project:b', '--tag', 'db'],
      run(),
    );
    const next = await runJson<ExportedMemory>(
      ['add', 'Billing moved to CockroachDB in May', '--kind', 'decision', '--supersedes', old.id],
      run(),
    );
    expect(next).toMatchObject({ kind: 'decision', tier: 'must', scope: 'project:b', tags: ['db'] });
    const told = await runJson<ExportedMemory>(
      ['add', 'Billing is on YugabyteDB', '--tier', 'nice', '--supersedes', next.id],
      run(),
    );
    expect(told).toMatchObject({ kind: 'decision', tier: 'nice', scope: 'project:b' });
  });

  it('with the same --key in the same scope supersedes the previous keyed note', async () => {
    const first = await runJson<ExportedMemory>(['add', 'Release train leaves on Monday', '--key', 'release-day'], run());
    const other = await runJson<ExportedMemory>(
      ['add', 'Release train leaves on Monday', '--key', 'release-day', '--scope', 'project:x'],
      run(),
    );
    const second = await runJson<ExportedMemory>(['add', 'Release train leaves on Thursday', '--key', 'release-day'], run());

    expect(await runJson<ExportedMemory>(['show', first.id], run())).toMatchObject({
      key: 'release-day',
      supersededBy: second.id,
    });
    expect(await runJson<ExportedMemory>(['show', other.id], run())).toMatchObject({ supersededBy: null });
    expect(await runJson<ExportedMemory>(['show', second.id], run())).toMatchObject({ key: 'release-day', supersededBy: null });
    expect(hitIds(await runJson(['search', 'release train'], run())).sort()).toEqual([other.id, second.id].sort());
  });
});
