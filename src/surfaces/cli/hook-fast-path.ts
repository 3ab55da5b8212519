/**
 * `engram hook claude-code` without loading the library: the event, with the caller's settings,
 * goes to the database's resident Engram process, whose reply is printed as the hook's output.
 * None listening: start one for next time, and the full CLI does the work. One took the event
 * but did not answer in time: print nothing and exit 0, as it may still record the event. No
 * readable config file, the resident process off, or PostgreSQL: the full CLI takes the call.
 * Loads only Node's built-ins, the config file's location rules and the daemon's client (the
 * TOML reader when there is a config file). See docs/serving.md#the-resident-process.
 */
import { askDaemon, startDaemon } from '../daemon/client.js';
import { locateResident } from '../daemon/locate-resident.js';
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
  let resident;
  try {
    resident = await locateResident({ cwd: process.cwd(), env, db: options.db, config: options.config });
  } catch {
    return { handled: false }; // a missing or unreadable config file: the full CLI says what is wrong
  }
  if (resident === null) return { handled: false };
  const { address, settings } = resident;
  const input = await readEventText();
  const answer = await askDaemon(address, { op: 'hook-claude-code', input, scope: options.scope, settings });
  switch (answer.kind) {
    case 'reply':
      process.stdout.write(answer.reply.stdout);
      process.stderr.write(answer.reply.stderr);
      return { handled: true, exitCode: answer.reply.exitCode };
    case 'no-reply':
      return { handled: true, exitCode: 0 };
    case 'unreachable':
      await startDaemon(address, {
        cli: argv[1] as string,
        cwd: process.cwd(),
        env,
        db: resident.dbNamed ? resident.db : undefined,
        config: settings.config,
      });
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
