/**
 * The CLI's own check of the SQLite file a command opens, before the engine does: a file a read
 * command needs that does not exist, or a `--db` in a folder that does not exist, refused in the
 * CLI's words (`--db`, `engram add`). The library refuses the same paths in its own words
 * (`path`, `mustExist`, `createDirectory`), which would mean nothing at a shell.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

import { type EngramConfig, EngramError } from '../../index.js';

/**
 * Throws when the command's database path cannot be used as asked; a PostgreSQL store, or a file
 * that exists, passes (the engine checks what the file holds). The configured default path's
 * folder is created on the first write, as the engine does.
 * @param options.mustExist the command reads, and must not create a database
 */
export function checkDatabasePath(config: EngramConfig, file: string, options: { mustExist: boolean }): void {
  if (config.store.url !== '' || file === ':memory:' || existsSync(file)) return;
  if (options.mustExist) {
    throw new EngramError(
      'database_missing',
      `no Engram database at ${file}: add a memory first (engram add "…") or point --db at an existing file`,
    );
  }
  const directory = path.dirname(path.resolve(file));
  if (!existsSync(directory) && path.resolve(file) !== path.resolve(config.store.path)) {
    throw new EngramError(
      'database_missing',
      `directory ${directory} does not exist: create it first or choose another --db path`,
    );
  }
}
