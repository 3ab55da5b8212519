import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../errors.js';
import { isConfigKeyVariable, locateConfigFile, parseEnvFlag } from './locate.js';

describe('locateConfigFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-locate-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds engram.toml in the working directory when no file is named, and none when it is absent', () => {
    expect(locateConfigFile({ cwd: dir, env: {} })).toBeNull();
    writeFileSync(path.join(dir, 'engram.toml'), '');
    expect(locateConfigFile({ cwd: dir, env: {} })).toBe(path.join(dir, 'engram.toml'));
  });

  it('takes --config over ENGRAM_CONFIG, relative to the working directory', () => {
    writeFileSync(path.join(dir, 'a.toml'), '');
    writeFileSync(path.join(dir, 'b.toml'), '');
    expect(locateConfigFile({ file: 'a.toml', cwd: dir, env: { ENGRAM_CONFIG: 'b.toml' } })).toBe(path.join(dir, 'a.toml'));
    expect(locateConfigFile({ cwd: dir, env: { ENGRAM_CONFIG: 'b.toml' } })).toBe(path.join(dir, 'b.toml'));
  });

  it('refuses a named file that does not exist, rather than falling back to no file', () => {
    writeFileSync(path.join(dir, 'engram.toml'), '');
    expect(() => locateConfigFile({ file: 'missing.toml', cwd: dir, env: {} })).toThrow(ConfigError);
    expect(() => locateConfigFile({ cwd: dir, env: { ENGRAM_CONFIG: 'missing.toml' } })).toThrow(/missing\.toml does not exist/);
  });
});

describe('the environment as configuration', () => {
  it('counts ENGRAM_SECTION__KEY variables as config keys, and the options as not', () => {
    expect(isConfigKeyVariable('ENGRAM_DAEMON__ENABLED')).toBe(true);
    for (const name of ['ENGRAM_DB', 'ENGRAM_CONFIG', 'ENGRAM_TOKEN', 'ENGRAM_DEBUG', 'ENGRAM_OTHER', 'PATH']) {
      expect(isConfigKeyVariable(name), name).toBe(false);
    }
  });

  it('reads a flag only as the configuration would accept it', () => {
    expect(parseEnvFlag('true')).toBe(true);
    expect(parseEnvFlag(' false ')).toBe(false);
    for (const rejected of ['0', '1', 'yes', 'FALSE', '']) expect(parseEnvFlag(rejected), rejected).toBeUndefined();
  });
});
