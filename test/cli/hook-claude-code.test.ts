/**
 * `engram hook claude-code` as Claude Code runs it: a real child process per event, the event
 * JSON (in the shapes of the hooks reference) on stdin, the real local model. Each event gives
 * its hook output; malformed input gives one line on stderr, a non-blocking exit code (not 2)
 * and leaves the database as it was.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import {
  childEnv,
  CLI,
  type CliResult,
  copyDatabase,
  dbIn,
  expectOneLineError,
  makeTempDir,
  runCli,
  runOk,
  syntheticRecord,
} from './helpers.js';

const SESSION = '00893aaf-19fa-41d2-8238-13269b9b3ca0';

/** Fields every event carries, as Claude Code sends them. */
function common(dir: string, transcript = path.join(dir, 'transcript.jsonl')) {
  return { session_id: SESSION, transcript_path: transcript, cwd: dir, permission_mode: 'default' };
}

/** A Claude Code transcript: per step, the assistant's text and its tool call. */
function writeTranscript(file: string, steps: readonly { text: string; toolUseId: string }[]): void {
  const lines = steps.flatMap(({ text, toolUseId }, i) => [
    JSON.stringify({ type: 'assistant', message: { id: `msg_${i}`, role: 'assistant', content: [{ type: 'text', text }] } }),
    JSON.stringify({
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        content: [{ type: 'tool_use', id: toolUseId, name: 'Bash', input: { command: 'ls' } }],
      },
    }),
    JSON.stringify({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: 'ok' }] },
    }),
  ]);
  writeFileSync(file, `${lines.join('\n')}\n`);
}

function postToolUse(dir: string, toolUseId: string) {
  return {
    ...common(dir),
    hook_event_name: 'PostToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls', description: 'List files' },
    tool_response: { stdout: 'backup.sh\n', stderr: '', interrupted: false, isImage: false },
    tool_use_id: toolUseId,
  };
}

/** Every row of every table, and the file's size: what "the database is unchanged" means. */
function snapshot(file: string): unknown {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .pluck()
      .all() as string[];
    const rows = Object.fromEntries(
      tables.filter((name) => !name.includes('vec')).map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]),
    );
    return rows;
  } finally {
    db.close();
  }
}

function sessionRecord(file: string): { turn: number; toolOnlyTurns: number; endedAt: string | null } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const body = db.prepare('SELECT body FROM sessions WHERE id = ?').pluck().get(SESSION) as string;
    return JSON.parse(body) as { turn: number; toolOnlyTurns: number; endedAt: string | null };
  } finally {
    db.close();
  }
}

