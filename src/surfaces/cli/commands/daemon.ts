/**
 * `engram daemon status|stop|run`: the resident Engram process that hooks hand their work to,
 * one per database and settings (`run` is what callers start in the background).
 */
import path from 'node:path';

import type { Command } from 'commander';

import { daemonAddress } from '../../daemon/address.js';
import { askDaemon } from '../../daemon/client.js';
import type { DaemonStatus } from '../../daemon/protocol.js';
import { serveDaemon } from '../../daemon/server.js';
import { commandConfig, globalOptions, printJson, withEngram } from '../context.js';

export function registerDaemon(program: Command): void {
  const daemon = program
    .command('daemon')
    .description('show or stop the resident process that answers hooks for this database')
    .addHelpText(
      'after',
      `
Hooks (engram hook claude-code) hand their work to a resident Engram process for the database,
started on first use, so the embedding model is loaded once rather than for every prompt. It
exits by itself after [daemon] idle_seconds without a request; [daemon] enabled = false turns it off.

Examples:
  engram daemon status
  engram daemon stop --db .engram/engram.db
  engram daemon run --db .engram/engram.db     # in the foreground, until idle or Ctrl+C`,
    );
  daemon
    .command('status')
    .description('say whether a resident process serves this database, and what it has done')
    .action(async (_options: unknown, command: Command) => {
      const answer = await askDaemon(addressOf(command), { op: 'status' });
      const status = answer.kind === 'reply' ? (answer.reply.status ?? null) : null;
      if (globalOptions(command).json) {
        printJson({ running: status !== null, ...(status ?? {}) });
        return;
      }
      process.stdout.write(status ? `${describeStatus(status)}\n` : 'no resident process serves this database\n');
    });
  daemon
    .command('stop')
    .description('end the resident process of this database (the next hook starts a new one)')
    .action(async (_options: unknown, command: Command) => {
      const answer = await askDaemon(addressOf(command), { op: 'stop' });
      const status = answer.kind === 'reply' ? answer.reply.status : undefined;
      process.stdout.write(
        status ? `stopped the resident process ${status.pid}\n` : 'no resident process serves this database\n',
      );
    });
  daemon
    .command('run')
    .description('be the resident process, in the foreground (hooks start one by themselves; this is for watching it)')
    .action(async (_options: unknown, command: Command) => {
      const config = commandConfig(command);
      const file = path.resolve(globalOptions(command).db ?? config.store.path);
      await withEngram(command, { mustExist: false, config }, async (engram) => {
        // Load the model (and warm the indexes) before listening: a caller either finds a
        // ready process or none, and does the work itself meanwhile.
        await engram.search({ query: 'warm up', limit: 1, recordRetrieval: false });
        const ended = await serveDaemon({
          address: addressOf(command),
          engram,
          db: file,
          idleSeconds: config.daemon.idle_seconds,
        });
        if (ended === 'already-running') process.stdout.write('another resident process already serves this database\n');
      });
    });
}

/** The address callers with these options, here, would use. */
function addressOf(command: Command) {
  const { db, config } = globalOptions(command);
  return daemonAddress({ cwd: process.cwd(), env: process.env, db, config });
}

function describeStatus(status: DaemonStatus): string {
  return [
    `resident process ${status.pid} serves ${status.db}`,
    `  since ${status.startedAt}, ${status.requests} request${status.requests === 1 ? '' : 's'} answered`,
    `  exits after ${status.idleSeconds} s without a request${status.config ? `; settings from ${status.config}` : ''}`,
  ].join('\n');
}
