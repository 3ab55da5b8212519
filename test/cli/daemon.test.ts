/**
 * The resident process as real child processes on a real Unix socket: the first hook call does
 * its own work and starts one, later calls are answered by it with the same output, there is
 * one per database file whatever the callers' settings (each request runs with its own), a
 * process that died is replaced, an idle one or one whose database is gone exits by itself, the
 * socket is private to the user, `engram daemon status|stop [--all]` list and end them, and it
 * stays off when the configuration says so.
 */
import {
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, LEXICAL, makeTempDir, residentEnv, runCli, runJson, runOk } from './helpers.js';

/** One resident process as `engram daemon status --json` lists it. */
interface Resident {
  pid: number;
  db: string;
  config: string | null;
  startedAt: string;
  requests: number;
  idleSeconds: number;
  idleExitAt: string;
  rssBytes: number;
  uptimeSeconds: number;
}

const HANDOFF = 'Billing export switched to UTF-8; next: rotate the staging keys.';
const START = JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' });
const NONE_RUNNING = 'no resident process is running (hooks and engram recall start one for their database on first use)\n';

/** Whether process `pid` exists (and is not a zombie waiting for its parent). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc: the signal is the answer
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the resident process', () => {
  let dir: string;
  let remove: () => void;
  const env = (extra: Record<string, string> = {}) => residentEnv(dir, extra);
  const run = (extra: Record<string, string> = {}) => ({ cwd: dir, env: env(extra) });
  const hook = (input: string, extra: Record<string, string> = {}, args: string[] = []) =>
    runCli([...args, 'hook', 'claude-code'], { ...run(extra), input });
  const residents = async () => (await runJson<{ residents: Resident[] }>(['daemon', 'status'], run())).residents;
  const db = () => path.join(dir, '.engram', 'engram.db');

  const socketDir = () => path.join(dir, 'run', `engram-${process.getuid?.()}`);
  /** How many resident processes have said they listen: each writes a `.json` beside its socket, and removes it on exit. */
  const infoFiles = () => {
    try {
      return readdirSync(socketDir()).filter((name) => name.endsWith('.json')).length;
    } catch {
      return 0; // no directory yet
    }
  };

  /**
   * Polls until the resident processes are as expected (they start in the background). With
   * `files`, it first waits for that many info files, a look at the folder instead of a CLI
   * process per look: only a hint (one of a killed process stays behind), the CLI decides.
   */
  async function waitUntil(check: (list: Resident[]) => boolean, files?: number): Promise<Resident[]> {
    // By the clock, not by the pauses: each look is a CLI process of its own, slow on a loaded machine.
    const deadline = Date.now() + 30_000;
    while (files !== undefined && infoFiles() !== files && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (;;) {
      const current = await residents();
      if (check(current)) return current;
      if (Date.now() > deadline) throw new Error('the resident processes did not reach the expected state within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const oneRunning = async () => (await waitUntil((list) => list.length === 1, 1))[0] as Resident;

  // One database with the handoff note, written once by the CLI; each test starts from a copy.
  let seeded: { dir: string; remove: () => void };
  beforeAll(async () => {
    seeded = makeTempDir();
    await runOk(['handoff', HANDOFF], { cwd: seeded.dir, env: LEXICAL });
  });
  afterAll(() => seeded.remove());

  beforeEach(() => {
    ({ dir, remove } = makeTempDir());
    dir = realpathSync(dir); // residents name their database by its real path
    cpSync(path.join(seeded.dir, '.engram'), path.join(dir, '.engram'), { recursive: true });
  });
  afterEach(async () => {
    const left = await residents().catch(() => [] as Resident[]);
    for (const resident of left) process.kill(resident.pid, 'SIGKILL');
    remove();
  });

  it('starts on the first hook call, answers the later ones with the same output, and stops when asked', async () => {
    const first = await hook(START);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(HANDOFF);

    const started = await oneRunning();
    expect(started).toMatchObject({ db: db(), requests: 0, idleSeconds: 900 });
    const second = await hook(START);
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect((await residents())[0]?.requests).toBe(1);

    // Private to the user: the directory and the socket.
    expect(statSync(socketDir()).mode & 0o777).toBe(0o700);
    const [socket] = readdirSync(socketDir()).filter((name) => name.endsWith('.sock'));
    expect(statSync(path.join(socketDir(), socket as string)).mode & 0o777).toBe(0o600);

    expect(await runOk(['daemon', 'stop'], run())).toBe(`stopped the resident process ${started.pid} of ${db()}\n`);
    expect(isRunning(started.pid)).toBe(false); // stop returns once the process has exited
    expect(await runOk(['daemon', 'status'], run())).toBe(NONE_RUNNING);
    expect(existsSync(path.join(socketDir(), socket as string))).toBe(false);
    expect(await runOk(['daemon', 'stop'], run())).toBe(`no resident process serves ${db()}\n`);
  });

  it('lists each resident process with its database, pid, uptime, memory and idle exit time', async () => {
    await hook(START);
    const resident = await oneRunning();
    expect(resident.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(resident.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(Date.parse(resident.idleExitAt) - Date.parse(resident.startedAt)).toBeGreaterThanOrEqual(900_000);
    expect(resident.config).toBeNull();

    const text = await runOk(['daemon', 'status'], run());
    expect(text).toMatch(
      new RegExp(
        `^1 resident process:\\n${escapeRegExp(db())}\\n` +
          `  pid ${resident.pid}, up \\d+ s, 0 requests answered, \\d+ MiB resident memory\\n` +
          '  exits in 1[45] min \\d+ s \\(at \\d\\d:\\d\\d:\\d\\d\\) unless a request comes first: 900 s after the last one\\n$',
      ),
    );
    // With --db, only that database's process; none for another database.
    expect(await runJson<{ residents: Resident[] }>(['daemon', 'status', '--db', db()], run())).toMatchObject({
      residents: [{ pid: resident.pid }],
    });
    expect(await runOk(['daemon', 'status', '--db', 'other.db'], run())).toBe(
      `no resident process serves ${path.join(dir, 'other.db')}\n`,
    );
  });

  it('serves every configuration of its database from one process, each request with its own settings', async () => {
    await hook(START);
    const resident = await oneRunning();
    // A budget of 10 tokens leaves no room for the handoff note: the hook prints nothing.
    writeFileSync(path.join(dir, 'tight.toml'), '[context]\nmax_tokens = 10\n');
    const alone = await hook(START, { ENGRAM_DAEMON__ENABLED: 'false' }, ['--config', 'tight.toml']);
    expect(alone).toMatchObject({ code: 0, stdout: '', stderr: '' });

    expect(await hook(START, {}, ['--config', 'tight.toml'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await hook(START, { ENGRAM_CONTEXT__MAX_TOKENS: '10' })).toMatchObject({ code: 0, stdout: '' });
    expect((await hook(START)).stdout).toContain(HANDOFF);
    // The same file by other names: a relative path with .., and through a linked folder.
    symlinkSync(path.join(dir, '.engram'), path.join(dir, 'linked'));
    expect((await hook(START, {}, ['--db', '.engram/../.engram/engram.db'])).stdout).toContain(HANDOFF);
    expect((await hook(START, {}, ['--db', 'linked/engram.db'])).stdout).toContain(HANDOFF);
    const recall = await runCli(['--config', 'tight.toml', 'recall', 'billing?', '--session', 'r1'], run());
    expect(recall.code).toBe(0);

    const [only, ...others] = await residents();
    expect(others).toEqual([]);
    expect(only).toMatchObject({ pid: resident.pid, db: db(), requests: 6, config: path.join(dir, 'tight.toml') });
  });

  it('reports a mistake in one caller’s configuration as that caller’s own process would, and serves the others', async () => {
    await hook(START);
    await oneRunning();
    writeFileSync(path.join(dir, 'wrong.toml'), '[memory.recall]\nthreshold = 2\n');
    const resident = await hook(START, {}, ['--config', 'wrong.toml']);
    const alone = await hook(START, { ENGRAM_DAEMON__ENABLED: 'false' }, ['--config', 'wrong.toml']);
    expectOneLineError(resident, /wrong\.toml: memory\.recall\.threshold must be between 0 and 1/);
    expect(resident).toMatchObject({ code: alone.code, stdout: alone.stdout, stderr: alone.stderr });
    expect((await residents())[0]?.requests).toBe(1);
    expect((await hook(START)).stdout).toContain(HANDOFF);
  });

  it('stops the resident processes of every database with stop --all', async () => {
    await hook(START);
    await hook(START, {}, ['--db', 'a.db']);
    await hook(START, {}, ['--db', 'b.db']);
    const running = await waitUntil((list) => list.length === 3, 3);
    expect(running.map((resident) => resident.db).sort()).toEqual([db(), path.join(dir, 'a.db'), path.join(dir, 'b.db')].sort());

    const stopped = await runOk(['daemon', 'stop', '--all'], run());
    for (const resident of running) {
      expect(stopped).toContain(`stopped the resident process ${resident.pid} of ${resident.db}\n`);
      expect(isRunning(resident.pid)).toBe(false);
    }
    expect(stopped.split('\n')).toHaveLength(4);
    expect(await residents()).toEqual([]);
    expect(await runOk(['daemon', 'stop', '--all'], run())).toBe(NONE_RUNNING);
  });

  it('reports a bad event exactly as the hook’s own process does', async () => {
    await hook(START);
    await oneRunning();
    const resident = await hook('{"hook_event_name": "UserPromptSubmit"}');
    const alone = await hook('{"hook_event_name": "UserPromptSubmit"}', { ENGRAM_DAEMON__ENABLED: 'false' });
    expectOneLineError(resident, /session_id/);
    expect(resident).toMatchObject({ code: alone.code, stderr: alone.stderr, stdout: alone.stdout });
    expect((await residents())[0]?.requests).toBe(1);
  });

  it('answers engram recall too, as the command would, errors included', async () => {
    const first = await runCli(['recall', 'which database for billing?', '--session', 'r1'], run());
    await oneRunning();
    const second = await runCli(['recall', 'which database for billing?', '--session', 'r1'], run());
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect((await residents())[0]?.requests).toBe(1);
    expectOneLineError(
      await runCli(['recall', 'billing', '--session', 'r1', '--scope', ' '], run()),
      /scope must be a non-empty/,
    );
    expect((await residents())[0]?.requests).toBe(2);
    // An empty message is refused by the command itself, in its own words, before asking the process.
    expectOneLineError(await runCli(['recall', '   ', '--session', 'r1'], run()), /the message is empty/);
    expect((await residents())[0]?.requests).toBe(2);
  });

  it('replaces a process that died, and the hook still answers meanwhile', async () => {
    await hook(START);
    const first = await oneRunning();
    process.kill(first.pid, 'SIGKILL'); // its socket file stays behind, with nobody listening

    const meanwhile = await hook(START);
    expect(meanwhile.code).toBe(0);
    expect(meanwhile.stdout).toContain(HANDOFF);
    const [second] = await waitUntil((list) => list.length === 1 && list[0]?.pid !== first.pid);
    expect(second?.pid).not.toBe(first.pid);
    expect((await hook(START)).stdout).toContain(HANDOFF);
  });

  // The resident starts with the default idle time, so it is still there to be seen however slow
  // the machine; the command that sets one second is the last thing it hears.
  it('takes the idle time of the latest request’s settings, and exits by itself after it', { timeout: 120_000 }, async () => {
    await hook(START);
    const resident = await oneRunning();
    expect(resident.idleSeconds).toBe(900);
    expect((await hook(START, { ENGRAM_DAEMON__IDLE_SECONDS: '1' })).stdout).toContain(HANDOFF);
    // Gone within the wait's 30 s, not the 900 it started with.
    await waitUntil((list) => list.length === 0, 0);
    expect(isRunning(resident.pid)).toBe(false);
  });

  it('exits when its database is removed', async () => {
    await hook(START);
    await oneRunning();
    rmSync(path.join(dir, '.engram'), { recursive: true, force: true });
    await waitUntil((list) => list.length === 0, 0);
  });

  it('is not started when [daemon] enabled = false, in engram.toml or the environment', async () => {
    await hook(START, { ENGRAM_DAEMON__ENABLED: 'false' });
    writeFileSync(path.join(dir, 'engram.toml'), '[daemon]\nenabled = false\n');
    const viaFile = await runCli(['hook', 'claude-code'], {
      cwd: dir,
      env: { ...env(), ENGRAM_DAEMON__ENABLED: undefined },
      input: START,
    });
    expect(viaFile.stdout).toContain(HANDOFF);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(existsSync(path.join(dir, 'run'))).toBe(false);
  });
});
