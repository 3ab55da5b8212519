/**
 * A small project laid out like Engram's checkout, for the tests of `npm run build` and
 * `npm start`: the real scripts/build.mjs, scripts/start.mjs and scripts/lib/, the real
 * tsconfig.json and tsconfig.build.json, Engram's node_modules (TypeScript), and a src/ of three
 * files whose `engram` binary (dist/surfaces/cli/main.js) prints its arguments and the version
 * it was built from. Building it takes a second where Engram's own takes twenty.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Engram's checkout. */
export const ROOT = path.resolve(import.meta.dirname, '../..');

/** What a finished script left behind. */
export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One throwaway project. */
export interface Fixture {
  dir: string;
  /** Writes `src/<file>` (creating folders). */
  writeSource(file: string, text: string): void;
  /** Deletes `src/<file>`. */
  removeSource(file: string): void;
  /** Runs `node scripts/<script> <args>` in the project. */
  run(script: 'build.mjs' | 'start.mjs', args?: readonly string[], env?: Readonly<Record<string, string>>): Promise<ScriptResult>;
  /** dist/.build-stamp.json as text, or null. */
  stamp(): string | null;
  /** A copy of the project as it is now (dist/ and its stamp included) in a new folder. */
  clone(): Fixture;
  remove(): void;
}

/**
 * The binary's source: prints its arguments and the version it was built from, then exits. It
 * imports a package too, which the build's bundle must find in node_modules while dist/ does not
 * exist yet.
 */
const MAIN = `#!/usr/bin/env node
import 'smol-toml';

import { VERSION } from '../../version.js';

process.stdout.write(\`\${JSON.stringify({ argv: process.argv.slice(2), version: VERSION })}\\n\`);
`;

/** Creates the project, with src/version.ts saying `version`. */
export function makeFixture(version = 'one'): Fixture {
  const dir = makeDir();
  try {
    for (const file of ['scripts/build.mjs', 'scripts/start.mjs', 'scripts/lib', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(path.join(ROOT, file), path.join(dir, file), { recursive: true });
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'fixture', version: '1.0.0', type: 'module', bin: { engram: 'dist/surfaces/cli/main.js' } }),
  );
  const project = fixtureIn(dir);
  project.writeSource('version.ts', `export const VERSION: string = '${version}';\n`);
  project.writeSource('surfaces/cli/main.ts', MAIN);
  project.writeSource('helper.ts', 'export const helper = (n: number): number => n + 1;\n');
  return project;
}

function makeDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'engram-build-test-'));
}

function fixtureIn(dir: string): Fixture {
  const writeSource = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, 'src', file)), { recursive: true });
    writeFileSync(path.join(dir, 'src', file), text);
  };
  return {
    dir,
    writeSource,
    removeSource: (file) => rmSync(path.join(dir, 'src', file)),
    run: (script, args = [], env = {}) =>
      runNode([path.join('scripts', script), ...args], { cwd: dir, env: { ...withoutNpmConfig(), ...env } }),
    stamp: () => {
      try {
        return readFileSync(path.join(dir, 'dist', '.build-stamp.json'), 'utf8');
      } catch {
        return null;
      }
    },
    clone: () => {
      const copy = makeDir();
      cpSync(dir, copy, { recursive: true, verbatimSymlinks: true });
      return fixtureIn(copy);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `node <args>` to completion. */
export function runNode(args: readonly string[], options: SpawnOptions): Promise<ScriptResult> {
  const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** This process's environment without what `npm test` adds (npm_config_*), as a shell would give it. */
function withoutNpmConfig(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_config_')));
}
