/**
 * What a process (and, for a server, its descendants) holds and has spent, read from Linux's
 * /proc, for `bench footprint`'s server-side cost. CPU time is `utime + stime` of
 * /proc/<pid>/stat; a server's also counts the children it has reaped (`cutime + cstime`: a
 * PostgreSQL backend that exits moves its time to the postmaster's), so the difference of two
 * samples is what the server spent between them, exited backends included. Memory is summed
 * over the processes alive at the sample from /proc/<pid>/smaps_rollup: PSS (each shared page
 * divided among the processes that map it, so shared buffers count once), private pages, RSS.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports CPU times in clock ticks of 1/100 s (USER_HZ, the same on every architecture Node runs on). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat this module reads. */
export interface ProcessStat {
  pid: number;
  ppid: number;
  /** utime + stime, in ticks. */
  ownTicks: number;
  /** cutime + cstime: the time of the children it has reaped, in ticks. */
  reapedTicks: number;
}

/** One process's or a tree's memory, in bytes, and its CPU time so far. */
export interface ProcessSample {
  processes: number;
  cpuSeconds: number;
  rssBytes: number;
  pssBytes: number;
  privateBytes: number;
}

/** Parses /proc/<pid>/stat: the command name is in parentheses and may hold spaces, so fields are counted after the last `)`. */
export function parseStat(text: string): ProcessStat {
  const close = text.lastIndexOf(')');
  const pid = Number(text.slice(0, text.indexOf(' ')));
  // After the name: state (field 3), ppid (4), … utime (14), stime (15), cutime (16), cstime (17).
  const fields = text
    .slice(close + 2)
    .trim()
    .split(/\s+/)
    .map(Number);
  const field = (n: number) => fields[n - 3] as number;
  if (close < 0 || fields.length < 15 || !Number.isInteger(pid) || [4, 14, 15, 16, 17].some((n) => !Number.isFinite(field(n)))) {
    throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 80)}`);
  }
  return { pid, ppid: field(4), ownTicks: field(14) + field(15), reapedTicks: field(16) + field(17) };
}

/** Parses /proc/<pid>/smaps_rollup (kB figures) into bytes. */
export function parseSmapsRollup(text: string): { rssBytes: number; pssBytes: number; privateBytes: number } {
  const kB = (key: string) => {
    const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text);
    if (!match) throw new Error(`smaps_rollup has no ${key} line`);
    return Number(match[1]) * 1024;
  };
  return { rssBytes: kB('Rss'), pssBytes: kB('Pss'), privateBytes: kB('Private_Clean') + kB('Private_Dirty') };
}

/** `root` and every process below it, among `stats`. */
export function treeOf(stats: readonly ProcessStat[], root: number): ProcessStat[] {
  const children = new Map<number, ProcessStat[]>();
  for (const stat of stats) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), stat]);
  const tree = stats.filter((stat) => stat.pid === root);
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get((tree[i] as ProcessStat).pid) ?? []));
  return tree;
}

/**
 * Process `pid` alone: its own CPU time (not its children's) and its memory. Throws when its
 * /proc entries cannot be read (gone, or another user's without the right to read them).
 */
export function sampleProcess(pid: number): ProcessSample {
  const stat = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  return { processes: 1, cpuSeconds: stat.ownTicks / TICKS_PER_SECOND, ...memoryOf(pid) };
}

/**
 * A server: process `root` and all its descendants. CPU time includes the children they have
 * reaped and those that have exited unreaped; memory and `processes` count those alive now.
 * Throws when `root` cannot be read.
 */
export function sampleProcessTree(root: number): ProcessSample {
  const tree = treeOf(allStats(), root);
  if (tree.length === 0) throw new Error(`no process ${root} on this machine`);
  let cpuTicks = 0;
  let rssBytes = 0;
  let pssBytes = 0;
  let privateBytes = 0;
  let processes = 0;
  for (const stat of tree) {
    // Read in the listing: a backend that has exited but is not yet reaped (a zombie) keeps its
    // time there until its parent reaps it and counts it as its own reaped ticks.
    cpuTicks += stat.ownTicks + stat.reapedTicks;
    let memory: ReturnType<typeof memoryOf>;
    try {
      memory = memoryOf(stat.pid);
    } catch (error) {
      if (stat.pid === root) throw error;
      continue; // exited: a zombie, or gone since the listing, holds no memory
    }
    processes++;
    rssBytes += memory.rssBytes;
    pssBytes += memory.pssBytes;
    privateBytes += memory.privateBytes;
  }
  return { processes, cpuSeconds: cpuTicks / TICKS_PER_SECOND, rssBytes, pssBytes, privateBytes };
}

function memoryOf(pid: number): { rssBytes: number; pssBytes: number; privateBytes: number } {
  return parseSmapsRollup(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
}

/** Every process's stat line that can still be read. */
function allStats(): ProcessStat[] {
  const stats: ProcessStat[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.push(parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // exited while the directory was read
    }
  }
  return stats;
}
