/**
 * Every mistake a user can make at the command line ends the same way: one line on standard
 * error starting with `engram:`, no stack trace, a non-zero exit, and the database as it was.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  dbIn,
  expectOneLineError,
  type ExportedMemory,
  LEXICAL,
  makeTempDir,
  readDatabase,
  runCli,
  runJson,
  syntheticRecord,
} from './helpers.js';

describe('bad input against an existing database', () => {
  let dir: string;
  let remove: () => void;
  let seeded: ExportedMemory;
  let before: ReturnType<typeof readDatabase>;
  const run = () => ({ cwd: dir, env: LEXICAL });
  const fail = (args: string[], input?: string) => runCli(args, { ...run(), input });

  beforeAll(async () => {
    ({ dir, remove } = makeTempDir());
    seeded = await runJson<ExportedMemory>(['add', 'We chose PostgreSQL for billing', '--kind', 'decision'], run());
  });
  afterAll(() => remove());
  const database = () => dbIn(dir, '.engram/engram.db');
  beforeEach(() => {
    before = readDatabase(database());
  });
  afterEach(() => {
    expect(readDatabase(database())).toEqual(before);
  });

  it('rejects empty text given as an argument', async () => {
    expectOneLineError(await fail(['add', '']), /text is empty/);
  });

  it('rejects empty text on standard input', async () => {
    expectOneLineError(await fail(['add'], ''), /text is empty/);
    expectOneLineError(await fail(['add', '-'], '  \n\n'), /text is empty/);
  });

  it('rejects an unknown kind and names the allowed ones', async () => {
    expectOneLineError(await fail(['add', 'something', '--kind', 'bogus']), /kind must be one of: .*decision/);
  });

  it('rejects an unknown tier and names the allowed ones', async () => {
    expectOneLineError(await fail(['add', 'something', '--tier', 'bogus']), /tier must be one of: .*must/);
  });

  it('refuses a --db in a missing directory and creates no directory', async () => {
    const missing = path.join(dir, 'no-such-dir', 'engram.db');
    expectOneLineError(await fail(['add', 'something', '--db', missing]), /does not exist/);
    expect(existsSync(path.dirname(missing))).toBe(false);
  });

  it('imports nothing from a file with a corrupt line, not even the valid lines before it, and names the line', async () => {
    const file = path.join(dir, 'corrupt.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify(syntheticRecord(1))}\n${JSON.stringify(syntheticRecord(2))}\n{"id": "01JD", oops\n${JSON.stringify(syntheticRecord(3))}\n`,
    );
    expectOneLineError(await fail(['import', file]), /line 3\b.*nothing was imported/);
  });

  it('imports nothing from a file with a field of the wrong type, and names the line and the field', async () => {
    const file = path.join(dir, 'wrong-type.jsonl');
    const wrong = { ...syntheticRecord(5), pinned: 'yes' };
    writeFileSync(file, `${JSON.stringify(syntheticRecord(4))}\n${JSON.stringify(wrong)}\n`);
    expectOneLineError(await fail(['import', file]), /line 2\b.*pinned/);
  });

  it('imports nothing from a file that repeats an id or has an unknown field', async () => {
    const repeated = path.join(dir, 'repeated.jsonl');
    writeFileSync(
      repeated,
      [syntheticRecord(6), syntheticRecord(7), syntheticRecord(6)].map((r) => `${JSON.stringify(r)}\n`).join(''),
    );
    expectOneLineError(await fail(['import', repeated]), /line 3\b.*already appears on line 1/);
    const unknown = path.join(dir, 'unknown-field.jsonl');
    writeFileSync(unknown, `${JSON.stringify({ ...syntheticRecord(8), colour: 'blue' })}\n`);
    expectOneLineError(await fail(['import', unknown]), /line 1\b.*unknown field colour/);
  });

  it('imports nothing from a file whose records would give two live memories one key', async () => {
    const clash = path.join(dir, 'clash.jsonl');
    const records = [syntheticRecord(9, { key: 'standup' }), syntheticRecord(10, { key: 'standup' })];
    writeFileSync(clash, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    expectOneLineError(await fail(['import', clash]), /share a key.*nothing was imported/);
  });

  it('reports an unknown id in show', async () => {
    expectOneLineError(await fail(['show', '01JDNOSUCHMEMORY000000000']), /no memory with id 01JDNOSUCHMEMORY000000000/);
  });

  it('reports an unknown id in forget and forgets nothing', async () => {
    expectOneLineError(await fail(['forget', '01JDNOSUCHMEMORY000000000']), /no memory with id/);
    expectOneLineError(await fail(['forget', '01JDNOSUCHMEMORY000000000', '--hard']), /no memory with id/);
  });

  it('rejects --limit 0 in search and list', async () => {
    expectOneLineError(await fail(['search', 'billing', '--limit', '0']), /--limit must be a whole number .*\(got 0\)/);
    expectOneLineError(await fail(['list', '--limit', '0']), /--limit must be a whole number .*\(got 0\)/);
  });

  it('rejects superseding an unknown id', async () => {
    expectOneLineError(await fail(['add', 'new text', '--supersedes', '01JDNOSUCHMEMORY000000000']), /cannot supersede/);
    expect(before.memories).toEqual([expect.objectContaining({ id: seeded.id, superseded_by: null })]);
  });
});

describe('bad input before any database exists', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('creates no database when add is refused', async () => {
    expectOneLineError(await runCli(['add', ''], { cwd: dir, env: LEXICAL }), /text is empty/);
    expectOneLineError(await runCli(['add', 'something', '--kind', 'bogus'], { cwd: dir, env: LEXICAL }), /kind must be/);
    expectOneLineError(
      await runCli(['add', 'something', '--db', 'new.db', '--tier', 'bogus'], { cwd: dir, env: LEXICAL }),
      /tier/,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it('creates no database when an import is refused', async () => {
    writeFileSync(path.join(dir, 'wrong-type.jsonl'), `${JSON.stringify({ ...syntheticRecord(1), pinned: 'yes' })}\n`);
    expectOneLineError(await runCli(['import', 'wrong-type.jsonl'], { cwd: dir, env: LEXICAL }), /line 1\b.*pinned/);
    expectOneLineError(await runCli(['import', 'wrong-type.jsonl', '--db', 'new.db'], { cwd: dir, env: LEXICAL }), /pinned/);
    expect(readdirSync(dir)).toEqual(['wrong-type.jsonl']);
  });
});

describe('usage mistakes', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it.each([
    ['an unknown command', ['frobnicate'], /frobnicate/],
    ['an unknown option', ['list', '--frobnicate'], /--frobnicate/],
    ['a missing argument', ['show'], /id/],
  ])('reports %s in one engram: line', async (_name, args, message) => {
    expectOneLineError(await runCli(args, { cwd: dir, env: LEXICAL }), message);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('a file that is not an Engram database', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('is refused by every command and left byte for byte as it was', async () => {
    const file = path.join(dir, 'notes.db');
    const garbage = Buffer.from('this is not SQLite at all, just some notes\n'.repeat(200));
    writeFileSync(file, garbage);
    for (const args of [['add', 'something'], ['search', 'something'], ['list'], ['stats'], ['export']]) {
      const result = await runCli([...args, '--db', file], { cwd: dir, env: LEXICAL });
      expectOneLineError(result, /not an Engram database/);
    }
    expect(readFileSync(file).equals(garbage)).toBe(true);
    expect(readdirSync(dir)).toEqual(['notes.db']);
  });
});

describe('a bad engram.toml', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('names the unknown key and the file, and creates no database', async () => {
    writeFileSync(path.join(dir, 'engram.toml'), '[store]\ntenant = "me"\nbogus_key = 1\n');
    const line = expectOneLineError(await runCli(['add', 'something'], { cwd: dir }));
    expect(line).toContain('engram.toml');
    expect(line).toContain('store.bogus_key');
    expect(existsSync(path.join(dir, '.engram'))).toBe(false);
  });

  it('names the key whose value has the wrong type', async () => {
    writeFileSync(path.join(dir, 'engram.toml'), '[embedding]\nbatch_size = "large"\n');
    const line = expectOneLineError(await runCli(['list'], { cwd: dir }));
    expect(line).toContain('engram.toml');
    expect(line).toMatch(/embedding\.batch_size must be a whole number/);
  });

  it('names a file given with --config', async () => {
    writeFileSync(path.join(dir, 'custom.toml'), 'unknown_section_key = true\n');
    const line = expectOneLineError(await runCli(['stats', '--config', 'custom.toml'], { cwd: dir }));
    expect(line).toContain('custom.toml');
    expect(line).toContain('unknown_section_key');
  });

  it('reports a file that is not TOML', async () => {
    writeFileSync(path.join(dir, 'engram.toml'), '[store\npath = \n');
    expectOneLineError(await runCli(['list'], { cwd: dir }), /engram\.toml is not valid TOML/);
  });
});

describe('read commands on a missing database', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it.each([[['search', 'billing']], [['list']], [['stats']], [['show', '01JD0000000000000000000001']], [['export']]])(
    'engram %j fails clearly and creates nothing',
    async (args) => {
      expectOneLineError(await runCli(args, { cwd: dir, env: LEXICAL }), /no Engram database at .*engram add/);
      expectOneLineError(
        await runCli([...args, '--db', 'missing.db'], { cwd: dir, env: LEXICAL }),
        /no Engram database at missing\.db/,
      );
      expect(readdirSync(dir)).toEqual([]);
    },
  );
});