/** The hook output JSON, checked to be exactly one object with the additional context. */
function contextOf(result: CliResult, event: string): string {
  expect(result.stderr, result.stderr).toBe('');
  expect(result.code).toBe(0);
  const output = JSON.parse(result.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(Object.keys(output)).toEqual(['hookSpecificOutput']);
  expect(Object.keys(output.hookSpecificOutput)).toEqual(['hookEventName', 'additionalContext']);
  expect(output.hookSpecificOutput.hookEventName).toBe(event);
  return output.hookSpecificOutput.additionalContext;
}

/**
 * Four memories, imported in one process with the real local model into a database that every
 * test copies (see `seed`): one model load for the seeding of the whole file.
 */
let seeded: ReturnType<typeof makeTempDir>;
beforeAll(async () => {
  seeded = makeTempDir();
  const memories: [string, string, string][] = [
    ['Never deploy to production on Fridays', 'constraint', 'must'],
    ['The billing service stores invoices in PostgreSQL 16', 'fact', 'nice'],
    ['The nightly backup job runs at 02:00 UTC and copies the database to the backups bucket', 'fact', 'unknown'],
    ['Alice likes her coffee black', 'preference', 'nice'],
  ];
  const file = path.join(seeded.dir, 'memories.jsonl');
  writeFileSync(
    file,
    memories.map(([text, kind, tier], i) => JSON.stringify(syntheticRecord(i, { text, kind, tier, tags: [] }))).join('\n'),
  );
  await runOk(['import', file, '--db', dbIn(seeded.dir)], { cwd: seeded.dir });
});
afterAll(() => seeded.remove());

/** Puts the four seeded memories in `db`. */
function seed(db: string): void {
  copyDatabase(dbIn(seeded.dir), db);
}

function expectNoOutput(result: CliResult): void {
  expect(result.stderr, result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(result.stdout).toBe('');
}

describe('engram hook claude-code', () => {
  let dir: string;
  let remove: () => void;
  let db: string;
  beforeEach(() => {
    ({ dir, remove } = makeTempDir());
    db = dbIn(dir);
  });
  afterEach(() => remove());

  const hook = (event: unknown, extra: readonly string[] = []) =>
    runCli(['hook', 'claude-code', '--db', db, ...extra], { cwd: dir, input: JSON.stringify(event) });

  it('gives a new session the handoff note and the working set on SessionStart', async () => {
    seed(db);
    await runOk(['handoff', 'Invoices migrated; next: switch the export to UTF-8', '--db', db], { cwd: dir });

    const context = contextOf(
      await hook({ ...common(dir), hook_event_name: 'SessionStart', source: 'startup', model: 'claude-sonnet-4-5' }),
      'SessionStart',
    );

    expect(context).toMatch(/^Handoff note from the previous session \(.+ UTC\):\n> Invoices migrated; next: switch the export/);
    expect(context).toContain('Working set: standing context for global');
    expect(context).toContain('- Constraint: Never deploy to production on Fridays');
  });

  it('adds nothing on SessionStart when there is nothing to carry over', async () => {
    expectNoOutput(await hook({ ...common(dir), hook_event_name: 'SessionStart', source: 'startup' }));
  });

  it('answers UserPromptSubmit with active recall: the relevant memory, labelled as retrieved', async () => {
    seed(db);

    const context = contextOf(
      await hook({ ...common(dir), hook_event_name: 'UserPromptSubmit', prompt: 'Which database holds the billing invoices?' }),
      'UserPromptSubmit',
    );

    expect(context).toMatch(/^<engram-memories>\nRetrieved by Engram from long-term memory/);
    expect(context).toContain('The billing service stores invoices in PostgreSQL 16');
    expect(context).not.toContain('coffee');
    expect(context).toMatch(/<\/engram-memories>$/);
    expect(sessionRecord(db).turn).toBe(1);
  });

  it('nudges on the fifth tool-only step, with memories related to what the assistant said', async () => {
    seed(db);
    const transcript = path.join(dir, 'transcript.jsonl');
    writeTranscript(
      transcript,
      ['Checking why the nightly backup failed.', 'The backup job log shows a timeout.', 'Looking at when the backup runs.']
        .concat(['Reading the backup script.', 'Checking the backup bucket.'])
        .map((text, i) => ({ text, toolUseId: `toolu_${i}` })),
    );

    const outputs: CliResult[] = [];
    for (let i = 0; i < 5; i++) outputs.push(await hook(postToolUse(dir, `toolu_${i}`)));

    for (const result of outputs.slice(0, 4)) expectNoOutput(result);
    const nudge = contextOf(outputs[4] as CliResult, 'PostToolUse');
    expect(nudge).toMatch(/^You've been using tools for a while\. Pause and reflect on what you've learned so far\./);
    expect(nudge).toContain('These memories seem related to what you are doing.');
    expect(nudge).toMatch(/- \[fact · \d{4}-\d{2}-\d{2} · user\] "The nightly backup job runs at 02:00 UTC/);
    expect(sessionRecord(db).toolOnlyTurns).toBe(0);
  });

  it('counts the tool calls of one model step once, and a Stop ends the run of tool-only steps', async () => {
    const transcript = path.join(dir, 'transcript.jsonl');
    writeTranscript(transcript, [{ text: 'Reading two files at once.', toolUseId: 'toolu_a' }]);
    // The step's second, parallel call: same message as toolu_a.
    writeFileSync(
      transcript,
      `${JSON.stringify({ type: 'assistant', message: { id: 'msg_0', content: [{ type: 'tool_use', id: 'toolu_b', name: 'Read', input: {} }] } })}\n`,
      { flag: 'a' },
    );

    expectNoOutput(await hook(postToolUse(dir, 'toolu_a')));
    expectNoOutput(await hook(postToolUse(dir, 'toolu_b')));
    expect(sessionRecord(db).toolOnlyTurns).toBe(1);

    // Without a transcript entry, every call is a step.
    for (const id of ['toolu_x', 'toolu_y', 'toolu_z']) expectNoOutput(await hook(postToolUse(dir, id)));
    expect(sessionRecord(db).toolOnlyTurns).toBe(4);
    expectNoOutput(
      await hook({
        ...common(dir),
        hook_event_name: 'Stop',
        stop_hook_active: false,
        last_assistant_message: 'Both files read.',
      }),
    );
    expect(sessionRecord(db).toolOnlyTurns).toBe(0);
    expectNoOutput(await hook(postToolUse(dir, 'toolu_w')));
  });

  it('marks the session ended on SessionEnd', async () => {
    expectNoOutput(await hook({ ...common(dir), hook_event_name: 'SessionStart', source: 'startup' }));
    expect(sessionRecord(db).endedAt).toBeNull();

    expectNoOutput(await hook({ ...common(dir), hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }));

    expect(sessionRecord(db).endedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('answers without waiting for stdin to close', async () => {
    // Some Claude Code versions keep the hook's stdin open; the event is complete once it parses.
    const child = spawn(process.execPath, [CLI, 'hook', 'claude-code', '--db', db], {
      cwd: dir,
      env: childEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.write(JSON.stringify({ ...common(dir), hook_event_name: 'SessionEnd', reason: 'other' }));

    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();

    expect(code).toBe(0);
    expect(sessionRecord(db).endedAt).not.toBeNull();
  });
});

describe('engram hook claude-code with malformed input', () => {
  let dir: string;
  let remove: () => void;
  let db: string;
  let before: unknown;
  beforeAll(async () => {
    ({ dir, remove } = makeTempDir());
    db = dbIn(dir);
    seed(db);
    await runOk(['hook', 'claude-code', '--db', db], {
      cwd: dir,
      input: JSON.stringify({
        ...common(dir),
        hook_event_name: 'UserPromptSubmit',
        prompt: 'Which database holds the invoices?',
      }),
    });
    before = snapshot(db);
  });
  afterAll(() => remove());

  const MALFORMED: readonly [string, string, RegExp][] = [
    ['not JSON', '{"session_id": "s1", "hook_event_name": ', /input is not JSON/],
    ['empty', '', /got no input/],
    ['not an object', '["SessionStart"]', /must be a JSON object/],
    ['an unknown event', '{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash"}', /got PreToolUse/],
    ['a field of the wrong type', '{"session_id":"s1","hook_event_name":"UserPromptSubmit","prompt":["hi"]}', /prompt:/],
    ['no session id', '{"hook_event_name":"SessionStart","source":"startup"}', /session_id/],
  ];

  it.each(MALFORMED)('%s: one line on stderr, a non-blocking exit, the database unchanged', async (_name, input, message) => {
    const result = await runCli(['hook', 'claude-code', '--db', db], { cwd: dir, input });

    expectOneLineError(result, message);
    expect(result.code).not.toBe(2); // exit 2 would block the prompt, or stop Claude from stopping
    expect(result.stdout).toBe('');
    expect(snapshot(db)).toEqual(before);
  });

  it('does not create a database', async () => {
    const missing = path.join(dir, 'missing.db');

    const result = await runCli(['hook', 'claude-code', '--db', missing], { cwd: dir, input: 'garbage' });

    expectOneLineError(result, /input is not JSON/);
    expect(result.code).toBe(1);
    expect(existsSync(missing)).toBe(false);
  });
});
