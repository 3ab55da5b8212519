/**
 * The `engram` binary starts from its bundle (scripts/lib/bundle-bin.mjs): a command loads the
 * bundle's few files, not the library's compiled modules one by one (about 360 of them, a third
 * of a command's start-up), and not the small libraries joined into the bundle. Watched with a
 * module loader hook in a real child process.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CLI, LEXICAL, makeTempDir, runOk } from './helpers.js';

const DIST = `${pathToFileURL(path.resolve(path.dirname(CLI), '../..')).href}/`; // …/dist/
const NODE_MODULES = `${pathToFileURL(path.resolve(path.dirname(CLI), '../../../node_modules')).href}/`;

let dir: string;
let remove: () => void;
let register: string;

beforeAll(() => {
  ({ dir, remove } = makeTempDir());
  // Each module the process loads, one line on stderr.
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `export async function load(url, context, next) {
  process.stderr.write('loaded ' + url + '\\n');
  return next(url, context);
}
`,
  );
  register = path.join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
});
afterAll(() => remove());

/** The modules a command of the binary loads. */
function modulesLoaded(args: readonly string[]): string[] {
  const result = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, CLI, ...args], {
    cwd: dir,
    env: { ...process.env, ...LEXICAL },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
}

describe('the engram binary starts from its bundle', () => {
  it('loads the bundle for a command, not the compiled modules or the libraries joined into it', async () => {
    const db = path.join(dir, 'start-up.db');
    await runOk(['add', 'We chose PostgreSQL for billing', '--db', db], { cwd: dir, env: LEXICAL });
    const loaded = modulesLoaded(['list', '--db', db]);

    const ours = loaded.filter((url) => url.startsWith(DIST));
    expect(ours.length).toBeGreaterThan(1);
    expect(ours.filter((url) => !url.startsWith(`${DIST}cli/`))).toEqual([`${DIST}surfaces/cli/main.js`]);
    const joined = loaded.filter((url) => /\/node_modules\/(zod|commander|smol-toml)\//.test(url));
    expect(joined).toEqual([]);
    // What is left comes from node_modules (the database driver) and Node itself.
    expect(loaded.filter((url) => !url.startsWith(DIST) && !url.startsWith(NODE_MODULES) && !url.startsWith('node:'))).toEqual(
      [],
    );
    expect(loaded.length).toBeLessThan(80);
  });
});
