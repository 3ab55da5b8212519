/**
 * An import is one transaction: killing the process with SIGKILL at any moment leaves an
 * intact database holding either none or all of the file's records, never part of them.
 */
import { once } from 'node:events';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { checkDatabase, dbIn, LEXICAL, makeTempDir, runJson, runOk, spawnCli, writeSyntheticJsonl } from './helpers.js';

const RECORDS = 40_000;

/** When to kill: a stderr line that starts the clock, then a delay. */
interface Moment {
  name: string;
  trigger: RegExp;
  delayMs: number;
}

const MOMENTS: Moment[] = [
  { name: 'as soon as the first progress line appears', trigger: /^\w+ \d+\/\d+/m, delayMs: 0 },
  { name: '300 ms into the writing phase', trigger: /^writing /m, delayMs: 300 },
  { name: '1 s into the writing phase', trigger: /^writing /m, delayMs: 1000 },
  // Past the commit: the process may already have exited, and the records must all be there.
  { name: 'as soon as the writing phase reports 100%', trigger: /^writing (\d+)\/\1 /m, delayMs: 0 },
];

/**
 * Runs `engram import --progress` and sends SIGKILL `delayMs` after `trigger` first matches
 * its standard error. Resolves to whether the kill landed before the process finished.
 */
async function importAndKill(file: string, db: string, cwd: string, { trigger, delayMs }: Moment): Promise<boolean> {
  const child = spawnCli(['import', file, '--progress', '--db', db], { cwd, env: LEXICAL });
  let stderr = '';
  let armed = false;
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    if (armed || !trigger.test(stderr)) return;
    armed = true;
    setTimeout(() => child.kill('SIGKILL'), delayMs);
  });
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  expect(armed, `the trigger never appeared; exit ${code}, stderr: ${stderr}`).toBe(true);
  if (signal === null) expect(code, stderr).toBe(0);
  return signal === 'SIGKILL';
}

describe('killing an import with SIGKILL', () => {
  let dir: string;
  let remove: () => void;
  let file: string;
  const run = () => ({ cwd: dir, env: LEXICAL });

  beforeAll(() => {
    ({ dir, remove } = makeTempDir());
    file = path.join(dir, 'large.jsonl');
    writeSyntheticJsonl(file, RECORDS);
  });
  afterAll(() => remove());

  it('leaves an intact database with none or all of the records, and a clean run then imports everything', async () => {
    const killedMidway: string[] = [];
    const untouched: string[] = [];
    for (const [index, moment] of MOMENTS.entries()) {
      const db = dbIn(dir, `crash-${index}.db`);
      await runOk(['add', 'A memory that was there before the import', '--db', db], run());
      const before = checkDatabase(db).memories;
      expect(before).toBe(1);

      if (await importAndKill(file, db, dir, moment)) killedMidway.push(moment.name);

      const after = checkDatabase(db);
      expect(after.integrity, moment.name).toBe('ok');
      expect([before, before + RECORDS], `${moment.name}: ${after.memories} memories`).toContain(after.memories);
      if (after.memories === before) untouched.push(db);
    }
    // At least the kill on the first progress line must have landed while the import ran.
    expect(killedMidway).toContain(MOMENTS[0]?.name);

    const db = untouched[0] as string;
    expect(db).toBeDefined();
    const summary = await runJson<{ read: number; imported: number; skipped: number }>(['import', file, '--db', db], run());
    expect(summary).toMatchObject({ read: RECORDS, imported: RECORDS, skipped: 0 });
    expect(checkDatabase(db)).toEqual({ integrity: 'ok', memories: 1 + RECORDS });
    const stats = await runJson<{ memories: number }>(['stats', '--db', db], run());
    expect(stats.memories).toBe(1 + RECORDS);
  }, 180_000);
});
