/**
 * The worked example (examples/agent-loop.ts) as a real child process, and the handoff across
 * processes: a note written by session 1 in one process is the first section of session 2's
 * context in the next.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { childEnv } from './cli/helpers.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
const dist = (file: string) => JSON.stringify(path.join(root, 'dist', file));

describe('the worked agent loop', () => {
  it('writes a memory and a handoff in session 1, recalls them in session 2, and nudges in a long tool loop', async () => {
    const { stdout } = await run(tsx, [path.join(root, 'examples', 'agent-loop.ts')], { cwd: root, env: childEnv() });

    expect(stdout).toContain(
      'tools offered to the model: search_memory, write_memory, write_session_handoff, scratch_note, think',
    );
    expect(stdout).toMatch(/\[session 2 starts with handoff[^\]]*\]\nHandoff note from the previous session/);
    expect(stdout).toMatch(
      /\[active recall for [^\]]+\]\n<engram-memories>[\s\S]*The billing service stores invoices in PostgreSQL 16\./,
    );
    expect(stdout).toMatch(/\[nudge for the model\]\nYou've been using tools for a while[\s\S]*"The merge loop can stall/);
    // the thought was stored, but the user never sees it
    const seen = /\[session 1: the user saw\]\n([\s\S]*?)\n\n/.exec(stdout)?.[1] ?? '';
    expect(seen).toBe('Noted: billing uses PostgreSQL 16.\nBye for now!');
    expect(seen).not.toContain('check the invoice export');
  });
});

describe('the handoff across processes', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'engram-handoff-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  const node = (script: string) =>
    run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: directory,
      env: childEnv({ ENGRAM_EMBEDDING__PROVIDER: 'none' }),
    });

  it('puts the note session 1 wrote first in session 2’s context, in a new process', async () => {
    await node(`
      import { openEngram } from ${dist('index.js')};
      const engram = await openEngram();
      const session = engram.session({ id: 'one', scope: 'project:x' });
      await engram.remember({ text: 'Never deploy on Fridays', kind: 'constraint', tier: 'must', scope: 'project:x' });
      const handoff = session.tools().find((tool) => tool.name === 'write_session_handoff');
      await handoff.execute({ content: 'Stopped after the schema migration; the export is next.' });
      await session.end();
      await engram.close();
    `);
    const { stdout } = await node(`
      import { openEngram } from ${dist('index.js')};
      const engram = await openEngram();
      const start = await engram.session({ id: 'two', scope: 'project:x' }).start();
      console.log(JSON.stringify(start.sections.map((s) => [s.name, s.text])));
      await engram.close();
    `);

    const sections = JSON.parse(stdout) as [string, string][];
    expect(sections.map(([name]) => name)).toEqual(['handoff', 'working_set']);
    expect(sections[0]?.[1]).toContain('Stopped after the schema migration; the export is next.');
  });
});
