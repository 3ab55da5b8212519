import { describe, expect, it } from 'vitest';

import { EngramError, type EngramErrorCode } from '../../index.js';
import { errorResponse } from './api-error.js';

function answer(code: EngramErrorCode): { status: number; reported: boolean; code: string } {
  let reported = false;
  const { status, body } = errorResponse(new EngramError(code, `${code} happened`), () => (reported = true));
  return { status, reported, code: body.error.code };
}

describe('errorResponse', () => {
  it.each([
    ['invalid_input', 400],
    ['not_found', 404],
    ['embedder_mismatch', 409],
    ['database_locked', 503],
    ['database_read_only', 503],
    ['disk_full', 507],
    ['database_invalid', 500],
  ] as const)('answers %s with HTTP %i and the code itself', (code, status) => {
    expect(answer(code)).toMatchObject({ status, code });
  });

  it('logs the server-side failures and not the caller’s mistakes', () => {
    expect(answer('disk_full').reported).toBe(true);
    expect(answer('database_locked').reported).toBe(true);
    expect(answer('invalid_input').reported).toBe(false);
  });

  it('answers anything unexpected with a generic 500 and no details', () => {
    const { status, body } = errorResponse(new Error('SQLITE_MISUSE at /home/x/engram.db'), () => undefined);
    expect(status).toBe(500);
    expect(body.error).toEqual({ code: 'internal', message: 'unexpected server error: the server log has the details' });
  });
});
