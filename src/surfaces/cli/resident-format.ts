/**
 * How `engram daemon status` and `stop` print the resident processes: one block per database,
 * with what a user deciding whether to stop one wants to know — how long it has run, how much
 * memory it holds, and when it will exit by itself.
 */
import type { DaemonStatus } from '../daemon/protocol.js';
import type { StoppedResident } from '../daemon/residents.js';

/** A status as `--json` prints it: the process's own fields plus its uptime. */
export function residentJson(status: DaemonStatus, now: Date): DaemonStatus & { uptimeSeconds: number } {
  return { ...status, uptimeSeconds: Math.max(0, Math.round((now.getTime() - Date.parse(status.startedAt)) / 1000)) };
}

/** The text of `engram daemon status` for `statuses` (possibly none). */
export function describeResidents(statuses: readonly DaemonStatus[], now: Date): string {
  if (statuses.length === 0) return '';
  const blocks = statuses.map((status) => {
    const uptime = residentJson(status, now).uptimeSeconds;
    const untilExit = Math.max(0, Math.round((Date.parse(status.idleExitAt) - now.getTime()) / 1000));
    return [
      status.db,
      `  pid ${status.pid}, up ${describeDuration(uptime)}, ${plural(status.requests, 'request')} answered, ` +
        `${describeMemory(status.rssBytes)} resident memory`,
      `  exits in ${describeDuration(untilExit)} (at ${clockTime(new Date(status.idleExitAt))}) unless a request ` +
        `comes first: ${status.idleSeconds} s after the last one`,
      ...(status.config ? [`  settings of the latest request from ${status.config}`] : []),
    ].join('\n');
  });
  return `${plural(statuses.length, 'resident process', 'resident processes')}:\n${blocks.join('\n')}\n`;
}

/** The text of `engram daemon stop` for the processes it stopped. */
export function describeStopped(stopped: readonly StoppedResident[]): string {
  return stopped
    .map(({ status, exited }) =>
      exited
        ? `stopped the resident process ${status.pid} of ${status.db}\n`
        : `asked the resident process ${status.pid} of ${status.db} to stop: it exits once it has finished the request in hand\n`,
    )
    .join('');
}

/** Bytes as MiB, the unit of the `[store]` sizes. */
function describeMemory(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/** `45 s`, `3 min 12 s`, `2 h 5 min`. */
function describeDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** Local `HH:MM:SS`. */
function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
