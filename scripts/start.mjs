// `npm start [-- options]`: `engram serve` from this checkout. The port is checked first (a taken
// one is said before any build, with a free one to use instead), dist/ is built only when a source
// changed since the last build (the stamp in dist/ says), and then the server runs in this very
// process, so Ctrl+C and signals reach it as they would `engram serve`.
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { buildProject, OUT_DIR } from './lib/build-project.mjs';
import { portProblem } from './lib/port-check.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

/** `engram serve`'s defaults (src/surfaces/cli/commands/serve.ts). */
const DEFAULT_PORT = '7077';
const DEFAULT_HOST = '127.0.0.1';

/** The options of `engram serve` (and the global ones) that take a value. */
const WITH_VALUE = new Set(['--port', '--host', '--scope', '--db', '--store', '--config']);

const { options, positional } = readArgs(args);
if (positional.length > 0) fail(positionalProblem(positional));
if (!options.has('--help') && !options.has('-h') && !options.has('--version') && !options.has('-V')) {
  const port = Number(options.get('--port') ?? DEFAULT_PORT);
  // A malformed port is `engram serve`'s to report; port 0 picks a free one.
  if (Number.isInteger(port) && port > 0 && port <= 65535) {
    const problem = await portProblem(port, options.get('--host') ?? DEFAULT_HOST);
    if (problem !== null) fail(problem);
  }
}

const build = await buildProject(root);
if (!build.ok) process.exit(1);

const main = path.join(root, OUT_DIR, 'surfaces', 'cli', 'main.js');
process.argv = [process.argv[0], main, 'serve', ...args];
await import(pathToFileURL(main).href);

/** The options given (by name, with their values) and any word that belongs to none. */
function readArgs(words) {
  const found = new Map();
  const rest = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    const [name, inline] =
      word.startsWith('--') && word.includes('=')
        ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
        : [word, undefined];
    if (WITH_VALUE.has(name)) {
      found.set(name, inline ?? words[i + 1]);
      if (inline === undefined) i += 1;
    } else if (word.startsWith('-')) {
      found.set(name, true);
    } else {
      rest.push(word);
    }
  }
  return { options: found, positional: rest };
}

/**
 * npm keeps the options written before `--` for itself: `npm start --port 7080` sets its own
 * setting `port` to "true" and passes on only "7080".
 */
function positionalProblem(words) {
  const swallowed = ['port', 'host', 'db', 'scope', 'config', 'store'].filter(
    (name) => process.env[`npm_config_${name}`] === 'true',
  );
  const example = swallowed.length === 1 && words.length === 1 ? `--${swallowed[0]} ${words[0]}` : '--port 7078';
  const got =
    swallowed.length > 0 ? `npm kept ${swallowed.map((name) => `--${name}`).join(', ')} for itself` : `got "${words[0]}"`;
  return `engram serve's options go after "--" (${got}): write npm start -- ${example}`;
}

function fail(message) {
  process.stderr.write(`engram: ${message}\n`);
  process.exit(1);
}
