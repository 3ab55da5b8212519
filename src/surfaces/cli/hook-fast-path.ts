/**
 * `engram hook claude-code` without loading the library: the event goes to the resident Engram
 * process of the database, whose reply is printed as the hook's output. When no process listens,
 * the caller starts one for next time and does the work itself, which costs at most the short
 * connect timeout on top. When one took the event but did not answer within the reply timeout
 * (it is busy or stuck), the hook prints nothing and exits 0: the process may still record the
 * event, so doing it here too could count a turn or a step twice, and a hook must never fail or
 * block the prompt. When the configuration cannot be read, or is wrong, the full CLI takes the
 * call and says what is wrong. Only Node's built-ins, the config file's location rules and the
 * daemon's client are loaded here (the TOML reader when there is a config file to read).
 */
import { readFileSync } from 'node:fs';

// The fast path must not load the library (src/index.ts loads zod and the engine), so it reads
// `[daemon] enabled` by the configuration's rules from their dependency-free module directly.
// eslint-disable-next-line no-restricted-imports
import { parseEnvFlag } from '../../config/locate.js';
import { daemonAddress } from '../daemon/address.js';
import { askDaemon, startDaemon } from '../daemon/client.js';
import { readEventText } from '../hooks/read-event-text.js';

/** What became of the hook: answered here, or to be run by the full CLI (with the event already read, if it was). */
type HookFastPath = { handled: true; exitCode: number } | { handled: false; input?: string };

/** Whether `argv` (as in process.argv) is a hook call this path can take. */
export function isHookCall(argv: readonly string[]): boolean {
  return hookOptions(argv) !== null;
}

/**
 * Answers the hook through the resident process when it can.
 * @throws when standard input cannot be read
 */
export async function hookThroughDaemon(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<HookFastPath> {
  const options = hookOptions(argv);
  if (options === null || process.stdin.isTTY) return { handled: false };
  let address;
  try {
    address = daemonAddress({ cwd: process.cwd(), env, db: options.db, config: options.config });
    if (!(await daemonEnabled(address.config, env))) return { handled: false };
  } catch {
    return { handled: false }; // a missing or unreadable config file: the full CLI says what is wrong
  }
  const input = await readEventText();
  const answer = await askDaemon(address, { op: 'hook-claude-code', input, scope: options.scope });
  switch (answer.kind) {
    case 'reply':
      process.stdout.write(answer.reply.stdout);
      process.stderr.write(answer.reply.stderr);
      return { handled: true, exitCode: answer.reply.exitCode };
    case 'no-reply':
      return { handled: true, exitCode: 0 };
    case 'unreachable':
      await startDaemon(address, { cli: argv[1] as string, cwd: process.cwd(), env });
      return { handled: false, input };
  }
}

/** The options of `engram [--db P] [--config F] hook claude-code [-s|--scope S]`, or null for anything else. */
function hookOptions(argv: readonly string[]): { db?: string; config?: string; scope?: string } | null {
  const options: { db?: string; config?: string; scope?: string } = {};
  const positional: string[] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const name = { '--db': 'db', '--config': 'config', '--scope': 'scope', '-s': 'scope' }[flag] as
      keyof typeof options | undefined;
    if (name) {
      const value = inline ?? args[++i];
      if (value === undefined) return null;
      options[name] = value;
    } else if (arg.startsWith('-')) {
      return null; // --help and anything else: the full CLI
    } else {
      positional.push(arg);
    }
  }
  return positional.length === 2 && positional[0] === 'hook' && positional[1] === 'claude-code' ? options : null;
}

/**
 * `[daemon] enabled`, from ENGRAM_DAEMON__ENABLED or the config file; on unless set false. A
 * value the configuration rejects (`0`, `"yes"`) counts as off, so the full CLI reports it.
 */
async function daemonEnabled(configFile: string | null, env: NodeJS.ProcessEnv): Promise<boolean> {
  const fromEnv = env.ENGRAM_DAEMON__ENABLED;
  if (fromEnv !== undefined) return parseEnvFlag(fromEnv) === true;
  if (configFile === null) return true;
  // The TOML reader costs ~10 ms to load: only when there is a file to read.
  const { parse } = await import('smol-toml');
  const enabled = (parse(readFileSync(configFile, 'utf8')) as { daemon?: { enabled?: unknown } }).daemon?.enabled;
  return enabled === undefined || enabled === true;
}
