import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { daemonAddress } from './address.js';
import { locateResident } from './locate-resident.js';

describe('locateResident: the database and settings a hook hands to the resident process', () => {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'engram-locate-resident-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const env = (extra: Record<string, string> = {}) => ({ XDG_RUNTIME_DIR: dir, PATH: '/bin', ...extra });
  const config = (text: string, name = 'engram.toml') => writeFileSync(path.join(dir, name), text);
  const locate = (extra: Record<string, string> = {}, options: { db?: string; config?: string } = {}) =>
    locateResident({ cwd: dir, env: env(extra), ...options });
  const socketOf = (db: string) => daemonAddress({ db, cwd: dir, env: env() }).socket;

  it('chooses the database as the CLI does: --db, then ENGRAM_DB, then [store] path, then the default', async () => {
    expect(await locate()).toMatchObject({ db: path.join(dir, '.engram/engram.db'), dbNamed: false });
    config('[store]\npath = "from-file.db"\n');
    expect(await locate()).toMatchObject({ db: path.join(dir, 'from-file.db'), dbNamed: false });
    expect(await locate({ ENGRAM_STORE__PATH: 'from-env.db' })).toMatchObject({ db: path.join(dir, 'from-env.db') });
    expect(await locate({ ENGRAM_DB: 'named.db' })).toMatchObject({ db: path.join(dir, 'named.db'), dbNamed: true });
    const flagged = await locate({ ENGRAM_DB: 'named.db' }, { db: 'flag.db' });
    expect(flagged).toMatchObject({ db: path.join(dir, 'flag.db'), dbNamed: true });
    expect(flagged?.address.socket).toBe(socketOf('flag.db'));
  });

  it('sends the configuration file and only the config-key variables, and keys the address by database alone', async () => {
    config('[context]\nmax_tokens = 10\n', 'tight.toml');
    const plain = await locate({ ENGRAM_TOKEN: 'secret', ENGRAM_DB: 'a.db' });
    const tight = await locate({ ENGRAM_CONTEXT__MAX_TOKENS: '10', ENGRAM_DB: 'a.db' }, { config: 'tight.toml' });
    expect(plain?.settings).toEqual({ cwd: dir, config: null, env: {} });
    expect(tight?.settings).toEqual({
      cwd: dir,
      config: path.join(dir, 'tight.toml'),
      env: { ENGRAM_CONTEXT__MAX_TOKENS: '10' },
    });
    expect(tight?.address.socket).toBe(plain?.address.socket);
  });

  it('finds none when [daemon] enabled is false or not a flag, or the store is PostgreSQL', async () => {
    expect(await locate({ ENGRAM_DAEMON__ENABLED: 'false' })).toBeNull();
    expect(await locate({ ENGRAM_DAEMON__ENABLED: '0' })).toBeNull();
    expect(await locate({ ENGRAM_STORE_URL: 'postgres://localhost/engram' }, { db: 'a.db' })).toBeNull();
    expect(await locate({ ENGRAM_STORE__URL: 'postgres://localhost/engram' })).toBeNull();
    config('[store]\nurl = "postgres://localhost/engram"\n');
    expect(await locate()).toBeNull();
    // --db names a file over the configuration's PostgreSQL store, as in the CLI.
    expect(await locate({}, { db: 'a.db' })).toMatchObject({ db: path.join(dir, 'a.db') });
    config('[daemon]\nenabled = false\n');
    expect(await locate()).toBeNull();
    config('[store]\npath = 5\n');
    expect(await locate()).toBeNull(); // the full CLI reports the wrong type
  });

  it('throws for a config file that is named but missing, or is not TOML (the full CLI reports it)', async () => {
    await expect(locate({}, { config: 'missing.toml' })).rejects.toThrow(/does not exist/);
    config('[store\n');
    await expect(locate()).rejects.toThrow();
  });
});
