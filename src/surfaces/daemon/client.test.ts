import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../../index.js';
import { type DaemonAddress, daemonAddress } from './address.js';
import { askDaemon } from './client.js';
import { ResidentEngine } from './resident-engine.js';
import { serveDaemon } from './server.js';

const SHORT = { connectMs: 150, replyMs: 100 };

describe('askDaemon', () => {
  let dir: string;
  let address: DaemonAddress;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-client-'));
    address = daemonAddress({ cwd: dir, env: { XDG_RUNTIME_DIR: dir }, db: 'engram.db' });
    mkdirSync(address.directory, { mode: 0o700 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers unreachable when nothing listens: the request was never sent', async () => {
    expect(await askDaemon(address, { op: 'status' }, SHORT)).toEqual({ kind: 'unreachable' });
  });

  it('answers no-reply when a process took the request but did not answer in time', async () => {
    const received: string[] = [];
    const server = net.createServer((socket) => socket.on('data', (chunk) => received.push(chunk.toString())));
    await new Promise<void>((resolve) => server.listen(address.socket, resolve));
    try {
      const started = Date.now();
      expect(await askDaemon(address, { op: 'status' }, SHORT)).toEqual({ kind: 'no-reply' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(SHORT.replyMs - 5);
      expect(received.join('')).toBe('{"op":"status"}\n');
    } finally {
      server.close();
    }
  });
});

describe('serveDaemon', () => {
  // Only root can give a directory to another user.
  it.skipIf(process.getuid?.() !== 0)('refuses, with a configuration error, a socket directory of another user', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-server-'));
    try {
      const address = daemonAddress({ cwd: dir, env: { XDG_RUNTIME_DIR: dir }, db: 'engram.db' });
      mkdirSync(address.directory, { mode: 0o700 });
      chownSync(address.directory, 65534, 65534);
      const engine = new ResidentEngine(path.join(dir, 'engram.db'));
      const serving = serveDaemon({ address, engine, db: path.join(dir, 'engram.db'), idleSeconds: 1 });
      await expect(serving).rejects.toThrow(ConfigError);
      await expect(serving).rejects.toThrow(/is not private to this user .* set XDG_RUNTIME_DIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
