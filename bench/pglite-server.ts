/**
 * Starts and stops the PGlite server of `bench footprint --store pglite[+pgvector]`
 * (pglite-server-child.ts) in a child process with its data in a temporary directory. PGlite
 * stands in for a PostgreSQL server with pgvector, which this machine's packages do not offer.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A running PGlite server. */
export interface PgliteServer {
  /** A postgres:// URL of its one database. */
  url: string;
  /** The server's process id (its memory and CPU time are its own). */
  pid: number;
  /** Stops it and deletes its data. */
  stop(): Promise<void>;
}

/** Starts a PGlite server on an empty database, with pgvector's extension created when `pgvector`. */
export async function startPgliteServer({ pgvector }: { pgvector: boolean }): Promise<PgliteServer> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'engram-bench-pglite-'));
  // Built, the child is a .js file beside this one; from the sources (the tests) it is a .ts file run through tsx.
  const script = fileURLToPath(import.meta.url).replace(/pglite-server\.(js|ts)$/, 'pglite-server-child.$1');
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script, path.join(directory, 'data'), ...(pgvector ? ['--pgvector'] : [])], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const remove = () => rmSync(directory, { recursive: true, force: true });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const newline = stdout.indexOf('\n');
        if (newline >= 0) resolve((JSON.parse(stdout.slice(0, newline)) as { url: string }).url);
      });
      void exited.then(() => reject(new Error(`the PGlite server exited before listening: ${stderr.trim()}`)));
    });
    return {
      url,
      pid: child.pid as number,
      async stop() {
        child.stdin.end();
        await exited;
        remove();
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    remove();
    throw error;
  }
}
