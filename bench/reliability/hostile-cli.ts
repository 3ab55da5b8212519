/**
 * Hostile input for the one-shot processes: `engram <command>` with hostile arguments and
 * options, `engram import` with JSON Lines files that mix good lines with hostile ones, and
 * `engram hook claude-code` with hostile events on stdin. Each input is a real process. Lanes
 * run side by side, each on its own database, so a refused command can still be held to what
 * its database stores (every memory and the graph): unchanged. A failure must exit 1 with an `engram:` line (a hook
 * exit code of 2 would block the agent, so it counts as a failure too).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { findLeak, hasEngramLine } from './answer-checks.js';
import { emptyFigures, recordProblem, type SurfaceFigures } from './hostile-figures.js';
import { deeplyNested, hostileId, hostileString, hostileValue } from './hostile-values.js';
import { childEnv, killHard, LEXICAL_ENV, startCli } from './processes.js';
import { between, pickOne, type Random, seededRandom } from './seeded.js';
import { checkStoredAfter, fingerprintStore, seedDatabase, snapshotMemories } from './stored-snapshot.js';

const ANSWER_MS = 30_000;

export interface OneShotOptions {
  /** CLI processes (import files count their lines, not the process). */
  cliCount: number;
  /** JSON Lines across the import files. */
  importLines: number;
  hookCount: number;
  seed: number;
  /** Processes run side by side, each lane on its own database. @default 3 */
  lanes?: number;
}

type Job = { kind: 'cli' | 'import' | 'hook'; args: string[]; input: string; weight: number };

