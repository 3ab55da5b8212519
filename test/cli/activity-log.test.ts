/**
 * `engram log` shows every write made from the shell, as real child processes on one SQLite
 * file: each `engram add` is a line, and so are forget, restore and a change to the graph.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { LEXICAL, makeTempDir, runJson, runOk } from './helpers.js';

/** Adds from the shell, one process each (before the fix, the log held none of them). */
const ADDS = 6;

describe('engram log', () => {
  let dir: string;
  let remove: () => void;
  const run = () => ({ cwd: dir, env: LEXICAL });

  beforeEach(() => ({ dir, remove } = makeTempDir()));
  afterEach(() => remove());

  it('shows a line for each of several adds, and for forget, restore and a graph change', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= ADDS; i++) {
      ids.push(
        (await runJson<{ id: string }>(['add', `Fact number ${i} about the billing service`, '--kind', 'fact'], run())).id,
      );
    }
    await runOk(['forget', ids[0] as string], run());
    await runOk(['restore', ids[0] as string], run());
    await runOk(['graph', 'add', 'Billing', '--type', 'project'], run());

    const lines = (await runOk(['log'], run())).trimEnd().split('\n');
    expect(lines).toHaveLength(ADDS + 3);
    for (const [i, line] of lines.slice(0, ADDS).entries()) {
      expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d  remember  fact: Fact number ${i + 1} about the billing service$`));
    }
    expect(lines.slice(ADDS).map((line) => line.slice(10))).toEqual([
      'forget  archived: Fact number 1 about the billing service',
      'restore  restored: Fact number 1 about the billing service',
      'create_entities  created 1 entity: Billing',
    ]);
    const json = await runJson<{ action: string; memoryId: string | null }[]>(['log'], run());
    expect(json.slice(0, ADDS).map((line) => line.memoryId)).toEqual(ids);
    // A dozen processes: room for a busy machine.
  }, 120_000);
});
