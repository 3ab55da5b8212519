import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ConfigError } from '../errors.js';
import { loadConfig, parseConfig } from './load.js';

describe('configuration defaults', () => {
  it('gives every key of the seeds its default', () => {
    const config = parseConfig({});
    expect(config.memory.recall).toEqual({ enabled: true, threshold: 0.6, limit: 5 });
    expect(config.memory.intrusive).toEqual({
      enabled: true,
      every_tool_turns: 5,
      window_messages: 3,
      threshold: 0.5,
      max_items: 3,
    });
    expect(config.memory.cooldown).toEqual({
      decay: 'exponential',
      seconds: 1800,
      paths: ['explicit', 'intrusive'],
    });
    expect(config.auto_recall).toEqual({
      selection_mode: 'tier_quota_v1',
      max_items: 6,
      repeat_window_turns: 6,
      repeat_penalty: 0.35,
      dedupe_backbone: true,
      mmr_lambda: 0.7,
      quotas: { must_max: 2, nice_min: 2, unknown_max: 1 },
    });
    expect(config.working_set).toEqual({ enabled: true, persist: true });
    expect(config.solutions).toEqual({ threshold: 0.3, similarity: 'hybrid' });
    expect(config.context).toEqual({ max_tokens: 2000 });
    expect(config.store).toEqual({
      path: '.engram/engram.db',
      tenant: 'default',
      url: '',
      pool_size: 10,
      float_vectors_mb: 32,
      mmap_mb: 1024,
    });
    expect(config.embedding.provider).toBe('local');
    expect(config.retrieval).toEqual({
      fusion: 'weighted',
      lexical_weight: 0.5,
      candidates: 50,
      recency_weight: 0.05,
      recency_half_life_days: 365,
      exact_boost: 0.15,
    });
  });

  it('keeps the defaults of a section when only one of its keys is set', () => {
    const config = parseConfig({ auto_recall: { quotas: { must_max: 3 } } });
    expect(config.auto_recall.quotas).toEqual({ must_max: 3, nice_min: 2, unknown_max: 1 });
    expect(config.auto_recall.repeat_penalty).toBe(0.35);
  });

  it('does not change the object it was given', () => {
    const input = { memory: { recall: { limit: 2 } } };
    parseConfig(input);
    expect(input).toEqual({ memory: { recall: { limit: 2 } } });
  });
});

describe('loading engram.toml', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'engram-config-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const write = (text: string, name = 'engram.toml') => {
    writeFileSync(path.join(directory, name), text);
    return path.join(directory, name);
  };
  const load = (options: { file?: string; env?: NodeJS.ProcessEnv } = {}) =>
    loadConfig({ cwd: directory, env: options.env ?? {}, file: options.file });
  const errorOf = (action: () => unknown): ConfigError => {
    try {
      action();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return error as ConfigError;
    }
    throw new Error('expected a ConfigError');
  };

  it('uses the defaults when there is no file', () => {
    const config = load();
    expect(config.memory.recall.threshold).toBe(0.6);
    expect(config.origin.file).toBeNull();
  });

  it('reads engram.toml from the working directory', () => {
    write('[memory.recall]\nthreshold = 0.7\n\n[auto_recall]\nselection_mode = "tier_first_v1"\n');
    const config = load();
    expect(config.memory.recall.threshold).toBe(0.7);
    expect(config.auto_recall.selection_mode).toBe('tier_first_v1');
    expect(config.origin.file).toBe(path.join(directory, 'engram.toml'));
  });

  it('reads the file named by --config instead', () => {
    const file = write('[memory.recall]\nlimit = 2\n', 'other.toml');
    expect(load({ file }).memory.recall.limit).toBe(2);
  });

  it('names the key and the file for an unknown key', () => {
    write('[auto_recall.quotas]\nmust_maxx = 3\n');
    expect(errorOf(load).message).toMatch(/^engram\.toml: unknown key auto_recall\.quotas\.must_maxx/);
  });

  it('names the key and the expected type for a wrong type', () => {
    write('[memory.recall]\nthreshold = "high"\n');
    expect(errorOf(load).message).toBe('engram.toml: memory.recall.threshold must be a number between 0 and 1');
  });

  it('rejects values outside their range', () => {
    write('[memory.recall]\nthreshold = 1.5\n');
    expect(errorOf(load).message).toContain('memory.recall.threshold must be between 0 and 1');
  });

  it('takes "auto" or a whole number of embedding workers, and says so otherwise', () => {
    expect(load().embedding.workers).toBe('auto');
    write('[embedding]\nworkers = 0\n');
    expect(load().embedding.workers).toBe(0);
    write('[embedding]\nworkers = "many"\n');
    expect(errorOf(load).message).toBe(
      'engram.toml: embedding.workers must be "auto" or a whole number of workers (0 embeds in the calling thread)',
    );
    write('');
    expect(load({ env: { ENGRAM_EMBEDDING__WORKERS: '3' } }).embedding.workers).toBe(3);
  });

  it('names the file for a TOML syntax error', () => {
    write('[memory.recall\nthreshold = 0.7\n');
    expect(errorOf(load).message).toMatch(/engram\.toml is not valid TOML/);
  });

  it('says so when the --config file does not exist', () => {
    expect(errorOf(() => load({ file: 'missing.toml' })).message).toMatch(/missing\.toml does not exist/);
  });

  it('applies ENGRAM_SECTION__KEY environment overrides over the file', () => {
    write('[memory.recall]\nthreshold = 0.7\n');
    const config = load({
      env: {
        ENGRAM_MEMORY__RECALL__THRESHOLD: '0.8',
        ENGRAM_AUTO_RECALL__QUOTAS__MUST_MAX: '4',
        ENGRAM_EMBEDDING__PROVIDER: 'none',
      },
    });
    expect(config.memory.recall.threshold).toBe(0.8);
    expect(config.auto_recall.quotas.must_max).toBe(4);
    expect(config.embedding.provider).toBe('none');
  });

  it('names the variable when an override is wrong', () => {
    expect(errorOf(() => load({ env: { ENGRAM_MEMORY__RECALL__LIMIT: 'many' } })).message).toBe(
      'ENGRAM_MEMORY__RECALL__LIMIT: memory.recall.limit must be a whole number',
    );
    expect(errorOf(() => load({ env: { ENGRAM_MEMORY__RECALL__LIMITT: '3' } })).message).toMatch(
      /^ENGRAM_MEMORY__RECALL__LIMITT: unknown key memory\.recall\.limitt/,
    );
  });

  it('leaves option variables such as ENGRAM_DB alone', () => {
    expect(() => load({ env: { ENGRAM_DB: '/tmp/x.db', ENGRAM_TOKEN: 'secret' } })).not.toThrow();
  });
});
