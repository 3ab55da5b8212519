import { runInNewContext } from 'node:vm';

import { describe, expect, it } from 'vitest';

import { EmbedderMismatchError, EngramError, InvalidInputError, isEngramError, NotFoundError } from './errors.js';

describe('EngramError', () => {
  it('is recognised across realms, where instanceof fails', () => {
    // The class as another realm (a VM context, a second copy of the module) would make it.
    const source = `
      const marker = Symbol.for('engram.error');
      const error = new Error('from elsewhere');
      Object.defineProperty(error, marker, { value: true });
      error.code = 'not_found';
      error;`;
    const foreign: unknown = runInNewContext(source, { Symbol });
    expect(foreign instanceof EngramError).toBe(false);
    expect(isEngramError(foreign)).toBe(true);
  });

  it('is not fooled by plain errors or lookalike objects', () => {
    expect(isEngramError(new Error('plain'))).toBe(false);
    expect(isEngramError({ name: 'EngramError', code: 'not_found', message: 'x' })).toBe(false);
    expect(isEngramError(null)).toBe(false);
    expect(isEngramError('engram')).toBe(false);
  });

  it('keeps the cause for every subclass', () => {
    const cause = new Error('underneath');
    for (const error of [
      new EngramError('closed', 'x', { cause }),
      new InvalidInputError('x', { cause }),
      new NotFoundError('x', { cause }),
      new EmbedderMismatchError('x', { cause }),
    ]) {
      expect(isEngramError(error)).toBe(true);
      expect(error.cause).toBe(cause);
    }
  });

  it('keeps the marker out of JSON and enumeration', () => {
    const error = new InvalidInputError('bad');
    expect(Object.getOwnPropertySymbols(error).every((key) => !Object.prototype.propertyIsEnumerable.call(error, key))).toBe(
      true,
    );
    expect(JSON.parse(JSON.stringify(error))).toEqual({ name: 'InvalidInputError', code: 'invalid_input' });
  });
});
