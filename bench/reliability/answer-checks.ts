/**
 * What the hostile-input section checks in every answer: an error in Engram's shape (an
 * `{ error: { code, message } }` body, an `engram:` line on stderr, an MCP error with a message),
 * and nothing that reveals the server's insides — no stack frames, no file paths of the
 * installation or of the database, no Node internals. The fuzzer never sends these paths, so
 * finding one in an answer means the server put it there.
 */
import Database from 'better-sqlite3';

import { engramEntryPoints } from '../package-paths.js';

const { root: ROOT } = engramEntryPoints();
const STACK_FRAME = /\n\s+at \S|\bat (?:async )?\S+ \((?:file:\/\/)?\/[^)]*:\d+:\d+\)/;

/** Why `text` leaks the server's insides, or null. `privatePaths` are folders the answer must not name. */
export function findLeak(text: string, privatePaths: readonly string[]): string | null {
  if (STACK_FRAME.test(text)) return 'a stack trace';
  if (text.includes('node:internal')) return 'a Node internal module';
  for (const folder of [ROOT, ...privatePaths]) if (folder && text.includes(folder)) return `the path ${folder}`;
  if (/\bnode_modules\b/.test(text)) return 'a node_modules path';
  return null;
}

/** Whether `body` is Engram's HTTP error shape: `{ error: { code, message } }`, both non-empty strings. */
export function isErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return typeof code === 'string' && code !== '' && typeof message === 'string' && message.trim() !== '';
}

/** Whether a failed command's stderr has an `engram: …` line, as every CLI error must. */
export function hasEngramLine(stderr: string): boolean {
  return stderr.split('\n').some((line) => /^engram: \S/.test(line));
}

/**
 * A read-only view of a database's `data_version`, which moves whenever another connection
 * commits: the same number before and after a refused input proves the input changed nothing.
 */
export interface DatabaseWatch {
  version(): number;
  close(): void;
}

export function watchDatabase(file: string): DatabaseWatch {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  return {
    version: () => db.pragma('data_version', { simple: true }) as number,
    close: () => db.close(),
  };
}
