/**
 * `npm run build` (scripts/build.mjs) on a small project laid out like Engram's: it builds only
 * when a source changed (the stamp says so, not the clock), writes dist/ in place without ever
 * emptying it, leaves the `engram` binary executable, and on a compiler error writes nothing.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { type Fixture, makeFixture, ROOT } from './fixture.js';

const BIN = path.join('dist', 'surfaces', 'cli', 'main.js');

function isExecutable(file: string): boolean {
  return (statSync(file).mode & 0o111) === 0o111;
}

describe('npm run build', () => {
  // One build from nothing; each test starts from a copy of it.
  let built: Fixture;
  beforeAll(async () => {
    built = makeFixture();
    const result = await built.run('build.mjs');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /^building dist\/ \(dist\/ has not been built yet\)…\nbuilt dist\/ in [\d.]+ s: 9 files written/,
    );
  }, 120_000);
  afterAll(() => built?.remove());

  let project: Fixture;
  beforeEach(() => {
    project = built.clone();
  });
  afterEach(() => project.remove());

  it('is scripts/build.mjs, and left Engram’s own engram binary executable', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    expect(manifest.scripts.build).toBe('node scripts/build.mjs');
    expect(manifest.bin.engram).toBe(BIN);
    // `npm test` (like `npm ci`) built dist/ before the tests ran.
    expect(isExecutable(path.join(ROOT, BIN))).toBe(true);
    expect(readFileSync(path.join(ROOT, BIN), 'utf8')).toContain("import '../../cli/engram.js';");
    // The local model's worker thread is loaded by URL beside the code that starts it: in the bundle.
    expect(existsSync(path.join(ROOT, 'dist', 'cli', 'embedding-worker.js'))).toBe(true);
  });

  it('compiles src/ into dist/ with the binary executable and a stamp of what it wrote', () => {
    expect(isExecutable(path.join(project.dir, BIN))).toBe(true);
    expect(isExecutable(path.join(project.dir, 'dist', 'version.js'))).toBe(false);
    const stamp = JSON.parse(project.stamp() ?? 'null') as { files: string[]; fingerprint: string };
    expect(stamp.files).toEqual(expect.arrayContaining(['surfaces/cli/main.js', 'version.js', 'version.d.ts', 'helper.js.map']));
    expect(stamp.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('bundles the binary into dist/cli/, and its compiled file imports the bundle', () => {
    const stamp = JSON.parse(project.stamp() ?? 'null') as { files: string[] };
    expect(stamp.files).toContain('cli/engram.js');
    expect(stamp.files).not.toContain('surfaces/cli/main.js.map'); // it described the compiled file
    const main = readFileSync(path.join(project.dir, BIN), 'utf8');
    expect(main).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(main).toContain("import '../../cli/engram.js';");
    // The version module is joined into the bundle, not imported from dist/.
    const bundle = readFileSync(path.join(project.dir, 'dist', 'cli', 'engram.js'), 'utf8');
    expect(bundle).toContain('"one"');
    expect(bundle).not.toMatch(/import[^;]*version\.js/);
    const printed = execFileSync(process.execPath, [path.join(project.dir, BIN), 'a', 'b'], { encoding: 'utf8' });
    expect(JSON.parse(printed)).toEqual({ argv: ['a', 'b'], version: 'one' });
  });

  it('does nothing when no source changed since the last build', async () => {
    const stamp = project.stamp();
    const again = await project.run('build.mjs');
    expect(again.code).toBe(0);
    expect(again.stderr).toBe('dist/ is up to date\n');
    expect(project.stamp()).toBe(stamp);
  });

  it('rebuilds in place: a changed file replaced, an unchanged one untouched, a removed source’s files gone', async () => {
    // As an older build (or a copy without modes) left it.
    chmodSync(path.join(project.dir, BIN), 0o644);
    const bin = statSync(path.join(project.dir, BIN));
    const before = project.stamp();
    project.writeSource('version.ts', "export const VERSION: string = 'two';\n");
    project.removeSource('helper.ts');
    writeFileSync(path.join(project.dir, 'dist', 'surfaces', 'left-over.js'), '// from a source deleted long ago\n');

    const result = await project.run('build.mjs');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^building dist\/ \(sources changed since dist\/ was built\)/);
    expect(readFileSync(path.join(project.dir, 'dist', 'version.js'), 'utf8')).toContain("'two'");
    // The binary did not change: the same file, never removed or rewritten, and executable again.
    expect(statSync(path.join(project.dir, BIN)).ino).toBe(bin.ino);
    expect(isExecutable(path.join(project.dir, BIN))).toBe(true);
    for (const gone of ['helper.js', 'helper.d.ts', 'helper.js.map', path.join('surfaces', 'left-over.js')]) {
      expect(existsSync(path.join(project.dir, 'dist', gone)), gone).toBe(false);
    }
    expect(project.stamp()).not.toBe(before);
  });

  it('writes nothing when the code has a type error, and says dist/ is as it was', async () => {
    const stamp = project.stamp();
    const before = readFileSync(path.join(project.dir, 'dist', 'version.js'), 'utf8');
    project.writeSource('version.ts', 'export const VERSION: string = 2;\n');

    const result = await project.run('build.mjs');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('src/version.ts');
    expect(result.stderr).toContain('TS2322');
    expect(result.stderr).toMatch(/the build failed: dist\/ is left as it was\n$/);
    expect(readFileSync(path.join(project.dir, 'dist', 'version.js'), 'utf8')).toBe(before);
    expect(project.stamp()).toBe(stamp);
  });

  it('refuses an argument it does not know, saying which', async () => {
    const stamp = project.stamp();
    const result = await project.run('build.mjs', ['--watch']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^engram build: unknown argument --watch/);
    expect(project.stamp()).toBe(stamp);
  });
});
