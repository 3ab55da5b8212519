/**
 * What the package exports is a decision, reviewed as a diff: api/engram-api.md records every
 * entry's names and declarations (scripts/api-report.mjs, from the built .d.ts files; `npm test`
 * builds dist/ before it runs), and this test fails when the built package says otherwise.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { buildApiReport, describeDifference, REPORT_FILE } from '../scripts/lib/api-report.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const kept = readFileSync(path.join(root, REPORT_FILE), 'utf8');

describe('the API report', () => {
  let built: string;
  beforeAll(async () => {
    built = await buildApiReport(root);
  }, 120_000);

  it('records exactly what the built package exports', () => {
    // The message lists the lines that differ and says how to accept a deliberate change.
    expect(describeDifference(kept, built)).toBeNull();
  });

  it('fails on an export the report does not record, saying how to accept it', () => {
    // The report without openEngram: as if the build had gained an export.
    expect(kept).toMatch(/^function openEngram\(/m);
    const message = describeDifference(kept.replace(/^function openEngram\(.*\n/m, ''), built);
    expect(message).toContain('+ function openEngram(');
    expect(message).toContain('run `npm run api-report` and commit api/engram-api.md');
  });

  it('lists every entry of package.json in its table', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'engram' : `engram/${subpath.slice(2)}`));
    for (const entry of entries) expect(kept).toMatch(new RegExp(`^\\| \`${entry}\` +\\|`, 'm'));
  });
});
