/**
 * The callers of the resident process when things go wrong, as real child processes: a process
 * that took a request but gave no answer may still be doing the work, so the caller never does
 * it a second time; a configuration the full CLI would reject keeps the caller away from the
 * resident process, so the error is reported every time; and a hook whose standard input fails
 * reports it in one line, like every other hook failure.
 */
import { spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, realpathSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { daemonAddress } from '../../src/surfaces/daemon/address.js';
import {
  childEnv,
  CLI,
  type CliResult,
  expectOneLineError,
  LEXICAL,
  makeTempDir,
  residentEnv,
  runCli,
  runOk,
} from './helpers.js';

const PROMPT = JSON.stringify({ session_id: 's1', hook_event_name: 'UserPromptSubmit', prompt: 'which database for billing?' });

describe('callers of the resident process', () => {
  let dir: string;
  let remove: () => void;
  const env = (extra: Record<string, string> = {}) => residentEnv(dir, extra);
  const db = () => path.join(dir, '.engram', 'engram.db');

  /** The sessions the database has recorded (a turn recorded twice would show here). */
  function sessions(): unknown[] {
    const file = new Database(db(), { readonly: true, fileMustExist: true });
    try {
      return file.prepare('SELECT id, body FROM sessions').all();
    } finally {
      file.close();
    }
  }

  // One database with a memory, written once by the CLI; each test starts from a copy.
  let seeded: { dir: string; remove: () => void };
  beforeAll(async () => {
    seeded = makeTempDir();
    await runOk(['add', 'The billing service stores invoices in PostgreSQL 16'], { cwd: seeded.dir, env: LEXICAL });
  });
  afterAll(() => seeded.remove());

  beforeEach(() => {
    ({ dir, remove } = makeTempDir());
    dir = realpathSync(dir); // the child's working directory, as process.cwd() gives it
    cpSync(path.join(seeded.dir, '.engram'), path.join(dir, '.engram'), { recursive: true });
  });
  afterEach(() => remove());

  describe('when the resident process takes the request but gives no answer', () => {
    let server: net.Server;
    let received: string[];

    /** Stands in for a resident process that dies (or is stuck) in the middle of each request. */
    beforeEach(async () => {
      received = [];
      const address = daemonAddress({ cwd: dir, env: childEnv(env()), db: db() });
      mkdirSync(address.directory, { recursive: true, mode: 0o700 });
      server = net.createServer((socket) => {
        socket.once('data', (chunk) => {
          received.push(chunk.toString());
          socket.destroy();
        });
      });
      await new Promise<void>((resolve) => server.listen(address.socket, resolve));
    });
    afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('a hook prints nothing, exits 0, and does not do the work a second time', async () => {
      const result = await runCli(['hook', 'claude-code'], { cwd: dir, env: env(), input: PROMPT });

      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(received).toHaveLength(1);
      expect(JSON.parse(received[0] as string)).toMatchObject({ op: 'hook-claude-code', input: PROMPT });
      expect(sessions()).toEqual([]); // the turn was not recorded here as well
    });

    it('engram recall fails with one line rather than recording the turn a second time', async () => {
      const result = await runCli(['recall', 'which database for billing?', '--session', 's1'], { cwd: dir, env: env() });

      expectOneLineError(result, /did not answer in time; it may still finish it/);
      expect(result.stdout).toBe('');
      expect(received).toHaveLength(1);
      expect(sessions()).toEqual([]);
    });
  });

  describe('with a configuration the full CLI rejects', () => {
    const runDir = () => path.join(dir, 'run');

    it('reports a missing --config file on every call and never starts a resident process', async () => {
      for (let call = 0; call < 2; call++) {
        const result = await runCli(['--config', 'missing.toml', 'hook', 'claude-code'], {
          cwd: dir,
          env: env(),
          input: PROMPT,
        });
        expectOneLineError(result, /config file .*missing\.toml does not exist/);
        expect(result.code).toBe(1);
      }
      expect(existsSync(runDir())).toBe(false);
    });

    it('reports a missing ENGRAM_CONFIG file the same way', async () => {
      const result = await runCli(['hook', 'claude-code'], {
        cwd: dir,
        env: env({ ENGRAM_CONFIG: 'missing.toml' }),
        input: PROMPT,
      });
      expectOneLineError(result, /does not exist/);
      expect(existsSync(runDir())).toBe(false);
    });

    it.each(['0', 'yes'])('reports ENGRAM_DAEMON__ENABLED=%s, which is not true or false', async (value) => {
      const result = await runCli(['hook', 'claude-code'], {
        cwd: dir,
        env: env({ ENGRAM_DAEMON__ENABLED: value }),
        input: PROMPT,
      });
      expectOneLineError(result, /ENGRAM_DAEMON__ENABLED: daemon\.enabled must be true or false/);
      expect(existsSync(runDir())).toBe(false);
    });
  });

  it('a hook whose standard input cannot be read fails with one line, not a stack trace', async () => {
    const unreadable = openSync('/dev/null', 'w'); // reading it fails with EBADF
    const child = spawn(process.execPath, [CLI, 'hook', 'claude-code'], {
      cwd: dir,
      env: childEnv(env()),
      stdio: [unreadable, 'pipe', 'pipe'],
    });
    closeSync(unreadable);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const result = await new Promise<CliResult>((resolve) =>
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
    );

    expectOneLineError(result, /EBADF/);
    expect(result.code).toBe(1); // not 2, which would block the agent
  });
});
