/** `npm run tour`'s scripted tour, run as a real child process (`npm start` serves; see test/http). */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

const tour = path.resolve(import.meta.dirname, '../dist/surfaces/demo/tour.js');

describe('npm run tour', () => {
  it('stores, recalls, supersedes and forgets in a throwaway database, then deletes it', () => {
    const result = spawnSync(process.execPath, [tour], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/\? which database does billing use\?\n\s+→ We chose PostgreSQL for billing/);
    expect(out).toMatch(/\? can I release this on Friday afternoon\?\n\s+→ Never deploy on Fridays/);
    expect(out).toMatch(/search now answers: "The staging cluster now restarts at 04:00 UTC"/);
    expect(out).toMatch(/found by search: no; in the export: yes/);
    const directory = /a throwaway database in (\S+)/.exec(out)?.[1];
    expect(directory).toBeDefined();
    expect(existsSync(directory as string)).toBe(false);
  });
});
