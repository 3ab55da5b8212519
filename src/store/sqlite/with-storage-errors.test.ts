import { describe, expect, it } from 'vitest';

import { EngramError } from '../../errors.js';
import { withStorageErrors } from './with-storage-errors.js';

const locked = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

class Backend {
  readonly file = 'engram.db';
  private readonly rows = [1, 2, 3];

  count(): number {
    return this.rows.length;
  }

  failNow(): number {
    throw locked();
  }

  async failLater(): Promise<number> {
    throw locked();
  }

  async *failMidway(): AsyncIterable<number> {
    yield this.rows[0] as number;
    throw locked();
  }
}

describe('withStorageErrors', () => {
  const backend = withStorageErrors(new Backend(), 'engram.db');

  it('leaves results, properties and private state alone', () => {
    expect(backend.count()).toBe(3);
    expect(backend.file).toBe('engram.db');
  });

  it('explains a failure thrown, rejected, or met in the middle of an iteration', async () => {
    expect(() => backend.failNow()).toThrow(/engram\.db is locked by another process/);
    await expect(backend.failLater()).rejects.toThrow(EngramError);
    await expect(backend.failLater()).rejects.toMatchObject({ code: 'database_locked' });
    const seen: number[] = [];
    const iterate = async () => {
      for await (const row of backend.failMidway()) seen.push(row);
    };
    await expect(iterate()).rejects.toThrow(/is locked by another process/);
    expect(seen).toEqual([1]);
  });
});
