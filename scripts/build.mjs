// `npm run build`: compiles src/ to dist/ when a source changed since the last build (the stamp
// in dist/ says), in place, with the `engram` binary executable. `--force` builds regardless.
// Exit code 1 when the compiler reports an error; dist/ is then left as it was.
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { buildProject } from './lib/build-project.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const unknown = args.filter((arg) => arg !== '--force');
if (unknown.length > 0) {
  process.stderr.write(
    `engram build: unknown argument ${unknown[0]} (the only option is --force, to build even when dist/ is current)\n`,
  );
  process.exit(1);
}
const result = await buildProject(root, { force: args.includes('--force') });
if (!result.built && result.ok) process.stderr.write(`${result.reason}\n`);
process.exitCode = result.ok ? 0 : 1;
