/**
 * Starts an `engram` command that listens (`serve`, `proxy`) as a child process with `--port 0
 * --json`, and waits for the one JSON line in which it says where it listens.
 */
import { type ChildProcess, spawn } from 'node:child_process';

import { engramEntryPoints } from './package-paths.js';

/** A listening child: its base URL and how to stop it. */
export interface ListeningChild {
  url: string;
  stop: () => Promise<void>;
}

/**
 * Runs `engram <args> --port 0 --json` with `env` added to this process's environment; `urlOf`
 * reads the base URL from the command's JSON line.
 */
export function startListening(
  args: readonly string[],
  env: Record<string, string>,
  urlOf: (where: Record<string, string>) => string,
): Promise<ListeningChild> {
  const child: ChildProcess = spawn(process.execPath, [engramEntryPoints().cli, ...args, '--port', '0', '--json'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const newline = stdout.indexOf('\n');
      if (newline < 0) return;
      resolve({
        url: urlOf(JSON.parse(stdout.slice(0, newline)) as Record<string, string>),
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then(() => reject(new Error(`engram ${args[0]} exited before listening: ${stderr.trim()}`)));
  });
}
