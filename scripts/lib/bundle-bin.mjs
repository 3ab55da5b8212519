// The package's executables, bundled: the compiler writes one file per module, and a command of
// the `engram` binary loaded about 360 of them (a third of its start-up went to opening and
// reading them). esbuild joins the compiled modules into dist/cli/: the binary's own file, a chunk
// per command or per part several share (loaded when a command needs it), and each worker
// thread's file. The binary's compiled file becomes one line that imports its bundle, so every
// path that names it keeps working. The few small libraries every command loads are joined in
// too; every other dependency (native ones, a model's files, the servers' frameworks, the
// optional peers) is loaded from node_modules as before. Works from the compiled files in
// memory, so a failed build writes nothing. Why: docs/decisions/cli-start-up.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the bundles go, under dist/. */
export const BUNDLE_DIR = 'cli';
/** Dependencies joined into the bundle: small, plain JavaScript, loaded by every command. */
const JOINED = new Set(['zod', 'commander', 'smol-toml']);
/**
 * In an ES module bundle, the CommonJS code joined in (commander) needs a `require`; the bundle's
 * own modules never declare one at their top level.
 */
const REQUIRE_BANNER =
  "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);";

/**
 * The bundles of the package's executables that `outputs` (the compiled files by absolute path)
 * holds, and the one-line files that replace them, by absolute path; empty when none is compiled.
 * @param {string} root the project folder (package.json's `bin` names the executables)
 * @param {string} outDir the absolute dist/ folder
 * @param {Map<string, string>} outputs the compiler's files
 * @returns {Promise<Map<string, string | null>>} null: a compiled file to leave out
 */
export async function bundleExecutables(root, outDir, outputs) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const bins = Object.entries(typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {}))
    .map(([name, file]) => ({ name, file: path.resolve(root, file) }))
    .filter(({ file }) => outputs.has(file));
  if (bins.length === 0) return new Map();

  // A worker thread's file is loaded by URL beside the module that starts it (`new URL(
  // './x-worker.js', import.meta.url)`), which in the bundle is dist/cli/: each goes there too.
  const workers = [...outputs.keys()]
    .filter((file) => file.endsWith('-worker.js'))
    .map((file) => ({ name: path.basename(file, '.js'), file }));

  const { build } = await import('esbuild');
  const external = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })
    .filter((name) => !JOINED.has(name))
    .flatMap((name) => [name, `${name}/*`]);
  const bundleDir = path.join(outDir, BUNDLE_DIR);
  const result = await build({
    entryPoints: Object.fromEntries([...bins, ...workers].map(({ name, file }) => [name, file])),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outdir: bundleDir,
    write: false,
    external,
    banner: { js: REQUIRE_BANNER },
    logLevel: 'silent',
    plugins: [fromCompiled(root, outputs)],
  });
  const files = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  for (const { name, file } of bins) {
    const bundled = path.join(bundleDir, `${name}.js`);
    const relative = path.relative(path.dirname(file), bundled).split(path.sep).join('/');
    files.set(file, `#!/usr/bin/env node\n// Bundled by the build (scripts/lib/bundle-bin.mjs).\nimport '${relative}';\n`);
    files.set(`${file}.map`, null); // the compiled file's map no longer describes it
  }
  return files;
}

/**
 * Reads the compiled modules from memory, where the compiler left them. A relative import is
 * resolved against its importer's path; anything else (a package) from the project folder, as
 * dist/ may not exist yet on disk for esbuild to walk up from.
 */
function fromCompiled(root, outputs) {
  return {
    name: 'compiled-in-memory',
    setup(build) {
      build.onResolve({ filter: /^(\.\.?)?\// }, (args) => {
        const file = args.importer === '' ? path.resolve(args.path) : path.resolve(path.dirname(args.importer), args.path);
        return outputs.has(file) ? { path: file } : undefined;
      });
      build.onLoad({ filter: /\.js$/ }, (args) =>
        outputs.has(args.path) ? { contents: outputs.get(args.path), loader: 'js', resolveDir: root } : undefined,
      );
    },
  };
}
