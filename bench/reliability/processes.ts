/**
 * The real processes the reliability sections run against one database: the library worker
 * (worker.ts, built), the `engram` CLI and `engram serve`, each killable with SIGKILL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { engramEntryPoints } from '../package-paths.js';

const { cli: CLI, root: ROOT } = engramEntryPoints();
/** The built worker script (`npm run build:bench`); a child process cannot run the TypeScript source. */
export const WORKER = path.join(ROOT, 'build', 'bench', 'reliability', 'worker.js');

/** Lexical-only search, no resident process: what most trials use. */
export const LEXICAL_ENV: Readonly<Record<string, string>> = { ENGRAM_EMBEDDING__PROVIDER: 'none' };

/** This process's environment without stray `ENGRAM_*` settings, plus `extra`; never the resident process. */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ENGRAM_')) env[name] = value;
  return { ...env, ENGRAM_DAEMON__ENABLED: 'false', ...extra };
}

/** A finished child: exit code or signal, and what it printed. */
export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A running child with its output collected; `done` settles when it has exited. */
export interface Running {
  child: ChildProcess;
  done: Promise<Finished>;
  stdout: () => string;
}

/**
 * Starts `node <script> <args>` in the package folder (so `engram` resolves) and collects its
 * output. `input` is written to its stdin, which is then closed; null leaves stdin open.
 */
export function startNode(script: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string | null): Running {
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.on('error', () => undefined); // a child killed before reading its input
  if (input !== null) child.stdin?.end(input ?? '');
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done, stdout: () => stdout };
}

/** Starts `engram <args>`. */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv, input?: string | null): Running {
  return startNode(CLI, args, env, input);
}

/** Resolves once the child's standard output holds `text`; rejects if it exits first. */
export function waitForOutput(running: Running, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (running.stdout().includes(text)) {
        running.child.stdout?.off('data', check);
        resolve();
      }
    };
    running.child.stdout?.on('data', check);
    check();
    void running.done.then((finished) => reject(new Error(`child exited before printing ${text}: ${finished.stderr.trim()}`)));
  });
}

/** A running `engram serve`: its base URL, and the process to stop or kill. */
export interface Served {
  url: string;
  running: Running;
}

/** Starts `engram serve --port 0 --json --db <file>` and waits until it listens. */
export async function startServe(file: string, env: NodeJS.ProcessEnv, extraArgs: readonly string[] = []): Promise<Served> {
  const running = startCli(['serve', '--port', '0', '--json', '--db', file, ...extraArgs], env);
  await waitForOutput(running, '\n');
  const first = running.stdout().split('\n')[0] as string;
  const where = JSON.parse(first) as { api: string };
  return { url: where.api.replace(/\/v1$/, ''), running };
}

/** Kills a child with SIGKILL (if it still runs) and waits for it to be gone. */
export async function killHard(running: Running): Promise<Finished> {
  if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
  return running.done;
}
