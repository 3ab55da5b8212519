/**
 * The real processes the reliability sections run against one database: the library worker
 * (worker.ts, built), the `engram` CLI and `engram serve`, each killable with SIGKILL. Every
 * child has a name (its role and command line) that failures quote, and every wait on a child
 * ends when the child exits or a deadline passes, never later.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

import { engramEntryPoints } from '../package-paths.js';

const { cli: CLI, root: ROOT } = engramEntryPoints();
/** The built worker script (`npm run build:bench`); a child process cannot run the TypeScript source. */
export const WORKER = path.join(ROOT, 'build', 'bench', 'reliability', 'worker.js');

/** How long a child may take to become ready: a process that loads the local model included. */
export const READY_MS = 120_000;

/** Lexical-only search, no resident process: what most trials use. */
export const LEXICAL_ENV: Readonly<Record<string, string>> = { ENGRAM_EMBEDDING__PROVIDER: 'none' };

/** This process's environment without stray `ENGRAM_*` settings, plus `extra`; never the resident process. */
export function childEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('ENGRAM_')) env[name] = value;
  return { ...env, ENGRAM_DAEMON__ENABLED: 'false', ...extra };
}

/**
 * A child that failed the run: it exited before it was ready or while it was running, or it
 * missed a deadline. The string `code` makes the CLI print the message as it is.
 */
export class ChildFailure extends Error {
  readonly code = 'child_failed';

  constructor(message: string) {
    super(message);
    this.name = 'ChildFailure';
  }
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
  stderr: () => string;
  /** Its role and command, for messages: `worker 2 (node build/bench/reliability/worker.js concurrent …)`. */
  name: string;
  /** Set once it has printed what it prints when ready (waitUntilReady). */
  ready: boolean;
}

/** What a child is started with besides its command. */
export interface StartOptions {
  /** What the child is, for messages (`worker 2`, `engram serve`). @default the script's name, or `engram <command>` */
  role?: string;
  /** Written to its stdin, which is then closed; null leaves stdin open. @default '' */
  input?: string | null;
}

/**
 * Starts `node <script> <args>` in the package folder (so `engram` resolves) and collects its
 * output.
 */
export function startNode(script: string, args: readonly string[], env: NodeJS.ProcessEnv, options: StartOptions = {}): Running {
  const { role = path.basename(script), input = '' } = options;
  const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.on('error', () => undefined); // a child killed before reading its input
  if (input !== null) child.stdin?.end(input);
  const done = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return {
    child,
    done,
    stdout: () => stdout,
    stderr: () => stderr,
    name: `${role} (${commandLine(script, args)})`,
    ready: false,
  };
}

/** Starts `engram <args>`. */
export function startCli(args: readonly string[], env: NodeJS.ProcessEnv, options: StartOptions = {}): Running {
  return startNode(CLI, args, env, { role: `engram ${args[0] ?? ''}`.trim(), ...options });
}

/** `node <script relative to the package> <args>`, cut short for a message. */
function commandLine(script: string, args: readonly string[]): string {
  const relative = path.relative(ROOT, script);
  const line = ['node', relative.startsWith('..') ? script : relative, ...args].join(' ');
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}

/** Whether the child has not exited yet. */
export function isAlive(running: Running): boolean {
  return running.child.exitCode === null && running.child.signalCode === null;
}

/**
 * What a child's stderr says about its end: from the last line naming an error (`…Error: …`,
 * `engram: …`) when there is one, else its last lines; stack frames and Node's version line left out.
 */
export function stderrTail(text: string): string {
  const lines = text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !/^\s+at /.test(line) && !/^Node\.js v\d/.test(line));
  const headline = lines.findLastIndex((line) => /^(\w*Error\b|engram: )/.test(line));
  let picked = lines.slice(-6);
  if (headline >= 0) {
    // The error's message, up to two more lines of it; Node's indented dump of its properties ends it.
    const after = lines.slice(headline + 1, headline + 3);
    const end = after.findIndex((line) => /^(\s|[{}])/.test(line));
    picked = [lines[headline] as string, ...(end < 0 ? after : after.slice(0, end))];
  }
  const tail = picked.join('\n');
  if (tail === '') return '(nothing on stderr)';
  return tail.length > 800 ? `${tail.slice(0, 799)}…` : tail;
}

/** `worker (…) exited with code 1 before it was ready: <stderr>`. */
export function describeExit(running: Running, finished: Finished): string {
  const how = finished.signal === null ? `exited with code ${finished.code}` : `was killed by ${finished.signal}`;
  const when = running.ready ? 'while it was running' : 'before it was ready';
  return `${running.name} ${how} ${when}: ${stderrTail(finished.stderr)}`;
}

/**
 * Resolves once the child's standard output holds `text`, and marks it ready. Rejects with a
 * ChildFailure naming the child when it exits first or `deadlineMs` passes; the caller stops it.
 */
export function waitUntilReady(running: Running, text: string, deadlineMs: number = READY_MS): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (failure: ChildFailure | null) => {
      running.child.stdout?.off('data', check);
      clearTimeout(timer);
      if (failure) reject(failure);
      else {
        running.ready = true;
        resolve();
      }
    };
    const check = () => {
      if (running.stdout().includes(text)) settle(null);
    };
    const timer = setTimeout(() => {
      const seconds = Math.round(deadlineMs / 100) / 10;
      settle(new ChildFailure(`${running.name} was not ready within ${seconds} s: ${stderrTail(running.stderr())}`));
    }, deadlineMs);
    running.child.stdout?.on('data', check);
    void running.done.then(
      (finished) => settle(new ChildFailure(describeExit(running, finished))),
      (error: Error) => settle(new ChildFailure(`${running.name} could not start: ${error.message}`)),
    );
    check();
  });
}

/** A running `engram serve`: its base URL, and the process to stop or kill. */
export interface Served {
  url: string;
  running: Running;
}

/** The arguments of `engram serve` on a free port, printing where it listens as JSON. */
export function serveArgs(file: string): string[] {
  return ['serve', '--port', '0', '--json', '--db', file];
}

/** The base URL a ready `engram serve` printed on its first line. */
export function servedAt(running: Running): Served {
  const first = running.stdout().split('\n')[0] as string;
  const where = JSON.parse(first) as { api: string };
  return { url: where.api.replace(/\/v1$/, ''), running };
}

/**
 * Starts `engram serve` and waits until it listens. A server that exits first or is not ready
 * within `readyMs` is killed, and the promise rejects naming it.
 */
export async function startServe(file: string, env: NodeJS.ProcessEnv, readyMs: number = READY_MS): Promise<Served> {
  const running = startCli(serveArgs(file), env);
  try {
    await waitUntilReady(running, '\n', readyMs);
  } catch (error) {
    await killHard(running);
    throw error;
  }
  return servedAt(running);
}

/** Kills a child with SIGKILL (if it still runs) and waits for it to be gone. */
export async function killHard(running: Running): Promise<Finished> {
  if (isAlive(running)) running.child.kill('SIGKILL');
  return running.done;
}
