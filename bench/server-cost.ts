/**
 * The server-side cost of a PostgreSQL benchmark store, for `bench footprint`: the server's
 * memory and CPU time, sampled around each phase of a run beside the client's (this process).
 * The server is found on this machine: PGlite's own process, or a PostgreSQL server's postmaster
 * (the parent of its checkpointer) with all its children, when the URL names this machine and
 * its /proc entries can be read. Anything else is reported as not measured, with the reason.
 */
import { readFileSync } from 'node:fs';

import { checkpointerProcessId } from 'engram/internal';

import type { BenchStore } from './bench-store.js';
import { parseStat, type ProcessSample, sampleProcess, sampleProcessTree } from './process-tree.js';

/** The server's root process, or why it cannot be watched. */
export type ServerWatch = { pid: number; what: string } | { reason: string };

/** Memory and CPU time so far, of the server (null when not watched) and of this process. */
export interface CostSample {
  atMs: number;
  server: ProcessSample | null;
  client: ProcessSample;
}

/** What a phase of the run cost: wall time and CPU seconds on each side. */
export interface PhaseCost {
  wallSeconds: number;
  clientCpuSeconds: number;
  serverCpuSeconds: number | null;
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Where `database`'s server runs, when this process can watch it. */
export async function findServer(database: BenchStore): Promise<ServerWatch> {
  if (database.backend === 'SQLite') return { reason: 'SQLite has no server: the client does all the work' };
  if (database.serverPid !== undefined) return watchable(database.serverPid, `${database.engine}'s process`);
  const url = new URL(database.location);
  const socket = url.searchParams.get('host')?.startsWith('/') ?? false;
  if (!socket && !LOCAL_HOSTS.has(url.hostname)) {
    return { reason: `the server (${url.hostname}) is not on this machine: its processes cannot be read` };
  }
  const checkpointer = await checkpointerProcessId(database.location);
  if (checkpointer === null) return { reason: 'the server reports no checkpointer process to find it by' };
  let postmaster: number;
  try {
    if (!readFileSync(`/proc/${checkpointer}/cmdline`, 'utf8').includes('checkpointer')) throw new Error('another process');
    postmaster = parseStat(readFileSync(`/proc/${checkpointer}/stat`, 'utf8')).ppid;
  } catch {
    return { reason: `process ${checkpointer} here is not the server's checkpointer (is the server in another container?)` };
  }
  return watchable(postmaster, `the PostgreSQL server (postmaster ${postmaster} and its children)`);
}

function watchable(pid: number, what: string): ServerWatch {
  try {
    sampleProcessTree(pid);
    return { pid, what };
  } catch (error) {
    const denied = (error as { code?: string }).code === 'EACCES';
    return {
      reason: denied
        ? `the server's /proc entries cannot be read by this user: run the bench as the server's user or root`
        : `the server's process ${pid} cannot be read: ${(error as Error).message}`,
    };
  }
}

/** A sample of the server `watch` names (if any) and of this process, now. */
export function sampleCost(watch: ServerWatch): CostSample {
  return {
    atMs: performance.now(),
    server: 'pid' in watch ? sampleProcessTree(watch.pid) : null,
    client: sampleProcess(process.pid),
  };
}

/** What was spent from `before` to `after`. */
export function costBetween(before: CostSample, after: CostSample): PhaseCost {
  return {
    wallSeconds: (after.atMs - before.atMs) / 1000,
    clientCpuSeconds: after.client.cpuSeconds - before.client.cpuSeconds,
    serverCpuSeconds: before.server === null || after.server === null ? null : after.server.cpuSeconds - before.server.cpuSeconds,
  };
}
