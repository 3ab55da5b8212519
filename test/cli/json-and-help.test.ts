/**
 * Machine-readable output and built-in help: every read command speaks JSON with --json
 * (export speaks JSON Lines), and every --help ends with examples.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { calibrate } from '../../src/retrieval/calibration.js';
import { type ExportedMemory, LEXICAL, makeTempDir, parseJsonLines, runJson, runOk } from './helpers.js';

const COMMANDS = ['add', 'search', 'list', 'show', 'forget', 'import', 'export', 'stats', 'reindex', 'bench'];

describe('--json on the read commands', () => {
  let dir: string;
  let remove: () => void;
  let id: string;
  const run = () => ({ cwd: dir, env: LEXICAL });

  beforeAll(async () => {
    ({ dir, remove } = makeTempDir());
    const added = await runJson<ExportedMemory>(
      ['add', 'We chose PostgreSQL for billing', '--kind', 'decision', '--tier', 'must'],
      run(),
    );
    id = added.id;
    await runOk(['add', 'Deploys happen on Tuesdays', '--kind', 'fact'], run());
  });
  afterAll(() => remove());

  it('prints the new memory as JSON from add', async () => {
    const memory = await runJson<ExportedMemory>(['add', 'Alice prefers short answers', '--kind', 'preference'], run());
    expect(memory).toMatchObject({ text: 'Alice prefers short answers', kind: 'preference', tier: 'unknown' });
    expect(memory.id).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('prints search hits as a JSON array of { memory, score }', async () => {
    const hits = await runJson<{ memory: ExportedMemory; score: number }[]>(['search', 'PostgreSQL billing'], run());
    expect(hits[0]?.memory.id).toBe(id);
    expect(typeof hits[0]?.score).toBe('number');
  });

  it('prints each hit with its raw score beside the calibrated relevance it became', async () => {
    const hits = await runJson<{ memory: ExportedMemory; relevance: number; raw: number }[]>(
      ['search', 'PostgreSQL billing'],
      run(),
    );
    const best = hits[0];
    expect(best?.memory.id).toBe(id);
    // Both words of the query are in the memory: the raw word score is well above zero, and
    // relevance is the calibration curve read at that raw score.
    expect(best?.raw).toBeGreaterThan(0.5);
    expect(best?.relevance).toBeCloseTo(calibrate(best?.raw ?? -1), 10);
    expect(best?.relevance).not.toBeCloseTo(best?.raw ?? -1, 3);
  });

  it('prints list as a JSON array of memories', async () => {
    const memories = await runJson<ExportedMemory[]>(['list'], run());
    expect(Array.isArray(memories)).toBe(true);
    expect(memories.map((memory) => memory.text)).toContain('Deploys happen on Tuesdays');
  });

  it('prints show as one JSON memory with every field', async () => {
    const memory = await runJson<ExportedMemory>(['show', id], run());
    expect(memory).toMatchObject({ id, text: 'We chose PostgreSQL for billing', kind: 'decision', tier: 'must' });
    expect(Object.keys(memory)).toEqual(expect.arrayContaining(['createdAt', 'supersededBy', 'archivedAt', 'retrievalCount']));
  });

  it('prints stats as a JSON object with counts', async () => {
    const stats = await runJson<{ memories: number; live: number; byKind: Record<string, number>; embedder: string }>(
      ['stats'],
      run(),
    );
    expect(stats.memories).toBeGreaterThanOrEqual(2);
    expect(stats.live).toBe(stats.memories);
    expect(stats.byKind.decision).toBe(1);
    expect(stats.embedder).toBe('none');
  });

  it('says in stats how relevance is calibrated on this store', async () => {
    const stats = await runJson<{ calibration: Record<string, unknown> }>(['stats'], run());
    // Two or three memories and no vectors: a young store on the fixed curve.
    expect(stats.calibration).toMatchObject({ active: false, young: true, weight: 0, sampleSize: 256, reference: 0.4 });
    expect(stats.calibration.sampled).toBeGreaterThanOrEqual(2);
    const screen = await runOk(['stats'], run());
    expect(screen).toMatch(/calibration +fixed curve 0→0 0\.29→0\.5 0\.395→0\.6 0\.7→0\.9 1→1 \(no embedder/);
  });

  it('prints export as JSON Lines, one memory per line', async () => {
    const stdout = await runOk(['export'], run());
    const lines = stdout.trimEnd().split('\n');
    const memories = parseJsonLines<ExportedMemory>(stdout);
    expect(memories).toHaveLength(lines.length);
    expect(memories.map((memory) => memory.id)).toContain(id);
  });
});

describe('--help', () => {
  let dir: string;
  let remove: () => void;
  beforeAll(() => ({ dir, remove } = makeTempDir()));
  afterAll(() => remove());

  it('describes the program, lists every command and shows examples', async () => {
    const help = await runOk(['--help'], { cwd: dir });
    expect(help).toMatch(/^Usage: engram /);
    for (const command of COMMANDS) expect(help).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    expect(help).toContain('Examples:');
  });

  it('prints the version with --version', async () => {
    expect(await runOk(['--version'], { cwd: dir })).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  // show, stats and reindex have a single example and say "Example:".
  it.each(COMMANDS)('exits 0 and shows examples for engram %s --help', async (command) => {
    const help = await runOk([command, '--help'], { cwd: dir });
    expect(help).toMatch(new RegExp(`^Usage: engram ${command}\\b`));
    expect(help).toMatch(/^Examples?:\n {2}(\S.*)?engram /m);
  });
});
