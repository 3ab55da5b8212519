import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { daemonAddress, daemonAddresses, isPrivateDirectory, realDatabasePath } from './address.js';

describe('daemonAddress: one resident process per database file', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'engram-address-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = { XDG_RUNTIME_DIR: '/run/user/7', PATH: '/bin' };

  it('gives every way of naming one database file the same socket: relative, absolute, with .. or through a link', () => {
    mkdirSync(path.join(dir, 'data'));
    writeFileSync(path.join(dir, 'data', 'engram.db'), '');
    symlinkSync(path.join(dir, 'data'), path.join(dir, 'linked-dir'));
    symlinkSync(path.join(dir, 'data', 'engram.db'), path.join(dir, 'linked.db'));
    const a = daemonAddress({ cwd: dir, env, db: 'data/engram.db' });
    for (const [cwd, db] of [
      ['/elsewhere', path.join(dir, 'data/engram.db')],
      [path.join(dir, 'data'), './engram.db'],
      [dir, 'other/../data/engram.db'],
      [dir, 'linked-dir/engram.db'],
      [dir, 'linked.db'],
    ] as const) {
      expect(daemonAddress({ cwd, env: { ...env, PATH: '/usr/bin' }, db }).socket).toBe(a.socket);
    }
    expect(a.socket).toBe(`/run/user/7/engram-${process.getuid?.()}/${a.key}.sock`);
  });

  it('gives a database not made yet, in a linked folder, the address it keeps once made', () => {
    mkdirSync(path.join(dir, 'real'));
    symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
    const before = daemonAddress({ cwd: dir, env, db: 'link/new/engram.db' });
    expect(before.key).toBe(daemonAddress({ cwd: dir, env, db: 'real/new/engram.db' }).key);
    mkdirSync(path.join(dir, 'real', 'new'));
    writeFileSync(path.join(dir, 'real', 'new', 'engram.db'), '');
    expect(daemonAddress({ cwd: dir, env, db: 'link/new/engram.db' }).key).toBe(before.key);
  });

  it('keeps different database files apart', () => {
    const base = daemonAddress({ cwd: dir, env, db: 'a.db' });
    expect(daemonAddress({ cwd: dir, env, db: 'b.db' }).key).not.toBe(base.key);
    expect(daemonAddress({ cwd: path.join(dir, 'sub'), env, db: 'a.db' }).key).not.toBe(base.key);
  });

  it('falls back to the system temporary directory without an absolute XDG_RUNTIME_DIR', () => {
    expect(daemonAddress({ cwd: dir, env: { XDG_RUNTIME_DIR: 'relative' }, db: 'a.db' }).directory).toBe(
      path.join(os.tmpdir(), `engram-${process.getuid?.()}`),
    );
  });
});

describe('realDatabasePath', () => {
  it('resolves links in the part that exists and keeps the rest as named', () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'engram-real-')));
    try {
      mkdirSync(path.join(dir, 'real'));
      symlinkSync(path.join(dir, 'real'), path.join(dir, 'link'));
      expect(realDatabasePath(path.join(dir, 'link', 'a', 'b.db'))).toBe(path.join(dir, 'real', 'a', 'b.db'));
      expect(realDatabasePath(path.join(dir, 'link'))).toBe(path.join(dir, 'real'));
      expect(realDatabasePath('/no-such-root-folder/x.db')).toBe('/no-such-root-folder/x.db');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('daemonAddresses', () => {
  it('lists the sockets of the directory, and none when there is no directory', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-addresses-'));
    try {
      const env = { XDG_RUNTIME_DIR: dir };
      expect(daemonAddresses(env)).toEqual([]);
      const a = daemonAddress({ cwd: dir, env, db: 'a.db' });
      const b = daemonAddress({ cwd: dir, env, db: 'b.db' });
      mkdirSync(a.directory, { mode: 0o700 });
      for (const file of [a.socket, a.infoFile, b.socket, b.startingFile]) writeFileSync(file, '');
      expect(
        daemonAddresses(env)
          .map((address) => address.socket)
          .sort(),
      ).toEqual([a.socket, b.socket].sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('isPrivateDirectory', () => {
  it('accepts only a directory of the user closed to everyone else (or one not made yet)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'engram-private-'));
    try {
      const sockets = path.join(dir, 'sockets');
      expect(isPrivateDirectory(sockets)).toBe(true);
      mkdirSync(sockets, { mode: 0o700 });
      chmodSync(sockets, 0o700);
      expect(isPrivateDirectory(sockets)).toBe(true);
      chmodSync(sockets, 0o755);
      expect(isPrivateDirectory(sockets)).toBe(false);
      writeFileSync(path.join(dir, 'file'), '');
      expect(isPrivateDirectory(path.join(dir, 'file'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
