/**
 * `engram hook claude-code` without loading the library: the event goes to the resident Engram
 * process of the database, whose reply is printed as the hook's output. When no process answers
 * in time, the caller starts one for next time and does the work itself, so a hook is never
 * slower than before by more than the short connect timeout, and never fails because of it.
 * Only Node's built-ins and the daemon's client are loaded here (the TOML reader when there is
 * a config file to read).
 */
import { existsSync, readFileSync } from 'node:fs';

import { daemonAddress } from '../daemon/address.js';
import { askDaemon, startDaemon } from '../daemon/client.js';
import { readEventText } from '../hooks/read-event-text.js';

/** What became of the hook: answered here, or to be run by the full CLI (with the event already read, if it was). */
export type HookFastPath = { handled: true; exitCode: number } | { handled: false; input?: string };

/** Whether `argv` (as in process.argv) is a hook call this path can take. */
export function isHookCall(argv: readonly string[]): boolean {
  return hookOptions(argv) !== null;
}

/** Answers the hook through the resident process when it can. */
export async function hookThroughDaemon(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<HookFastPath> {
  const options = hookOptions(argv);
  if (options === null || process.stdin.isTTY) return { handled: false };
  let address;
  try {
    address = daemonAddress({ cwd: process.cwd(), env, db: options.db, config: options.config });
    if (!(await daemonEnabled(address.config, env))) return { handled: false };
  } catch {
    return { handled: false }; // an unreadable config file: the full CLI says what is wrong
  }
  const input = await readEventText();
  const answer = await askDaemon(address, { op: 'hook-claude-code', input, scope: options.scope });
  if (answer.kind === 'reply') {
    process.stdout.write(answer.reply.stdout);
    process.stderr.write(answer.reply.stderr);
    return { handled: true, exitCode: answer.reply.exitCode };
  }
  if (answer.kind === 'unreachable') await startDaemon(address, { cli: argv[1] as string, cwd: process.cwd(), env });
  return { handled: false, input };
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

/** `[daemon] enabled`, from ENGRAM_DAEMON__ENABLED or the config file; on unless set false. */
async function daemonEnabled(configFile: string | null, env: NodeJS.ProcessEnv): Promise<boolean> {
  const fromEnv = env.ENGRAM_DAEMON__ENABLED;
  if (fromEnv !== undefined) return fromEnv.trim() !== 'false';
  if (configFile === null || !existsSync(configFile)) return true;
  // The TOML reader costs ~10 ms to load: only when there is a file to read.
  const { parse } = await import('smol-toml');
  const daemon = (parse(readFileSync(configFile, 'utf8')) as { daemon?: { enabled?: unknown } }).daemon;
  return daemon?.enabled !== false;
}
