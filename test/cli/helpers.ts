/**
 * Shared tools for the CLI tests: run the built `engram` binary as a real child process in a
 * throwaway directory, read its exports back, and generate JSONL files of exported records.
 * The tests exercise `dist/`, so `npm run build` must have run first (`npm test` does it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { expect } from 'vitest';

import { makeMemory } from '../fixtures/memory.js';

/** The built CLI entry point. */
export const CLI = fileURLToPath(new URL('../../dist/surfaces/cli/main.js', import.meta.url));

/** Lexical-only search: no model to load, so a process starts in a fraction of a second. */
export const LEXICAL: Readonly<Record<string, string>> = { ENGRAM_EMBEDDING__PROVIDER: 'none' };

/**
 * The environment of a test that uses the resident process: lexical (no model, so fast), the
 * process on, its socket under `dir`.
 */
export function residentEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { ...LEXICAL, XDG_RUNTIME_DIR: path.join(dir, 'run'), ENGRAM_DAEMON__ENABLED: 'true', ...extra };
}

/** What a finished CLI process left behind. */
export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** How to run one CLI command. */
export interface RunOptions {
  /** Working directory; the default database lives in `<cwd>/.engram/engram.db`. */
  cwd: string;
  /** Extra environment variables, on top of a copy of this process's without any `ENGRAM_*` (undefined removes one). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Written to standard input, which is then closed (closed at once when omitted). */
  input?: string;
}

/**
 * The environment a child gets: ours without stray `ENGRAM_*` settings, plus `extra`. Hooks run
 * in their own process unless a test turns the resident process on (test/cli/daemon.test.ts),
 * so no test leaves one behind.
 */
export function childEnv(extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('ENGRAM_')) env[name] = value;
  }
  const merged: NodeJS.ProcessEnv = { ...env, ENGRAM_DAEMON__ENABLED: 'false', ...extra };
  // An `undefined` in `extra` removes the variable (e.g. to let engram.toml decide).
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

/** Starts `engram <args>` without waiting for it; for tests that signal the process. */
export function spawnCli(args: readonly string[], { cwd, env, input }: RunOptions): ChildProcess {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the CLI tests`);
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin?.end(input ?? '');
  return child;
}

/** Runs `engram <args>` to completion and collects its exit code and output. */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs a command that must succeed, and returns its standard output. */
export async function runOk(args: readonly string[], options: RunOptions): Promise<string> {
  const result = await runCli(args, options);
  expect(result.stderr, `engram ${args.join(' ')} wrote to stderr`).toBe('');
  expect(result.code, `engram ${args.join(' ')} failed`).toBe(0);
  return result.stdout;
}

/** Runs a command with `--json` that must succeed, and parses its output. */
export async function runJson<T = unknown>(args: readonly string[], options: RunOptions): Promise<T> {
  return JSON.parse(await runOk([...args, '--json'], options)) as T;
}

/**
 * Asserts the shape of every CLI failure: a non-zero exit and exactly one line on standard
 * error, starting with `engram:`, without a stack trace.
 */
export function expectOneLineError(result: CliResult, message?: RegExp): string {
  expect(result.code, `expected a failure, got stdout ${result.stdout}`).not.toBe(0);
  expect(result.code).not.toBeNull();
  expect(result.stderr).not.toMatch(/^\s+at /m);
  const lines = result.stderr.split('\n').filter((line) => line.length > 0);
  expect(lines, `stderr: ${result.stderr}`).toHaveLength(1);
  const line = lines[0] as string;
  expect(line.startsWith('engram: ')).toBe(true);
  if (message) expect(line).toMatch(message);
  return line;
}

/** Creates an empty directory for one test; `remove` deletes it and everything in it. */
export function makeTempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-cli-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A memory as `export` writes it (the fields the tests look at; the rest pass through). */
export interface ExportedMemory {
  id: string;
  text: string;
  kind: string;
  tier: string;
  key: string | null;
  supersededBy: string | null;
  archivedAt: string | null;
  retrievalCount: number;
  [field: string]: unknown;
}

/** Parses JSON Lines, one value per non-empty line. */
export function parseJsonLines<T = unknown>(text: string): T[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

/** Every memory in the database, via `engram export`, sorted by id. */
export async function exportMemories(options: RunOptions, db?: string): Promise<ExportedMemory[]> {
  const stdout = await runOk(db ? ['export', '--db', db] : ['export'], options);
  return parseJsonLines<ExportedMemory>(stdout).sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * What a database file holds, read directly (cheaper than an `export` process): every memory
 * row by id, the metadata rows, and how many vectors are indexed. For before/after checks.
 */
export function readDatabase(file: string): { memories: unknown[]; meta: unknown[]; vectors: number } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    sqliteVec.load(db);
    const hasVectors = db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'memory_vectors'`).get() !== undefined;
    return {
      memories: db.prepare('SELECT * FROM memories ORDER BY id').all(),
      meta: db.prepare('SELECT * FROM engram_meta ORDER BY key').all(),
      vectors: hasVectors ? (db.prepare('SELECT count(*) FROM memory_vectors').pluck().get() as number) : 0,
    };
  } finally {
    db.close();
  }
}

/** How many memories a database file holds, and whether SQLite finds it intact. */
export function checkDatabase(file: string): { memories: number; integrity: string } {
  const db = new Database(file, { fileMustExist: true });
  try {
    sqliteVec.load(db);
    return {
      integrity: db.pragma('integrity_check', { simple: true }) as string,
      memories: db.prepare('SELECT count(*) FROM memories').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

/**
 * Copies a database file that no process has open (with its write-ahead log and shared-memory
 * files, when any were left) to `to`: a database seeded once per test file, then copied for
 * each test, costs one set of child processes (and model loads) instead of one per test.
 */
export function copyDatabase(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  for (const suffix of ['', '-wal', '-shm']) {
    if (existsSync(`${from}${suffix}`)) copyFileSync(`${from}${suffix}`, `${to}${suffix}`);
  }
}

/** `--db` for a file in `dir`. */
export function dbIn(dir: string, name = 'engram.db'): string {
  return path.join(dir, name);
}

/** A valid exported record with a deterministic ULID-shaped id; `index` makes it unique. */
export function syntheticRecord(index: number, overrides: Partial<ExportedMemory> = {}): ExportedMemory {
  return {
    ...makeMemory({
      id: `01JD${String(index).padStart(22, '0')}`,
      tenant: 'default',
      scope: 'global',
      kind: 'note',
      text: `synthetic memory ${index} about topic ${index % 97}, with enough words for the full-text index`,
      tags: [`batch-${index % 5}`],
      createdAt: new Date(Date.UTC(2025, 0, 1) + index * 1000).toISOString(),
    }),
    ...overrides,
  };
}

/** Writes `count` synthetic records as JSON Lines to `file`. */
export function writeSyntheticJsonl(file: string, count: number, first = 0): void {
  const lines: string[] = [];
  for (let i = first; i < first + count; i++) lines.push(JSON.stringify(syntheticRecord(i)));
  writeFileSync(file, `${lines.join('\n')}\n`);
}
