import { describe, expect, it } from 'vitest';

import type { DaemonStatus } from '../daemon/protocol.js';
import { describeResidents, describeStopped, residentJson } from './resident-format.js';

// Local times, so the printed clock time is the same in every time zone.
const NOW = new Date(2026, 0, 1, 10, 37, 26);
const status = (overrides: Partial<DaemonStatus> = {}): DaemonStatus => ({
  pid: 41327,
  db: '/home/me/project/.engram/engram.db',
  config: null,
  startedAt: new Date(2026, 0, 1, 10, 31, 14).toISOString(),
  requests: 38,
  idleSeconds: 900,
  idleExitAt: new Date(2026, 0, 1, 10, 52, 7).toISOString(),
  rssBytes: 231 * 1024 * 1024 + 1000,
  ...overrides,
});

describe('describeResidents', () => {
  it('prints each process with its database, pid, uptime, requests, memory and idle exit', () => {
    expect(describeResidents([status()], NOW)).toBe(
      '1 resident process:\n' +
        '/home/me/project/.engram/engram.db\n' +
        '  pid 41327, up 6 min 12 s, 38 requests answered, 231 MiB resident memory\n' +
        '  exits in 14 min 41 s (at 10:52:07) unless a request comes first: 900 s after the last one\n',
    );
  });

  it.each([
    [new Date(2026, 0, 1, 10, 37, 0), 'up 26 s', 1, '1 request answered'],
    [new Date(2026, 0, 1, 8, 12, 0), 'up 2 h 25 min', 0, '0 requests answered'],
  ])('counts an uptime from %s as "%s"', (startedAt, uptime, requests, answered) => {
    const text = describeResidents([status({ startedAt: startedAt.toISOString(), requests })], NOW);
    expect(text).toContain(`, ${uptime}, ${answered},`);
  });

  it('names the configuration of the latest request, and counts several processes', () => {
    const text = describeResidents([status({ config: '/home/me/project/engram.toml' }), status({ pid: 2 })], NOW);
    expect(text.startsWith('2 resident processes:\n')).toBe(true);
    expect(text).toContain('  settings of the latest request from /home/me/project/engram.toml\n');
  });

  it('never prints a negative time to the exit', () => {
    expect(describeResidents([status({ idleExitAt: new Date(2026, 0, 1, 10, 37, 0).toISOString() })], NOW)).toContain(
      '  exits in 0 s',
    );
  });

  it('prints nothing for no process (the command says so itself)', () => {
    expect(describeResidents([], NOW)).toBe('');
  });
});

describe('residentJson', () => {
  it('adds the uptime in seconds to the process’s own fields', () => {
    expect(residentJson(status(), NOW)).toEqual({ ...status(), uptimeSeconds: 372 });
  });
});

describe('describeStopped', () => {
  it('says which process stopped, or that one is still finishing a request', () => {
    expect(
      describeStopped([
        { status: status(), exited: true },
        { status: status({ pid: 2, db: '/b.db' }), exited: false },
      ]),
    ).toBe(
      'stopped the resident process 41327 of /home/me/project/.engram/engram.db\n' +
        'asked the resident process 2 of /b.db to stop: it exits once it has finished the request in hand\n',
    );
  });
});
