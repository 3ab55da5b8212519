/**
 * The resident process as real child processes on a real Unix socket: the first hook call does
 * its own work and starts one, later calls are answered by it with the same output, a process
 * that died is replaced, an idle one or one whose database is gone exits by itself, the socket
 * is private to the user, `engram daemon status|stop` show and end it, and it stays off when
 * the configuration says so.
 */
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { expectOneLineError, LEXICAL, makeTempDir, residentEnv, runCli, runJson, runOk } from './helpers.js';

interface Status {
  running: boolean;
  pid?: number;
  db?: string;
  requests?: number;
}

const HANDOFF = 'Billing export switched to UTF-8; next: rotate the staging keys.';
const START = JSON.stringify({ session_id: 's1', hook_event_name: 'SessionStart', source: 'startup' });

describe('the resident process', () => {
  let dir: string;
  let remove: () => void;
  const env = (extra: Record<string, string> = {}) => residentEnv(dir, extra);
  const run = (extra: Record<string, string> = {}) => ({ cwd: dir, env: env(extra) });
  const hook = (input: string, extra: Record<string, string> = {}) => runCli(['hook', 'claude-code'], { ...run(extra), input });
  const status = (extra: Record<string, string> = {}) => runJson<Status>(['daemon', 'status'], run(extra));

  /** Polls until the resident process answers (it starts in the background). */
  async function waitUntil(check: (s: Status) => boolean, extra: Record<string, string> = {}): Promise<Status> {
    for (let waited = 0; waited < 20_000; waited += 200) {
      const current = await status(extra);
      if (check(current)) return current;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the resident process did not reach the expected state within 20 s');
  }

  beforeEach(async () => {
    ({ dir, remove } = makeTempDir());
    await runOk(['handoff', HANDOFF], { cwd: dir, env: LEXICAL });
  });
  afterEach(async () => {
    const current = await status().catch(() => ({ running: false }) as Status);
    if (current.running && current.pid) process.kill(current.pid, 'SIGKILL');
    remove();
  });

  it('starts on the first hook call, answers the later ones with the same output, and stops when asked', async () => {
    const first = await hook(START);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(HANDOFF);

    const started = await waitUntil((s) => s.running);
    expect(started).toMatchObject({ running: true, db: path.join(dir, '.engram', 'engram.db'), requests: 0 });
    const second = await hook(START);
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect((await status()).requests).toBe(1);

    // Private to the user: the directory and the socket.
    const socketDir = path.join(dir, 'run', `engram-${process.getuid?.()}`);
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
    const [socket] = readdirSync(socketDir).filter((name) => name.endsWith('.sock'));
    expect(statSync(path.join(socketDir, socket as string)).mode & 0o777).toBe(0o600);

    expect(await runOk(['daemon', 'status'], run())).toMatch(
      /^resident process \d+ serves .*engram\.db\n {2}since .*, 1 request answered\n/,
    );
    expect(await runOk(['daemon', 'stop'], run())).toBe(`stopped the resident process ${started.pid}\n`);
    expect(await status()).toEqual({ running: false });
    expect(existsSync(path.join(socketDir, socket as string))).toBe(false);
    expect(await runOk(['daemon', 'stop'], run())).toBe('no resident process serves this database\n');
  });

  it('reports a bad event exactly as the hook’s own process does', async () => {
    await hook(START);
    await waitUntil((s) => s.running);
    const resident = await hook('{"hook_event_name": "UserPromptSubmit"}');
    const alone = await hook('{"hook_event_name": "UserPromptSubmit"}', { ENGRAM_DAEMON__ENABLED: 'false' });
    expectOneLineError(resident, /session_id/);
    expect(resident).toMatchObject({ code: alone.code, stderr: alone.stderr, stdout: alone.stdout });
    expect((await status()).requests).toBe(1);
  });

  it('answers engram recall too, as the command would, errors included', async () => {
    const first = await runCli(['recall', 'which database for billing?', '--session', 'r1'], run());
    await waitUntil((s) => s.running);
    const second = await runCli(['recall', 'which database for billing?', '--session', 'r1'], run());
    expect(second).toMatchObject({ code: 0, stdout: first.stdout, stderr: '' });
    expect((await status()).requests).toBe(1);
    expectOneLineError(await runCli(['recall', '   ', '--session', 'r1'], run()), /needs the user message/);
    expect((await status()).requests).toBe(2);
  });

  it('replaces a process that died, and the hook still answers meanwhile', async () => {
    await hook(START);
    const first = await waitUntil((s) => s.running);
    process.kill(first.pid as number, 'SIGKILL'); // its socket file stays behind, with nobody listening

    const meanwhile = await hook(START);
    expect(meanwhile.code).toBe(0);
    expect(meanwhile.stdout).toContain(HANDOFF);
    const second = await waitUntil((s) => s.running && s.pid !== first.pid);
    expect(second.pid).not.toBe(first.pid);
    expect((await hook(START)).stdout).toContain(HANDOFF);
  });

  it('exits by itself after idle_seconds without a request', async () => {
    const idle = { ENGRAM_DAEMON__IDLE_SECONDS: '1' };
    await hook(START, idle);
    await waitUntil((s) => s.running, idle);
    await waitUntil((s) => !s.running, idle);
  });

  it('exits when its database is removed', async () => {
    await hook(START);
    await waitUntil((s) => s.running);
    rmSync(path.join(dir, '.engram'), { recursive: true, force: true });
    await waitUntil((s) => !s.running);
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
