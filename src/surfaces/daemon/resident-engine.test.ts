import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { parseConfig } from '../../entries/model.js';
import { ConfigError } from '../../index.js';
import type { CallerSettings } from './caller-settings.js';
import { ResidentEngine } from './resident-engine.js';

const LEXICAL = { ENGRAM_EMBEDDING__PROVIDER: 'none' };

describe('ResidentEngine: one database, each request with its own settings', () => {
  let dir: string;
  let db: string;
  let engine: ResidentEngine;
  const settings = (env: Record<string, string> = {}, config: string | null = null): CallerSettings => ({
    cwd: dir,
    config,
    env: { ...LEXICAL, ...env },
  });
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'engram-resident-engine-'));
    db = path.join(dir, 'engram.db');
    engine = new ResidentEngine(db);
    await engine.warm(parseConfig({ embedding: { provider: 'none' } }), null, db);
  });
  afterEach(async () => {
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the open engine for the same configuration, and for one that differs only in [daemon]', async () => {
    const first = await engine.engineFor(settings());
    expect((await engine.engineFor(settings())).engram).toBe(first.engram);
    const idle = await engine.engineFor(settings({ ENGRAM_DAEMON__IDLE_SECONDS: '5' }));
    expect(idle.engram).toBe(first.engram);
    expect(idle.config.daemon.idle_seconds).toBe(5);
  });

  it('opens the database again with the settings of a request that differ, from its file or its variables', async () => {
    const first = await engine.engineFor(settings());
    await first.engram.remember('The billing service stores invoices in PostgreSQL 16');
    writeFileSync(path.join(dir, 'tight.toml'), '[context]\nmax_tokens = 10\n');
    const fromFile = await engine.engineFor(settings({}, path.join(dir, 'tight.toml')));
    expect(fromFile.engram).not.toBe(first.engram);
    expect(fromFile.engram.config.context.max_tokens).toBe(10);
    expect(engine.configFile).toBe(path.join(dir, 'tight.toml'));
    await expect(first.engram.search('billing')).rejects.toThrow(); // the previous engine was closed
    expect((await fromFile.engram.search('billing')).length).toBe(1);

    const fromEnv = await engine.engineFor(settings({ ENGRAM_CONTEXT__MAX_TOKENS: '20' }));
    expect(fromEnv.engram.config.context.max_tokens).toBe(20);
    expect(engine.configFile).toBeNull();
  });

  it('opens its own database file whatever store a request’s configuration names', async () => {
    writeFileSync(path.join(dir, 'elsewhere.toml'), '[store]\npath = "other.db"\nurl = "postgres://localhost/engram"\n');
    const { engram } = await engine.engineFor(settings({}, path.join(dir, 'elsewhere.toml')));
    expect(engram.path).toBe(db);
    expect(existsSync(path.join(dir, 'other.db'))).toBe(false);
  });

  it('reports a wrong configuration as the command would, and keeps the open engine for the next request', async () => {
    const first = await engine.engineFor(settings());
    writeFileSync(path.join(dir, 'wrong.toml'), '[memory.recall]\nthreshold = 2\n');
    const wrong = engine.engineFor(settings({}, path.join(dir, 'wrong.toml')));
    await expect(wrong).rejects.toThrow(ConfigError);
    await expect(wrong).rejects.toThrow(/wrong\.toml: memory\.recall\.threshold must be between 0 and 1/);
    expect((await engine.engineFor(settings())).engram).toBe(first.engram);
  });
});
