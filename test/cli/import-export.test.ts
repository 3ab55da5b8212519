/**
 * Export and import as a backup format: a round trip into a new database reproduces every
 * field, re-importing skips what is already there, `--replace` overwrites, and large imports
 * report progress.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
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
  syntheticRecord,
  writeSyntheticJsonl,
} from './helpers.js';

interface ImportSummary {
  read: number;
  imported: number;
  replaced: number;
  skipped: number;
  graph: { entities: number; relations: number; newEntities: number; newRelations: number };
}

/** The summary of an import that read memories only. */
const NO_GRAPH = { entities: 0, relations: 0, newEntities: 0, newRelations: 0 };

describe('engram export and import', () => {
  let dir: string;
  let remove: () => void;
  const run = () => ({ cwd: dir, env: LEXICAL });

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  /** A source database with every field set somewhere, superseded, archived and retrieved memories. */
  async function seedVariedDatabase(): Promise<ExportedMemory[]> {
    const everyOption = [
      ['--kind', 'preference'],
      ['--tier', 'nice'],
      ['--scope', 'user:alice'],
      ['--tag', 'style,tone'],
      ['--tag', 'brevity'],
      ['--abstract', 'Alice likes brevity'],
      ['--context', 'Bob asked how Alice likes her answers'],
      ['--session', 's-42'],
      ['--source', 'agent'],
      ['--occurred-at', '2025-03-04T05:06:07.000Z'],
      ['--pinned'],
      ['--hard-rule'],
      ['--data', '{"strength":0.9,"nested":{"list":[1,"two",null]}}'],
    ].flat();
    await runOk(['add', 'Alice prefers short answers', ...everyOption], run());
    await runOk(['add', '-', '--kind', 'note'], { ...run(), input: 'Line one\nline two: ünïcödé, "quotes", emoji 🎉\n' });
    await runOk(['add', 'Standup is at 9:30', '--key', 'standup', '--kind', 'fact', '--tier', 'must'], run());
    await runOk(['add', 'Standup is at 10:00', '--key', 'standup', '--kind', 'fact', '--tier', 'must'], run());
    const archived = await runJson<ExportedMemory>(['add', 'Old office is in Berlin'], run());
    await runOk(['forget', archived.id], run());
    await runOk(['search', 'standup', '--record'], run()); // sets retrievalCount and lastRetrievedAt
    return exportMemories(run());
  }

  it('round-trips every field of every memory into a new database', async () => {
    const original = await seedVariedDatabase();
    expect(original).toHaveLength(5);
    expect(original).toContainEqual(
      expect.objectContaining({
        kind: 'preference',
        tier: 'nice',
        scope: 'user:alice',
        tags: ['style', 'tone', 'brevity'],
        abstract: 'Alice likes brevity',
        context: 'Bob asked how Alice likes her answers',
        sessionId: 's-42',
        source: 'agent',
        occurredAt: '2025-03-04T05:06:07.000Z',
        pinned: true,
        hardRule: true,
        data: { strength: 0.9, nested: { list: [1, 'two', null] } },
      }),
    );
    expect(original.some((memory) => memory.supersededBy !== null)).toBe(true);
    expect(original.some((memory) => memory.archivedAt !== null)).toBe(true);
    expect(original.some((memory) => memory.retrievalCount > 0)).toBe(true);

    expect(await runOk(['export', 'backup.jsonl'], run())).toBe('');
    const copy = dbIn(dir, 'copy.db');
    const summary = await runJson<ImportSummary>(['import', 'backup.jsonl', '--db', copy], run());
    expect(summary).toEqual({ read: 5, imported: 5, replaced: 0, skipped: 0, graph: NO_GRAPH });
    expect(await exportMemories(run(), copy)).toEqual(original);

    // The same through a pipe: standard input, no file argument.
    const piped = dbIn(dir, 'piped.db');
    const stdout = await runOk(['export'], run());
    expect(await runOk(['import', '--db', piped], { ...run(), input: stdout })).toBe(
      'read 5 memories from standard input: imported 5 memories\n',
    );
    expect(await exportMemories(run(), piped)).toEqual(original);
  });

  it('refuses to overwrite an existing export file', async () => {
    await runOk(['add', 'something'], run());
    writeFileSync(path.join(dir, 'taken.jsonl'), 'keep me\n');
    expectOneLineError(await runCli(['export', 'taken.jsonl'], run()), /taken\.jsonl already exists/);
    expect(readFileSync(path.join(dir, 'taken.jsonl'), 'utf8')).toBe('keep me\n');
  });

  it('skips records already present when the same file is imported twice', async () => {
    const file = path.join(dir, 'records.jsonl');
    writeSyntheticJsonl(file, 20);
    expect(await runJson<ImportSummary>(['import', file], run())).toEqual({
      read: 20,
      imported: 20,
      replaced: 0,
      skipped: 0,
      graph: NO_GRAPH,
    });
    const once = readDatabase(dbIn(dir, '.engram/engram.db'));

    expect(await runJson<ImportSummary>(['import', file], run())).toEqual({
      read: 20,
      imported: 0,
      replaced: 0,
      skipped: 20,
      graph: NO_GRAPH,
    });
    expect(readDatabase(dbIn(dir, '.engram/engram.db'))).toEqual(once);
    expect(await exportMemories(run())).toEqual(Array.from({ length: 20 }, (_, i) => syntheticRecord(i)));
  });

  it('overwrites records already present with --replace, and only then', async () => {
    const file = path.join(dir, 'records.jsonl');
    writeSyntheticJsonl(file, 3);
    await runOk(['import', file], run());

    const changed = [
      syntheticRecord(1, { text: 'rewritten memory about zeppelins', tier: 'must', tags: ['changed'] }),
      syntheticRecord(2, { archivedAt: '2025-06-01T00:00:00.000Z', retrievalCount: 7 }),
      syntheticRecord(3),
    ];
    const update = path.join(dir, 'update.jsonl');
    writeFileSync(update, changed.map((record) => `${JSON.stringify(record)}\n`).join(''));

    expect(await runJson<ImportSummary>(['import', update], run())).toEqual({
      read: 3,
      imported: 1,
      replaced: 0,
      skipped: 2,
      graph: NO_GRAPH,
    });
    expect((await exportMemories(run()))[1]).toEqual(syntheticRecord(1));
    await runOk(['forget', '--hard', syntheticRecord(3).id], run());

    expect(await runJson<ImportSummary>(['import', update, '--replace'], run())).toEqual({
      read: 3,
      imported: 1,
      replaced: 2,
      skipped: 0,
      graph: NO_GRAPH,
    });
    expect(await exportMemories(run())).toEqual([syntheticRecord(0), ...changed]);
    // The full-text index follows the new text.
    const hits = await runJson<{ memory: ExportedMemory }[]>(['search', 'zeppelins'], run());
    expect(hits.map((hit) => hit.memory.id)).toEqual([syntheticRecord(1).id]);
  });

  it('reports progress on standard error for a large import with --progress', async () => {
    // Large enough for a progress bar (200 memories and up); past that the size changes nothing
    // but the time the import takes (3,000 took ~3.5 s of CPU twice over, extracting each one's graph).
    const file = path.join(dir, 'large.jsonl');
    writeSyntheticJsonl(file, 300);
    const result = await runCli(['import', file, '--progress'], run());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('read 300 memories from large.jsonl: imported 300 memories\n');
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/^[a-z]+ \d+\/300 \(\d+%\)$/);
    expect(lines).toContain('writing 300/300 (100%)');
    expect(existsSync(dbIn(dir, '.engram/engram.db'))).toBe(true);

    // Without --progress, and with standard error not a terminal, it stays quiet.
    const again = await runCli(['import', file, '--db', dbIn(dir, 'quiet.db')], run());
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('');
  });
});
