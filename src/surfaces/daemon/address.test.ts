import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../../errors.js';
import { daemonAddress, isPrivateDirectory } from './address.js';

describe('daemonAddress: one resident process per database and settings', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-address-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = { XDG_RUNTIME_DIR: '/run/user/7', PATH: '/bin' };

  it('gives callers that would open the same database the same way the same socket', () => {
    const a = daemonAddress({ cwd: dir, env, db: 'data/engram.db' });
    const b = daemonAddress({ cwd: '/elsewhere', env: { ...env, PATH: '/usr/bin' }, db: path.join(dir, 'data/engram.db') });
    const c = daemonAddress({ cwd: dir, env: { ...env, ENGRAM_DB: 'data/engram.db' } });
    expect(b.socket).toBe(a.socket);
    expect(c.socket).toBe(a.socket);
    expect(a.db).toBe(path.join(dir, 'data/engram.db'));
    expect(a.socket).toBe(`/run/user/7/engram-${process.getuid?.()}/${a.key}.sock`);
  });

  it('keeps databases, settings and configuration contents apart', () => {
    const base = daemonAddress({ cwd: dir, env });
    expect(daemonAddress({ cwd: path.join(dir, 'other'), env }).key).not.toBe(base.key);
    expect(daemonAddress({ cwd: dir, env: { ...env, ENGRAM_EMBEDDING__PROVIDER: 'none' } }).key).not.toBe(base.key);
    writeFileSync(path.join(dir, 'engram.toml'), '[memory.recall]\nthreshold = 0.7\n');
    const configured = daemonAddress({ cwd: dir, env });
    expect(configured.key).not.toBe(base.key);
    expect(configured.config).toBe(path.join(dir, 'engram.toml'));
    writeFileSync(path.join(dir, 'engram.toml'), '[memory.recall]\nthreshold = 0.8\n');
    expect(daemonAddress({ cwd: dir, env }).key).not.toBe(configured.key);
  });

  it('has no address for a command whose --config or ENGRAM_CONFIG file is missing (the command reports it)', () => {
    writeFileSync(path.join(dir, 'engram.toml'), '');
    expect(() => daemonAddress({ cwd: dir, env, config: 'missing.toml' })).toThrow(ConfigError);
    expect(() => daemonAddress({ cwd: dir, env: { ...env, ENGRAM_CONFIG: 'missing.toml' } })).toThrow(/does not exist/);
  });

  it('leaves options that are not settings out of the key', () => {
    const base = daemonAddress({ cwd: dir, env });
    expect(daemonAddress({ cwd: dir, env: { ...env, ENGRAM_TOKEN: 'secret', ENGRAM_DEBUG: '1' } }).key).toBe(base.key);
  });

  it('falls back to the system temporary directory without an absolute XDG_RUNTIME_DIR', () => {
    expect(daemonAddress({ cwd: dir, env: { XDG_RUNTIME_DIR: 'relative' } }).directory).toBe(
      path.join(os.tmpdir(), `engram-${process.getuid?.()}`),
    );
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
