/**
 * The resident Engram process of one database: it listens on a Unix socket in a directory only
 * its user can enter, answers one request per connection, one command at a time (each with the
 * settings its caller sent), and exits by itself after `idle_seconds` without a command (asking
 * its status does not count), when its database file is removed, on SIGTERM or SIGINT, or when
 * asked (`engram daemon stop`). A socket left by a process that died is replaced; a second
 * process started for the same database finds the first and leaves.
 */
import { chmodSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';

import { ConfigError } from '../../index.js';
import { type DaemonAddress, isPrivateDirectory } from './address.js';
import { askDaemon } from './client.js';
import { runRequest } from './handlers.js';
import { type DaemonReply, type DaemonRequest, type DaemonStatus, encodeLine, readLine } from './protocol.js';
import type { ResidentEngine } from './resident-engine.js';

/** The requests this version answers. */
const KNOWN_OPS: ReadonlySet<unknown> = new Set<DaemonRequest['op']>(['hook-claude-code', 'recall', 'status', 'stop']);
/** How often the process looks for its database file. */
const WATCH_MS = 2_000;

export interface DaemonOptions {
  address: DaemonAddress;
  /** The engine, opened (and warmed) on `db`. */
  engine: ResidentEngine;
  /** The database file it holds open (its real path). */
  db: string;
  /** Until the first command says otherwise: the process's own `[daemon] idle_seconds`. */
  idleSeconds: number;
}

/** Serves until the process should exit; resolves with why. */
export async function serveDaemon(options: DaemonOptions): Promise<'stopped' | 'idle' | 'database-gone' | 'already-running'> {
  const { address } = options;
  mkdirSync(address.directory, { recursive: true, mode: 0o700 });
  // Ours but left open (an older umask): close it. Someone else's: refuse it.
  if (statSync(address.directory).uid === process.getuid?.()) chmodSync(address.directory, 0o700);
  if (!isPrivateDirectory(address.directory)) {
    // The directory comes from XDG_RUNTIME_DIR (or the temporary directory): a setting to change.
    throw new ConfigError(
      `${address.directory} is not private to this user (another user owns it, or it is not a directory), so the ` +
        'resident process will not listen there: set XDG_RUNTIME_DIR to a directory of your own, or turn the ' +
        'resident process off with [daemon] enabled = false',
    );
  }
  const server = net.createServer();
  if (!(await listen(server, address))) return 'already-running';
  chmodSync(address.socket, 0o600);

  const startedAt = new Date();
  let requests = 0;
  let idleSeconds = options.idleSeconds;
  let idleExitAt = new Date(startedAt.getTime() + idleSeconds * 1000);
  const status = (): DaemonStatus => ({
    pid: process.pid,
    db: options.db,
    config: options.engine.configFile,
    startedAt: startedAt.toISOString(),
    requests,
    idleSeconds,
    idleExitAt: idleExitAt.toISOString(),
    rssBytes: process.memoryUsage.rss(),
  });
  writeFileSync(address.infoFile, `${JSON.stringify(status())}\n`, { mode: 0o600 });
  rmSync(address.startingFile, { force: true });

  return new Promise((resolve) => {
    let queue: Promise<unknown> = Promise.resolve();
    let idle: NodeJS.Timeout | undefined;
    let done = false;
    const stop = (why: 'stopped' | 'idle' | 'database-gone'): void => {
      if (done) return;
      done = true;
      clearTimeout(idle);
      clearInterval(watch);
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      server.close();
      rmSync(address.socket, { force: true });
      rmSync(address.infoFile, { force: true });
      // Requests already queued finish first; then the engine closes.
      void queue.finally(() => resolve(why));
    };
    const touch = (): void => {
      clearTimeout(idle);
      idleExitAt = new Date(Date.now() + idleSeconds * 1000);
      idle = setTimeout(() => stop('idle'), idleSeconds * 1000);
    };
    const onSignal = (): void => stop('stopped');
    const watch = setInterval(() => {
      if (!existsSync(options.db)) stop('database-gone');
    }, WATCH_MS);
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    touch();

    server.on('connection', (socket) => {
      socket.on('error', () => undefined); // a caller that gave up
      readLine(socket).then(
        async (message) => {
          const request = message as DaemonRequest;
          let reply: DaemonReply;
          if (!KNOWN_OPS.has(request?.op)) {
            socket.end(
              encodeLine({ stdout: '', stderr: 'engram: the resident process does not know this request\n', exitCode: 1 }),
            );
            return;
          }
          // Asking after the process is not using it: only commands keep it alive.
          if (request.op === 'status' || request.op === 'stop') {
            reply = { stdout: '', stderr: '', exitCode: 0, status: status() };
          } else {
            touch();
            const answer = queue.then(() => (socket.destroyed ? null : runRequest(options.engine, request)));
            queue = answer.catch(() => undefined);
            const result = await answer;
            if (result === null) return; // the caller stopped waiting before its turn
            requests += 1;
            // The idle time counts from the end of the latest command, by its settings.
            idleSeconds = result.idleSeconds ?? idleSeconds;
            if (!done) touch();
            reply = result.reply;
          }
          socket.end(encodeLine(reply));
          if (request.op === 'stop') stop('stopped');
        },
        () => socket.destroy(),
      );
    });
  });
}

/** Listens on the address's socket, replacing a stale one; false when a live process already has it. */
async function listen(server: net.Server, address: DaemonAddress): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(address.socket, () => {
          server.off('error', reject);
          resolve();
        });
      });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      const answer = await askDaemon(address, { op: 'status' });
      if (answer.kind === 'reply') return false;
      rmSync(address.socket, { force: true }); // left by a process that died
    }
  }
  return false;
}
