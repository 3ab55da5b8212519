/**
 * `engram graph …` as the real binary: each subcommand runs one graph tool, prints a line or a
 * block a person reads (or the tool's JSON with --json), and a mistake is one `engram:` line
 * that changes nothing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, LEXICAL, makeTempDir, runCli, runJson, runOk, syntheticRecord } from './helpers.js';

describe('engram graph', () => {
  let dir: string;
  let remove: () => void;
  const run = () => ({ cwd: dir, env: LEXICAL });
  const graph = (...args: string[]) => runOk(['graph', ...args], run());

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('adds, relates, observes, shows, searches and pages through entities', async () => {
    expect(await graph('add', 'Alice', '--type', 'person', '-o', 'Prefers short answers, always')).toBe(
      'created Alice (person) with 1 observation\n',
    );
    await graph('add', 'Acme', '-t', 'organization');
    expect(await graph('add', 'alice', '--type', 'robot')).toMatch(/^alice is already in the graph: unchanged/);
    expect(await graph('relate', 'Alice', 'works_at', 'Acme')).toBe('related Alice works_at Acme\n');
    expect(await graph('relate', 'alice', 'works_at', 'acme')).toBe('alice works_at acme is already in the graph\n');
    expect(await graph('observe', 'Alice', 'Speaks Spanish', 'Prefers short answers, always')).toBe(
      'added 1 observation to Alice\n',
    );

    expect(await graph('show', 'Alice', 'Acme', 'Nobody')).toBe(
      [
        'Alice (person)',
        '  - Prefers short answers, always',
        '  - Speaks Spanish',
        '  → works_at Acme',
        '',
        'Acme (organization)',
        '  ← Alice works_at',
        '',
        'not in the graph: Nobody',
        '',
      ].join('\n'),
    );
    expect(await graph('search', 'spanish')).toMatch(/^Alice \(person\)\n/);
    expect(await graph('search', 'no', 'such', 'thing')).toBe('no entities match "no such thing"\n');
    expect(await graph('list', '--limit', '1')).toMatch(/\n\nentities 1–1 of 2; next page: engram graph list --offset 1\n$/);

    const page = await runJson<{ entities: { name: string }[]; totalEntities: number; nextOffset: number | null }>(
      ['graph', 'list', '--offset', '1'],
      run(),
    );
    expect(page).toEqual({
      entities: [{ name: 'Acme', entityType: 'organization', observations: [] }],
      relations: [],
      totalEntities: 2,
      nextOffset: null,
    });
    expect(await runJson(['graph', 'show', 'Alice'], run())).toEqual({
      entities: [{ name: 'Alice', entityType: 'person', observations: ['Prefers short answers, always', 'Speaks Spanish'] }],
      relations: [{ from: 'Alice', to: 'Acme', relationType: 'works_at' }],
    });
  });

  it('unrelates, unobserves and deletes; what is not there is ignored, and said to be', async () => {
    await graph('add', 'Alice', '--type', 'person', '--observation', 'Likes tea');
    await graph('add', 'Acme', '--type', 'organization');
    await graph('relate', 'Alice', 'works_at', 'Acme');
    expect(await graph('unobserve', 'Alice', 'Likes tea', 'never said')).toBe('removed 1 observation from Alice\n');
    expect(await graph('unobserve', 'Alice', 'Likes tea')).toBe(
      'Alice has no such observation (they must match as stored: engram graph show Alice): nothing removed\n',
    );
    expect(await graph('unrelate', 'Alice', 'works_at', 'Acme')).toBe('removed Alice works_at Acme\n');
    expect(await graph('unrelate', 'Alice', 'works_at', 'Acme')).toBe(
      'Alice works_at Acme is not in the graph: nothing removed\n',
    );
    expect(await runJson(['graph', 'unrelate', 'Alice', 'works_at', 'Acme'], run())).toMatchObject({ success: true, removed: 0 });
    expect(await runJson(['graph', 'delete', 'Acme', 'Nobody'], run())).toMatchObject({ success: true });
    expect(await runJson(['graph', 'list'], run())).toEqual({
      entities: [{ name: 'Alice', entityType: 'person', observations: [] }],
      relations: [],
      totalEntities: 1,
      nextOffset: null,
    });
  });

  it('lets engram search follow what a turn names, print the path, and leave it with --no-graph', async () => {
    await runOk(['add', 'Caroline said, "I went to a support group yesterday."', '--occurred-at', '2023-05-08T12:00:00Z'], run());
    await runOk(['add', 'The support group meets on Mondays.'], run());

    const found = await runOk(['search', 'when', 'did', 'Caroline', 'go', 'to', 'the', 'support', 'group'], run());
    expect(found).toMatch(/^ 1\. .*Caroline said.*\n {6}via Caroline → 2023-05-07\n 2\. /);
    expect(await runOk(['search', 'when did Caroline go to the support group', '--no-graph'], run())).not.toContain('via');
    const hits = await runJson<{ via: string | null }[]>(['search', 'Caroline support group'], run());
    expect(hits.map((hit) => hit.via)).toEqual(['Caroline', null]);
  });

  it('adds an observation to an entity extraction made, keeps it when its memory is deleted, and drops what only that memory named', async () => {
    const id = (await runOk(['add', 'Alice said, "I moved to Lyon last spring."', '--json'], run())).match(/"id": "(\w+)"/)?.[1];
    expect(await graph('show', 'Alice', 'Lyon')).toBe(
      'Alice (person)\n  → talks_about Lyon\n\nLyon (place)\n  ← Alice talks_about\n',
    );

    expect(await graph('add', 'Alice', '--observation', 'Prefers short answers')).toBe(
      'Alice is already in the graph: added 1 observation\n',
    );
    expect(await graph('add', 'alice', '-t', 'robot', '-o', 'Prefers short answers')).toBe(
      'Alice is already in the graph and already has this observation\n',
    );
    expect(await runJson(['graph', 'add', 'Alice', '-o', 'Speaks French'], run())).toEqual({
      entities: [],
      results: [{ entityName: 'Alice', addedObservations: ['Speaks French'] }],
    });

    await runOk(['forget', '--hard', id as string], run());
    expect(await graph('show', 'Alice')).toBe('Alice (person)\n  - Prefers short answers\n  - Speaks French\n');
    expectOneLineError(await runCli(['graph', 'show', 'Lyon'], run()), /no entity named Lyon/);
  });

  it('stores text whose dates reach past year 9999 or before year 1, alone and in an import', async () => {
    const text = 'Writing emerged about 6000 years ago.';
    await runOk(['add', text], run());
    const file = path.join(dir, 'import.jsonl');
    writeFileSync(
      file,
      [
        syntheticRecord(1, { text: 'About 5000 or 6000 years ago the wheel spread.' }),
        syntheticRecord(2, { text: 'Theo lives in Dublin.' }),
      ]
        .map((record) => JSON.stringify(record))
        .join('\n'),
    );
    await runOk(['import', file], run());

    expect((await runJson<{ text: string }[]>(['list'], run())).map((memory) => memory.text).sort()).toEqual(
      ['About 5000 or 6000 years ago the wheel spread.', 'Theo lives in Dublin.', text].sort(),
    );
    expect(await runOk(['stats'], run())).toMatch(
      /^graph\s+2 entities, 0 relations \(0 ended\), 2 mentions; no failed extraction$/m,
    );
    expect(await runJson(['stats'], run())).toMatchObject({ graph: { entities: 2, extractionFailures: 0 } });
  });

  it('refuses mistakes with one line, and changes nothing', async () => {
    // Reading or relating in a database that does not exist creates none.
    expectOneLineError(await runCli(['graph', 'show', 'Alice'], run()), /no Engram database/);
    expectOneLineError(await runCli(['graph', 'relate', 'A', 'knows', 'B'], run()), /no Engram database/);
    expectOneLineError(await runCli(['graph', 'add', 'Alice', '-o', 'Likes tea'], run()), /no Engram database/);
    expect(existsSync(path.join(dir, '.engram'))).toBe(false);

    await graph('add', 'Alice', '--type', 'person');
    const before = await runJson(['graph', 'list'], run());
    const mistakes: [string[], RegExp][] = [
      [['relate', 'Alice', 'knows', 'Globex'], /no entity named Globex: create it first with engram graph add/],
      [['observe', 'Bob', 'Likes tea'], /no entity named Bob/],
      [['add', 'Bob'], /Bob is not in the graph: give its type to create it, e.g. engram graph add "Bob" --type person/],
      [['add', ' ', '--type', 'person'], /the entity name is empty/],
      [['add', 'Bob', '--type', ''], /--type is empty/],
      [['show', 'Nobody'], /no entity named Nobody: find names with engram graph search or list/],
      [['list', '--limit', '0'], /--limit must be a whole number from 1 to 1000 \(got 0\)/],
      [['list', '--offset', 'x'], /--offset must be a whole number/],
      [['search'], /missing required argument 'query'/],
      [['frobnicate'], /unknown command 'frobnicate'/],
    ];
    for (const [args, message] of mistakes) expectOneLineError(await runCli(['graph', ...args], run()), message);
    expect(await runJson(['graph', 'list'], run())).toEqual(before);
  });
});
