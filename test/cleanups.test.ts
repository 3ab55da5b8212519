/**
 * The clean-ups helpers register (fixtures/cleanups.ts): all of them run, the last registered
 * first, even when one fails, and what failed is thrown afterwards.
 */
import { describe, expect, it } from 'vitest';

import { afterThisFile, afterThisTest, cleanUpFile, cleanUpTest } from './fixtures/cleanups.js';

describe('clean-ups', () => {
  it('runs every clean-up of a test, the last first, and then throws the one that failed', async () => {
    const ran: string[] = [];
    afterThisTest(() => ran.push('engine'));
    afterThisTest(() => {
      ran.push('broken');
      throw new Error('close failed');
    });
    afterThisTest(() => ran.push('folder'));
    await expect(cleanUpTest()).rejects.toThrow('close failed');
    expect(ran).toEqual(['folder', 'broken', 'engine']);
    await cleanUpTest(); // forgotten once run
    expect(ran).toHaveLength(3);
  });

  it('runs every clean-up of a file and names each failure when several fail', async () => {
    const ran: string[] = [];
    afterThisFile(async () => {
      ran.push('first');
      throw new Error('one');
    });
    afterThisFile(() => ran.push('middle'));
    afterThisFile(async () => {
      ran.push('last');
      throw new Error('two');
    });
    const failure = await cleanUpFile().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AggregateError);
    expect((failure as AggregateError).errors.map((error: Error) => error.message)).toEqual(['two', 'one']);
    expect(ran).toEqual(['last', 'middle', 'first']);
  });
});
