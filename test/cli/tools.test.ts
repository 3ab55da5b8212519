/**
 * The CLI mirrors of the memory tools — note, handoff, scratch, log, solution add/recall — run
 * as the real binary: they write what the tools write, print it back, log each note, and fail
 * with one `engram:` line.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, exportMemories, LEXICAL, makeTempDir, readDatabase, runCli, runJson, runOk } from './helpers.js';

const CSV_BLOCK = [
  '### RECALL: Similar Task Found in Memory',
  'Similarity: 33%',
  'Prior Goal: Write a CSV parser',
  'How it was solved: Used fs.readFileSync, split by newlines.',
  'Outcome: Working script',
  'Confidence: 90%',
  'Consider this approach before starting from scratch.',
  '### END RECALL',
].join('\n');

describe('the memory tool mirrors', () => {
  let dir: string;
  let remove: () => void;
  const run = (input?: string) => ({ cwd: dir, env: LEXICAL, ...(input === undefined ? {} : { input }) });
  const today = new Date().toISOString().slice(0, 10);

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('engram note writes, appends and prints a keyed note, and logs each write', async () => {
    expect(await runOk(['note', 'deploy-steps', 'Build', 'the', 'image.'], run())).toBe(
      'Saved note deploy-steps (16 characters).\n',
    );
    await runOk(['note', 'deploy-steps', 'Push it.', '--append'], run());
    expect(await runOk(['note', 'deploy-steps'], run())).toBe('Build the image.\nPush it.\n');
    expect(await runJson(['note', 'deploy-steps'], run())).toMatchObject({ key: 'deploy-steps', kind: 'note', source: 'user' });
    await runOk(['note', 'deploy-steps', '-', '--scope', 'project:x'], run('From standard input\n'));
    expect(await runOk(['note', 'deploy-steps', '--scope', 'project:x'], run())).toBe('From standard input\n');

    const log = await runJson<{ action: string; key: string; summary: string }[]>(['log'], run());
    expect(log.map((line) => [line.action, line.summary])).toEqual([
      ['write_memory', 'created deploy-steps: Build the image.'],
      ['write_memory', 'appended to deploy-steps: Push it.'],
      ['write_memory', 'created deploy-steps: From standard input'],
    ]);
    expect(await runOk(['log', '--day', today], run())).toMatch(
      /^\d\d:\d\d:\d\d {2}write_memory {2}created deploy-steps: Build the image\.$/m,
    );
    expect(await runOk(['log', '--day', '2020-01-01'], run())).toBe('no activity on 2020-01-01\n');
  });

  it('engram handoff overwrites the one handoff note and prints it', async () => {
    await runOk(['handoff', 'Half done.'], run());
    expect(await runJson(['handoff', 'Done; deploy next.'], run())).toMatchObject({ key: 'session-handoff', replaced: true });
    expect(await runOk(['handoff'], run())).toBe('Done; deploy next.\n');
    const handoffs = (await exportMemories(run())).filter((memory) => memory.kind === 'handoff');
    expect(handoffs.map((memory) => [memory.text, memory.supersededBy === null])).toEqual([
      ['Half done.', false],
      ['Done; deploy next.', true],
    ]);
  });

  it('engram scratch replaces, appends, prints and clears the scratchpad', async () => {
    await runOk(['scratch', '1. parse'], run());
    await runOk(['scratch', '2. validate', '--append'], run());
    expect(await runOk(['scratch'], run())).toBe('1. parse\n2. validate\n');
    expect(await runJson(['scratch', '--clear'], run())).toMatchObject({ mode: 'clear', text: '' });
    expect(await runOk(['scratch'], run())).toBe('the scratchpad is empty\n');
    expect(await runJson(['scratch'], run())).toMatchObject({ mode: 'read', text: '' });
  });

  it('engram solution add and recall reproduce the worked example of seed 004', async () => {
    const added = await runJson<{ id: string; status: string }>(
      [
        'solution',
        'add',
        '--goal',
        'Write a CSV parser',
        '--approach',
        'Used fs.readFileSync, split by newlines.',
        '--outcome',
        'Working script',
        '--confidence',
        '90',
      ],
      run(),
    );
    expect(added.status).toBe('succeeded');
    expect(await runOk(['solution', 'recall', 'Parse a CSV file', '--similarity', 'keyword'], run())).toBe(`${CSV_BLOCK}\n`);
    expect(await runJson(['solution', 'recall', 'Parse', 'a', 'CSV', 'file', '--similarity', 'keyword'], run())).toMatchObject({
      count: 1,
      block: CSV_BLOCK,
      solutions: [{ id: added.id, similarity: 33 }],
    });
    expect(await runOk(['solution', 'recall', 'Fetch web pages', '--similarity', 'keyword'], run())).toBe(
      'No similar task found in memory.\n',
    );
  });

  it('engram solution add --failed records what not to repeat', async () => {
    await runOk(
      [
        'solution',
        'add',
        '--goal',
        'Write a CSV parser',
        '--approach',
        'Split on commas',
        '--outcome',
        'Broke on quotes',
        '--confidence',
        '60',
        '--failed',
      ],
      run(),
    );
    const block = await runOk(['solution', 'recall', 'Write a CSV parser'], run());
    expect(block).toContain('### RECALL: Similar Task Failed Before\nSimilarity: 100%');
    expect(block).toContain('Outcome: FAILED: Broke on quotes');
  });

  it('reports every mistake as one engram: line and changes nothing', async () => {
    await runOk(['note', 'kept', 'as it is'], run());
    const file = path.join(dir, '.engram', 'engram.db');
    const before = readDatabase(file);
    const cases: [string[], RegExp][] = [
      [['note', 'missing'], /^engram: no note missing in scope global: write one with `engram note missing "text"`$/],
      [['note', 'session-handoff', 'x'], /key session-handoff is reserved: use write_session_handoff/],
      [['note', 'k', 'x', '--tier', 'vital'], /tier must be one of: must, nice, unknown/],
      [['note', 'k', '   '], /content is empty/],
      [['scratch', 'x', '--clear'], /--clear takes no text/],
      [['scratch', '--append'], /--append needs the text to add/],
      [['log', '--day', 'yesterday'], /day must be a date like 2026-01-31/],
      [
        ['solution', 'add', '--goal', 'g', '--approach', 'a', '--outcome', 'o', '--confidence', 'lots'],
        /--confidence must be a number from 0 to 100 \(got lots\)/,
      ],
      [
        ['solution', 'add', '--goal', 'g', '--approach', 'a', '--outcome', 'o'],
        /required option '--confidence <n>' not specified/,
      ],
      [['solution', 'recall', 'g', '--similarity', 'vibes'], /similarity must be one of: keyword, semantic, hybrid/],
    ];
    for (const [args, message] of cases) expectOneLineError(await runCli(args, run()), message);
    expect(readDatabase(file)).toEqual(before);
  });

  it('read commands refuse to create a database', async () => {
    for (const args of [['note', 'k'], ['handoff'], ['scratch'], ['log'], ['solution', 'recall', 'goal']]) {
      expectOneLineError(await runCli(args, run()), /database|no such/i);
    }
    expect(existsSync(path.join(dir, '.engram'))).toBe(false);
  });

  it('engram solution recall --similarity semantic finds the paraphrase keyword overlap misses (local model)', async () => {
    const withModel = { cwd: dir }; // the default embedder: the local model
    await runOk(
      [
        'solution',
        'add',
        '--goal',
        'Fetch web pages',
        '--approach',
        'fetch() and cheerio',
        '--outcome',
        'Crawler',
        '--confidence',
        '85',
      ],
      withModel,
    );
    expect(await runOk(['solution', 'recall', 'Retrieve HTML content', '--similarity', 'keyword'], withModel)).toBe(
      'No similar task found in memory.\n',
    );
    const block = await runOk(['solution', 'recall', 'Retrieve HTML content', '--similarity', 'semantic'], withModel);
    expect(block).toMatch(/^### RECALL: Similar Task Found in Memory\nSimilarity: \d+%\nPrior Goal: Fetch web pages\n/);
    expect(await runOk(['solution', 'recall', 'Retrieve HTML content'], withModel)).toContain('Prior Goal: Fetch web pages');
  });
});
