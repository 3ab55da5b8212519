/**
 * `engram daemon status|stop|run`: the resident Engram processes that hooks and `engram recall`
 * hand their work to, one per database file whatever the settings (`run` is what callers start
 * in the background).
 */
import path from 'node:path';

import type { Command } from 'commander';

import { InvalidInputError } from '../../../index.js';
import { daemonAddress, realDatabasePath } from '../../daemon/address.js';
import { callerSettings } from '../../daemon/caller-settings.js';
import { ResidentEngine } from '../../daemon/resident-engine.js';
import { listResidents, residentStatus, stopAllResidents, stopResident } from '../../daemon/residents.js';
import { serveDaemon } from '../../daemon/server.js';
import { commandConfig, globalOptions, printJson } from '../context.js';
import { commandDatabase } from '../daemon-route.js';
import { describeResidents, describeStopped, residentJson } from '../resident-format.js';

/** Said when nothing runs, with what starts one. */
const NONE_RUNNING = 'no resident process is running (hooks and engram recall start one for their database on first use)';

export function registerDaemon(program: Command): void {
  const daemon = program
    .command('daemon')
    .description('list or stop the resident processes that answer hooks and engram recall')
    .addHelpText(
      'after',
      `
Hooks (engram hook claude-code) and engram recall hand their work to a resident Engram process
for their database, started on first use, so the embedding model is loaded once rather than for
every prompt. There is one per database file, whatever the settings: each request brings its
caller's configuration. It holds about 230 MiB and exits by itself after [daemon] idle_seconds
(900) without a request; [daemon] enabled = false turns it off.

Examples:
  engram daemon status                        # every resident process, with its memory and idle exit
  engram daemon status --json
  engram daemon stop                          # the one of this database (--db, or the configuration's)
  engram daemon stop --all
  engram daemon run --db .engram/engram.db    # in the foreground, until idle or Ctrl+C`,
    );
  daemon
    .command('status')
    .description('list the resident processes (with --db, only that database): database, pid, uptime, memory, idle exit')
    .action(async (_options: unknown, command: Command) => {
      const { db, json } = globalOptions(command);
      const now = new Date();
      const statuses =
        db === undefined
          ? await listResidents(process.env)
          : [await residentStatus(daemonAddress({ db, cwd: process.cwd(), env: process.env }))].filter((s) => s !== null);
      if (json) {
        printJson({ residents: statuses.map((status) => residentJson(status, now)) });
        return;
      }
      process.stdout.write(
        statuses.length > 0
          ? describeResidents(statuses, now)
          : db === undefined
            ? `${NONE_RUNNING}\n`
            : `no resident process serves ${realDatabasePath(path.resolve(db))}\n`,
      );
    });
  daemon
    .command('stop')
    .description('stop the resident process of this database, or of every database with --all (the next hook starts a new one)')
    .option('--all', 'stop every resident process of this user')
    .action(async (options: { all?: boolean }, command: Command) => {
      const { json } = globalOptions(command);
      if (options.all) {
        const stopped = await stopAllResidents(process.env);
        if (json) printJson({ stopped: stopped.map(({ status, exited }) => ({ pid: status.pid, db: status.db, exited })) });
        else process.stdout.write(stopped.length > 0 ? describeStopped(stopped) : `${NONE_RUNNING}\n`);
        return;
      }
      const db = databaseOf(command);
      const stopped = await stopResident(daemonAddress({ db, cwd: process.cwd(), env: process.env }));
      if (json) {
        printJson({ stopped: stopped ? [{ pid: stopped.status.pid, db: stopped.status.db, exited: stopped.exited }] : [] });
        return;
      }
      process.stdout.write(stopped ? describeStopped([stopped]) : `no resident process serves ${realDatabasePath(db)}\n`);
    });
  daemon
    .command('run')
    .description('be the resident process, in the foreground (hooks start one by themselves; this is for watching it)')
    .action(async (_options: unknown, command: Command) => {
      const config = commandConfig(command);
      const named = commandDatabase(command, config);
      if (named === null) {
        throw new InvalidInputError(
          'the resident process serves a SQLite file: with a PostgreSQL store, each command runs in its own process',
        );
      }
      const db = realDatabasePath(named);
      const { cwd, env } = { cwd: process.cwd(), env: process.env };
      const engine = new ResidentEngine(db);
      try {
        // Load the model (and warm the indexes) before listening: a caller either finds a
        // ready process or none, and does the work itself meanwhile.
        await engine.warm(config, callerSettings({ cwd, env, config: globalOptions(command).config }).config, named);
        const ended = await serveDaemon({
          address: daemonAddress({ db, cwd, env }),
          engine,
          db,
          idleSeconds: config.daemon.idle_seconds,
        });
        if (ended === 'already-running') process.stdout.write(`another resident process already serves ${db}\n`);
      } finally {
        await engine.close();
      }
    });
}

/**
 * The database `engram daemon stop` means: `--db` (ENGRAM_DB), else the configuration's file.
 * @throws InvalidInputError when the configuration's store is PostgreSQL, which no resident process serves
 */
function databaseOf(command: Command): string {
  const { db } = globalOptions(command);
  if (db !== undefined) return path.resolve(db);
  const file = commandDatabase(command, commandConfig(command));
  if (file === null) {
    throw new InvalidInputError(
      'this configuration uses a PostgreSQL store, which no resident process serves: name a SQLite file with --db, or use --all',
    );
  }
  return file;
}
