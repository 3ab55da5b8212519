/**
 * Where the database lives: `.engram/engram.db` under the working directory by default, the
 * `ENGRAM_DB` variable or `--db` otherwise, with `--db` winning.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { checkDatabase, type ExportedMemory, LEXICAL, makeTempDir, runJson, runOk } from './helpers.js';

describe('the database location', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('creates .engram/engram.db in the working directory on the first add', async () => {
    await runOk(['add', 'We chose PostgreSQL for billing'], { cwd: dir, env: LEXICAL });
    expect(readdirSync(dir)).toEqual(['.engram']);
    expect(checkDatabase(path.join(dir, '.engram', 'engram.db'))).toEqual({ integrity: 'ok', memories: 1 });
  });

  it('uses ENGRAM_DB when no --db is given, and --db over ENGRAM_DB', async () => {
    const env = { ...LEXICAL, ENGRAM_DB: 'from-env.db' };
    const memory = await runJson<ExportedMemory>(['add', 'Deploys happen on Tuesdays'], { cwd: dir, env });
    await runOk(['add', 'Alice prefers short answers', '--db', 'from-flag.db'], { cwd: dir, env });

    expect(existsSync(path.join(dir, '.engram'))).toBe(false);
    expect((await runJson<ExportedMemory[]>(['list'], { cwd: dir, env })).map((m) => m.id)).toEqual([memory.id]);
    expect(checkDatabase(path.join(dir, 'from-flag.db')).memories).toBe(1);
  });
});