export async function fuzzOneShot(options: OneShotOptions): Promise<SurfaceFigures[]> {
  const { cliCount, importLines, hookCount, seed, lanes = 3 } = options;
  const random = seededRandom(seed);
  const figures = { cli: emptyFigures('cli'), import: emptyFigures('import'), hook: emptyFigures('hook') };
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-hostile-cli-'));
  try {
    const jobs: Job[] = [];
    for (let i = 0; i < cliCount; i++) jobs.push(cliJob(random, directory));
    for (let lines = 0; lines < importLines;) {
      const job = importJob(random, directory, jobs.length);
      jobs.push(job);
      lines += job.weight;
    }
    for (let i = 0; i < hookCount; i++) jobs.push(hookJob(random, directory));
    shuffle(random, jobs);
    await Promise.all(
      Array.from({ length: lanes }, (_, lane) =>
        runLane(
          lane,
          jobs.filter((_, index) => index % lanes === lane),
          directory,
          figures,
        ),
      ),
    );
    return [figures.cli, figures.import, figures.hook];
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function runLane(
  lane: number,
  jobs: readonly Job[],
  directory: string,
  figures: Record<Job['kind'], SurfaceFigures>,
): Promise<void> {
  const file = path.join(directory, `lane-${lane}.db`);
  const seeded = await seedDatabase(file);
  const seededBefore = await snapshotMemories(file, seeded);
  const touched = new Set<string>();
  const env = childEnv(LEXICAL_ENV);
  const stored = fingerprintStore(file);
  try {
    for (const job of jobs) {
      const target = figures[job.kind];
      const before = await stored.read();
      const running = startCli([...job.args, '--db', file], env, { input: job.input });
      const timer = setTimeout(() => void killHard(running), ANSWER_MS);
      const finished = await running.done;
      clearTimeout(timer);
      target.inputs += job.weight;
      const label = `${job.args.join(' ').slice(0, 160)}${job.input ? ` <<< ${job.input.slice(0, 120)}` : ''}`;
      if (finished.signal !== null) {
        recordProblem(target, finished.signal === 'SIGKILL' ? 'hangs' : 'crashes', `${label}: ${finished.signal}`);
        continue;
      }
      const leak = findLeak(`${finished.stdout}\n${finished.stderr}`, []);
      if (leak) recordProblem(target, 'leaks', `${label}: the output holds ${leak}: ${finished.stderr.slice(0, 300)}`);
      if (finished.code === 0) {
        target.accepted += job.weight;
        for (const id of seeded) if (job.args.includes(id)) touched.add(id);
        if (job.kind === 'hook' && finished.stdout.trim() !== '' && !isJson(finished.stdout))
          recordProblem(
            target,
            'badErrors',
            `${label}: the hook printed something other than JSON: ${finished.stdout.slice(0, 200)}`,
          );
        continue;
      }
      target.refused += job.weight;
      if (finished.code !== 1)
        recordProblem(target, 'serverErrors', `${label}: exit code ${finished.code}: ${finished.stderr.slice(0, 200)}`);
      if (!hasEngramLine(finished.stderr))
        recordProblem(target, 'badErrors', `${label}: no engram: line in ${JSON.stringify(finished.stderr.slice(0, 200))}`);
      if ((await stored.read()) !== before) recordProblem(target, 'refusedChanges', `${label} exited ${finished.code}`);
    }
  } finally {
    await stored.close();
  }
  // The seeded memories are checked once per lane, against the surface most likely to touch them.
  await checkStoredAfter(figures.cli, file, seededBefore, touched);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** An argument as a process can take it: no NUL (the operating system ends the string there), under 128 KiB. */
function arg(text: string): string {
  return text.replace(/\0/g, '\\0').slice(0, 30_000);
}

const COMMANDS: readonly ((random: Random, directory: string) => string[])[] = [
  (random) => [
    'add',
    arg(hostileString(random)),
    ...options(random, ['--kind', '--tier', '--scope', '--tags', '--key', '--pinned']),
  ],
  (random) => ['search', arg(hostileString(random)) || 'x', ...options(random, ['--limit', '--scope', '--kind', '--mode'])],
  (random) => ['list', ...options(random, ['--limit', '--offset', '--scope', '--kind', '--tier', '--order', '--all'])],
  (random) => ['show', arg(hostileId(random))],
  (random) => ['forget', arg(hostileId(random)), ...options(random, ['--hard'])],
  () => ['stats'],
  (random) => ['recall', arg(hostileString(random)) || 'x', ...options(random, ['--session', '--scope'])],
  (random) => ['receipts', ...options(random, ['--session', '--turn', '--limit'])],
  (random) => [
    'note',
    arg(hostileString(random)) || 'k',
    arg(hostileString(random)),
    ...options(random, ['--scope', '--append']),
  ],
  (random) => ['handoff', arg(hostileString(random)), ...options(random, ['--scope'])],
  (random) => ['scratch', arg(hostileString(random)), ...options(random, ['--append', '--clear', '--scope'])],
  (random) => ['log', ...options(random, ['--date', '--limit'])],
  (random) => ['solution', 'add', ...options(random, ['--goal', '--approach', '--outcome', '--confidence', '--failed'])],
  (random) => ['solution', 'recall', arg(hostileString(random)) || 'x', ...options(random, ['--similarity', '--threshold'])],
  (random) => ['graph', pickOne(random, ['add', 'show', 'search', 'delete', 'observe']), arg(hostileString(random)) || 'x'],
  (random) => [
    'graph',
    pickOne(random, ['relate', 'unrelate']),
    arg(hostileString(random)) || 'a',
    arg(hostileString(random)) || 'b',
    'c',
  ],
  (random, directory) => ['export', pickOne(random, [path.join(directory, 'export.jsonl'), '/', '/proc/version', directory, ''])],
  (random, directory) => [
    'backup',
    pickOne(random, [directory, '/', '/proc/x', path.join(directory, 'no', 'such', 'dir', 'b.db'), '']),
  ],
  (random) => [arg(hostileString(random)) || 'nope'],
  (random) => ['add', ...options(random, ['--bogus', '--kind', '--limit'])],
];

/** A few options from `names`, each with a valid-looking or hostile value. */
function options(random: Random, names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = between(random, 0, 3); i > 0; i--) {
    const name = pickOne(random, names);
    const value = pickOne(random, [
      '-1',
      '0',
      '3',
      '1e999',
      'abc',
      'must',
      'fact',
      'global',
      'newest',
      '2026-13-45',
      '',
      arg(hostileString(random)),
    ]);
    out.push(random() < 0.8 ? name : `${name}=${value}`, value);
  }
  if (random() < 0.3) out.push('--json');
  return out;
}

function cliJob(random: Random, directory: string): Job {
  return { kind: 'cli', args: pickOne(random, COMMANDS)(random, directory), input: '', weight: 1 };
}

/** A JSON Lines file of 5 to 40 lines, good ones (fresh text) mixed with hostile ones. */
function importJob(random: Random, directory: string, index: number): Job {
  const lines: string[] = [];
  // One file in four is all good lines, so imports succeed too; elsewhere good lines carry hostile text.
  const clean = random() < 0.25;
  for (let i = between(random, 5, 40); i > 0; i--) {
    const roll = clean ? random() * 0.55 : random();
    if (roll < 0.55) {
      const text = `imported note ${index}.${i}: ${pickOne(random, ['billing', 'deploys', 'Paris'])}`;
      lines.push(
        JSON.stringify(exportedRecord(`${index}x${i}`, clean ? text : `${text} ${hostileString(random).slice(0, 200)}`)),
      );
    } else if (roll < 0.75)
      lines.push(
        JSON.stringify({
          text: hostileString(random),
          kind: hostileValue(random, 0),
          tier: hostileValue(random, 0),
          id: hostileValue(random, 0),
        }),
      );
    else if (roll < 0.85) lines.push(JSON.stringify(hostileValue(random, 3)) ?? '');
    else if (roll < 0.92)
      lines.push(pickOne(random, ['{', '{"text":"a"', '\u0000', '[', 'null', '"text"', '{"text":"a"}{"text":"b"}']));
    else lines.push(deeplyNested(random, pickOne(random, [100, 10_000])));
  }
  const file = path.join(directory, `import-${index}.jsonl`);
  writeFileSync(file, `${lines.join(random() < 0.1 ? '\r\n' : '\n')}\n`);
  return { kind: 'import', args: ['import', file, ...(random() < 0.3 ? ['--replace'] : [])], input: '', weight: lines.length };
}

/** A memory as `engram export` writes it, with an id unique to this line. */
function exportedRecord(serial: string, text: string): Record<string, unknown> {
  const at = '2026-01-02T03:04:05.000Z';
  const id = `01JX${serial
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, 'Z')
    .padStart(22, '0')}`.slice(0, 26);
  return {
    ...{ id, tenant: 'default', scope: 'global', kind: 'note', tier: 'unknown', pinned: false, hardRule: false, text },
    ...{ abstract: null, context: null, key: null, sessionId: null, source: 'import', trust: 1, data: null, tags: [] },
    ...{
      occurredAt: at,
      createdAt: at,
      updatedAt: at,
      supersededBy: null,
      archivedAt: null,
      lastRetrievedAt: null,
      retrievalCount: 0,
    },
  };
}

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd', 'PreToolUse', 'Notification'];

/** A Claude Code hook event, mostly well formed with hostile fields, sometimes not JSON at all. */
function hookJob(random: Random, directory: string): Job {
  const roll = random();
  let input: string;
  if (roll < 0.7) {
    const event: Record<string, unknown> = {
      session_id: random() < 0.7 ? `s${between(random, 1, 5)}` : hostileValue(random, 0),
      hook_event_name: random() < 0.85 ? pickOne(random, EVENTS) : hostileValue(random, 0),
    };
    if (random() < 0.7) event.prompt = random() < 0.8 ? hostileString(random) : hostileValue(random, 2);
    if (random() < 0.4) event.tool_name = hostileString(random);
    if (random() < 0.4) event.tool_input = hostileValue(random, 2);
    if (random() < 0.3) event.tool_response = hostileValue(random, 2);
    if (random() < 0.4)
      event.transcript_path = pickOne(random, [
        '/etc/passwd',
        '/dev/zero',
        '/dev/null',
        directory,
        '/proc/self/environ',
        '../../x',
        hostileString(random),
      ]);
    if (random() < 0.3) event.cwd = hostileString(random);
    if (random() < 0.2) event.source = hostileValue(random, 0);
    input = JSON.stringify(event);
  } else if (roll < 0.85) input = JSON.stringify(hostileValue(random, 3)) ?? '';
  else if (roll < 0.95)
    input = pickOne(random, ['', '{', 'not json', '\u0000\u0000', '[]', 'null', deeplyNested(random, 10_000)]);
  else
    input = JSON.stringify({
      session_id: 's1',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'x'.repeat(between(random, 100_000, 3_000_000)),
    });
  const args = ['hook', 'claude-code', ...(random() < 0.2 ? ['--scope', arg(hostileString(random)) || 'x'] : [])];
  return { kind: 'hook', args, input, weight: 1 };
}

function shuffle<T>(random: Random, items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
