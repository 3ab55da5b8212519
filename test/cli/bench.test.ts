/**
 * `engram bench`: `ingest` measures the real model and the lexical-only mode; the command lists
 * the benchmarks of the built bench registry, and an installed package (which has no
 * benchmarks) says where they run instead.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { childEnv, type CliResult, expectOneLineError, makeTempDir, runCli, runJson, runOk } from './helpers.js';

interface IngestMode {
  memories: number;
  memoriesPerSecond: number;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('engram bench ingest', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('reports memories per second for the embedded and lexical-only modes as JSON', async () => {
    const result = await runJson<{ count: number; modes: { embedded: IngestMode; lexicalOnly: IngestMode } }>(
      ['bench', 'ingest', '--count', '50'],
      { cwd: dir },
    );
    expect(result.count).toBe(50);
    expect(result.modes.embedded.memories).toBe(50);
    expect(result.modes.embedded.memoriesPerSecond).toBeGreaterThan(0);
    expect(result.modes.lexicalOnly.memories).toBe(50);
    expect(result.modes.lexicalOnly.memoriesPerSecond).toBeGreaterThan(0);
  });
});

describe('engram bench', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('lists every benchmark of the bench registry in its help', async () => {
    // build/bench/ is built by `npm test` (npm run build:bench) before vitest runs.
    const registry = new URL('../../build/bench/registry.js', import.meta.url).href;
    const { BENCHMARKS } = (await import(registry)) as { BENCHMARKS: Record<string, unknown> };
    const help = await runOk(['bench', '--help'], { cwd: dir });
    // The help wraps long lines: compare with single spaces.
    expect(help.replace(/\s+/g, ' ')).toContain(` run a benchmark: ${Object.keys(BENCHMARKS).join(', ')} Arguments: `);
  });

  it('refuses an unknown benchmark, naming the known ones', async () => {
    const result = await runCli(['bench', 'nonesuch'], { cwd: dir });
    expectOneLineError(result, /unknown benchmark nonesuch: choose one of activation, .*solutions/);
  });

  it('takes --store pglite or pglite+pgvector for bench footprint only, saying what the others take', async () => {
    expectOneLineError(
      await runCli(['bench', 'scale', '--store', 'pglite+pgvector'], { cwd: dir }),
      /^engram: --store pglite\+pgvector is for `bench footprint` only: give scale a postgres:\/\/ URL$/,
    );
    expectOneLineError(
      await runCli(['bench', 'footprint', '--store', 'pglite+lancedb'], { cwd: dir }),
      /^engram: --store takes a postgres:\/\/ URL, or pglite \/ pglite\+pgvector for bench footprint \(got "pglite\+lancedb"\)$/,
    );
  });

  it('says benchmarks run from a source checkout when the installed package has none', () => {
    // An installed copy: package.json and dist/ only (package.json `files`), dependencies beside it.
    const installed = path.join(dir, 'node_modules', 'engram');
    mkdirSync(installed, { recursive: true });
    cpSync(path.join(ROOT, 'package.json'), path.join(installed, 'package.json'));
    cpSync(path.join(ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true });
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(installed, 'node_modules'), 'dir');
    const result = runInstalled(installed, ['bench', 'solutions'], dir);
    expectOneLineError(
      result,
      /^engram: benchmarks run from a source checkout of Engram, with `npm run bench -- solutions`: the installed package has none$/,
    );
  });
});

/** Runs the CLI of the package installed at `root`. */
function runInstalled(root: string, args: readonly string[], cwd: string): CliResult {
  const cli = path.join(root, 'dist', 'surfaces', 'cli', 'main.js');
  const { status, signal, stdout, stderr } = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    env: childEnv(),
    encoding: 'utf8',
    input: '',
  });
  return { code: status, signal, stdout, stderr };
}
