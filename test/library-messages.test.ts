/**
 * What the library says, in the library's own terms (`path`, `createDirectory`, `mustExist`, the
 * field names of its inputs) rather than the CLI's `--db`: a database path whose folder is
 * missing is refused when the engine opens, not at its first write; dates name the format;
 * deleting an entity says what it deleted.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Engram, EngramError, openEngram } from '../src/index.js';

let directory: string;
const open: Engram[] = [];

beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'engram-messages-'));
});
afterEach(async () => {
  for (const engram of open.splice(0)) await engram.close();
  rmSync(directory, { recursive: true, force: true });
});

async function engine(options: Parameters<typeof openEngram>[0]): Promise<Engram> {
  const engram = await openEngram({ embedder: null, ...options });
  open.push(engram);
  return engram;
}

async function openingError(options: Parameters<typeof openEngram>[0]): Promise<EngramError> {
  const error = await engine(options).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngramError);
  return error as EngramError;
}

describe('openEngram with a path', () => {
  it('refuses a path whose folder is missing when it opens, naming the folder and createDirectory, not --db', async () => {
    const file = path.join(directory, 'no-such-folder', 'deeper', 'engram.db');

    const error = await openingError({ path: file });

    expect(error.code).toBe('database_missing');
    expect(error.message).toBe(
      `the folder ${path.dirname(file)} of the database path ${file} does not exist: create it first, or pass createDirectory: true to openEngram`,
    );
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('creates the missing folder with createDirectory, on the first write', async () => {
    const file = path.join(directory, 'new-folder', 'engram.db');
    const engram = await engine({ path: file, createDirectory: true });
    expect(existsSync(path.dirname(file))).toBe(false);

    await engram.remember('Deploys happen on Tuesdays');

    expect(existsSync(file)).toBe(true);
  });

  it('says in its own terms that mustExist found no database', async () => {
    const file = path.join(directory, 'engram.db');

    const error = await openingError({ path: file, mustExist: true });

    expect(error.code).toBe('database_missing');
    expect(error.message).toBe(
      `no Engram database at ${file}, and mustExist forbids creating one: give the path of an existing database, or leave mustExist out to create it`,
    );
    expect(error.message).not.toMatch(/--db|engram add/);
  });
});

describe('inputs', () => {
  it('names the date field and the format it takes', async () => {
    const engram = await engine({ path: path.join(directory, 'engram.db') });

    await expect(engram.remember({ text: 'Shipped it', occurredAt: 'yesterday' })).rejects.toThrow(
      'occurredAt is not a valid date: "yesterday"; give an ISO 8601 date such as 2026-01-31 or 2026-01-31T09:00:00Z',
    );
    await expect(engram.search({ query: 'shipped', occurredAfter: 'last week' })).rejects.toThrow(
      /occurredAfter is not a valid date: "last week"; give an ISO 8601 date/,
    );
  });

  it('says which entities it deleted, so deleting one twice does not delete it twice', async () => {
    const engram = await engine({ path: path.join(directory, 'engram.db') });
    await engram.graph.createEntities([{ name: 'Acme', entityType: 'organization' }]);

    expect(await engram.graph.deleteEntities(['acme', 'Nobody'])).toEqual(['Acme']);
    expect(await engram.graph.deleteEntities(['Acme'])).toEqual([]);
  });
});
